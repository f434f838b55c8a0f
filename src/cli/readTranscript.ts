// Reading a transcript file for the CLI: a size limit, binary detection and strict UTF-8, each
// failing with a TranscriptError that names the file, the byte and what was expected; then the
// import. The commands reach loadTranscript and printWarnings through fileCommand.ts's withTranscript.

import { readFile, stat } from 'node:fs/promises';
import type { ImportResult, ImportWarning } from '../engine/conversation/model';
import type { ImportOptions } from '../engine/conversation/importers/importOptions';
import { importTranscript } from '../engine/conversation/importers/detect';
import { isTranscriptError, TranscriptError } from '../engine/conversation/importers/transcriptError';
import type { CliIO } from './io';

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

/** Strict decoding: UTF-8 only, no NUL bytes (a binary file), a clear offset when it fails. */
export function decodeTranscript(buf: Uint8Array, file?: string): string {
  if (buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) {
    throw new TranscriptError({ file, position: 'byte 0', expected: 'UTF-8 text', found: 'a UTF-16 byte-order mark (save the file as UTF-8)' });
  }
  const nul = buf.indexOf(0);
  if (nul !== -1) {
    throw new TranscriptError({ file, position: `byte ${nul}`, expected: 'text (UTF-8)', found: 'a NUL byte: this looks like a binary file' });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    const at = firstInvalidUtf8(buf);
    throw new TranscriptError({ file, position: `byte ${at}`, expected: 'UTF-8 text', found: `an invalid UTF-8 sequence (0x${(buf[at] ?? 0).toString(16).padStart(2, '0')})` });
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return buf.length;
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
