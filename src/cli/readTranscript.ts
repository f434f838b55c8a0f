// Reading a transcript file for the CLI: a size limit, binary detection and strict UTF-8, each
// failing with a TranscriptError that names the file, the byte and what was expected; then the
// import. The commands reach loadTranscript and printWarnings through fileCommand.ts's withTranscript.

import { readFile, stat } from 'node:fs/promises';
import type { ImportResult, ImportWarning } from '../engine/conversation/model';
import type { ImportOptions } from '../engine/conversation/importers/importOptions';
import { importTranscript } from '../engine/conversation/importers/detect';
import { isTranscriptError, TranscriptError } from '../engine/conversation/importers/transcriptError';
import type { CliIO } from './io';
import { decodeTranscript } from '../node/decodeText';

export { decodeTranscript, firstInvalidUtf8 } from '../node/decodeText';

/** Larger than any real session we have seen (the biggest public ones are a few MB), small enough
 *  that a mistaken path to a disk image fails at once instead of filling memory. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** Warnings printed one per line before the rest are only counted. */
export const MAX_PRINTED_WARNINGS = 10;

export interface ReadOptions {
  maxBytes?: number;
}

export interface TranscriptText {
  text: string;
  bytes: number;
}

export async function readTranscriptFile(path: string, opts: ReadOptions = {}): Promise<TranscriptText> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  let size: number;
  try {
    const s = await stat(path);
    if (s.isDirectory()) throw new TranscriptError({ file: path, position: 'path', expected: 'a transcript file', found: 'a directory' });
    size = s.size;
  } catch (e) {
    if (isTranscriptError(e)) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new TranscriptError({ file: path, position: 'path', expected: 'a readable file', found: code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'no permission to read it' : (e as Error).message });
  }
  if (size > maxBytes) {
    throw new TranscriptError({ file: path, position: `byte ${maxBytes}`, expected: `a file of at most ${formatMb(maxBytes)} (raise the limit with --max-size MB)`, found: `${formatMb(size)}` });
  }
  const buf = await readFile(path);
  return { text: decodeTranscript(buf, path), bytes: buf.length };
}

function formatMb(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

export interface LoadOptions extends ReadOptions, Omit<ImportOptions, 'sourcePath'> {}

export interface LoadedTranscript extends ImportResult {
  bytes: number;
}

/** Reads and imports a transcript; every expected failure is a TranscriptError. */
export async function loadTranscript(path: string, opts: LoadOptions = {}): Promise<LoadedTranscript> {
  const { text, bytes } = await readTranscriptFile(path, opts);
  const { maxBytes: _maxBytes, ...importOpts } = opts;
  const result = importTranscript(text, { ...importOpts, sourcePath: path });
  return { ...result, bytes };
}

/** Warnings to stderr, one line each, at most MAX_PRINTED_WARNINGS and then a count. */
export function printWarnings(io: CliIO, file: string, warnings: readonly ImportWarning[], max = MAX_PRINTED_WARNINGS): void {
  for (const w of warnings.slice(0, max)) io.err(`warning: ${file}: ${w.position}: ${w.message.replace(/[\r\n]+/g, ' ')}\n`);
  if (warnings.length > max) io.err(`warning: … ${warnings.length - max} more\n`);
}
