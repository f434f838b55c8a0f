// Reading a transcript file for the CLI: a size limit, binary detection and strict UTF-8, each
// failing with a TranscriptError that names the file, the byte and what was expected; then the
// import. The commands reach loadTranscript and printWarnings through fileCommand.ts's withTranscript.

import { open, stat } from 'node:fs/promises';
import type { ImportResult, ImportWarning } from '../engine/conversation/model';
import type { ImportOptions } from '../engine/conversation/importers/importOptions';
import { agentLogFormat, importSessionLines, importTranscript } from '../engine/conversation/importers/detect';
import { TranscriptError } from '../engine/conversation/importers/transcriptError';
import { clip, MAX_ECHO_CHARS } from '../engine/text/clip';
import type { CliIO } from './io';
import { decodeTranscript } from '../files/decodeText';
import { siblingUsage } from '../files/siblingUsage';
import { streamAiderFile } from '../files/aiderStream';
import { streamJsonlFile } from '../files/jsonlStream';
import { storeOwning } from '../sessions/agents/registry';

export { decodeTranscript, firstInvalidUtf8 } from '../files/decodeText';

/** Larger than any real session we have seen (the biggest public ones are a few MB), small enough
 *  that a mistaken path to a disk image fails at once instead of filling memory. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** Warnings printed one per line before the rest are only counted. */
export const MAX_PRINTED_WARNINGS = 10;
/** The FILE that means standard input. */
export const STDIN_FILE = '-';
/** What messages call standard input (also the conversation's source name). */
export const STDIN_NAME = 'standard input';

export interface ReadOptions {
  maxBytes?: number;
  /** Where FILE `-` reads from. */
  stdin?: AsyncIterable<Uint8Array | string>;
}

export interface TranscriptText {
  text: string;
  bytes: number;
  /** The bytes as read (compact --archive keeps them for undo). */
  raw: Uint8Array;
}

/** The name messages use for FILE: the path, or "standard input" for `-`. */
export function inputName(file: string): string {
  return file === STDIN_FILE ? STDIN_NAME : file;
}

/** Why a file could not be opened or read, by error code, as "found …" words. */
const READ_FAILURES: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'a folder',
  ENOTDIR: 'a path through a file (a part of it is not a folder)',
  ELOOP: 'a loop of symbolic links',
  ENAMETOOLONG: 'a name that is too long',
  EIO: 'an input/output error',
};

function readFailure(file: string, e: unknown): TranscriptError {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  const known = READ_FAILURES[code];
  return new TranscriptError({
    file,
    position: 'path',
    expected: code === 'EISDIR' ? 'a transcript file' : 'a readable file',
    found: known ? `${known} (${code})` : (e as Error).message,
  });
}

function tooLarge(file: string, maxBytes: number, size: string): TranscriptError {
  return new TranscriptError({
    file,
    position: `byte ${maxBytes}`,
    expected: `a file of at most ${formatMb(maxBytes)} (raise the limit with --max-size MB)`,
    found: size,
  });
}

/** Reads FILE (or standard input for `-`) whole, refusing more than maxBytes; every failure is a
 *  TranscriptError naming the file ("permission denied", "a folder", "no such file"). */
export async function readTranscriptFile(path: string, opts: ReadOptions = {}): Promise<TranscriptText> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const name = inputName(path);
  let buf: Uint8Array;
  if (path === STDIN_FILE) {
    if (!opts.stdin) throw new TranscriptError({ file: name, position: 'path', expected: 'a readable standard input', found: 'none' });
    buf = await readBounded(opts.stdin, maxBytes, name);
  } else {
    buf = await readFileBounded(path, maxBytes);
  }
  return { text: decodeTranscript(buf, name), bytes: buf.length, raw: buf };
}

/** A regular file too large is refused before it is read; a pipe or a device (`<(…)`, /dev/stdin)
 *  has no size up front and is read up to the limit. */
async function readFileBounded(path: string, maxBytes: number): Promise<Uint8Array> {
  try {
    const s = await stat(path);
    if (s.isDirectory()) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
    if (s.isFile() && s.size > maxBytes) throw tooLarge(path, maxBytes, formatMb(s.size));
    const fh = await open(path, 'r');
    try {
      if (!s.isFile()) return await readBounded(fh.createReadStream({ autoClose: false }), maxBytes, path);
      const buf = await fh.readFile();
      if (buf.length > maxBytes) throw tooLarge(path, maxBytes, formatMb(buf.length));
      return buf;
    } finally {
      await fh.close();
    }
  } catch (e) {
    if (e instanceof TranscriptError) throw e;
    throw readFailure(path, e);
  }
}

/** All of a stream's bytes, or a TranscriptError once more than maxBytes arrived. */
async function readBounded(source: AsyncIterable<Uint8Array | string>, maxBytes: number, file: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    total += bytes.length;
    if (total > maxBytes) throw tooLarge(file, maxBytes, `more than ${formatMb(maxBytes)}`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

function formatMb(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

export interface LoadOptions extends ReadOptions, Omit<ImportOptions, 'sourcePath'> {
  /** Keep the file's bytes (LoadedTranscript.raw): compact --archive stores them for undo. */
  keepBytes?: boolean;
}

export interface LoadedTranscript extends ImportResult {
  bytes: number;
  /** The bytes as read, when LoadOptions.keepBytes asked for them. */
  raw?: Uint8Array;
}

/** The agent sessions read as a stream (src/files/jsonlStream.ts): a Claude Code session, a Codex
 *  rollout or a Copilot CLI events file, named by the format option or by the first line. */
function streamedFormat(format: ImportOptions['format']): (firstLine: unknown) => 'claude-code' | 'codex' | 'copilot-cli' | undefined {
  return (firstLine) => {
    const f = format ?? agentLogFormat(firstLine);
    return f === 'claude-code' || f === 'codex' || f === 'copilot-cli' ? f : undefined;
  };
}

/** The file's text and size, and its bytes only when they are to be kept: nothing else holds
 *  them once this returns, so a large file's bytes can go while its text is imported. */
async function readForImport(path: string, opts: ReadOptions, keepBytes: boolean): Promise<{ text: string; bytes: number; raw?: Uint8Array }> {
  const { text, bytes, raw } = await readTranscriptFile(path, opts);
  return keepBytes ? { text, bytes, raw } : { text, bytes };
}

/** Reads and imports a transcript; every expected failure is a TranscriptError. An agent's JSONL
 *  session and an aider history are read a piece at a time (never whole as text), other files
 *  whole; the bytes are kept only when asked for. */
export async function loadTranscript(path: string, opts: LoadOptions = {}): Promise<LoadedTranscript> {
  const { maxBytes: _maxBytes, stdin: _stdin, keepBytes, ...importOpts } = opts;
  const sourcePath = inputName(path);
  // A session of an agent's store (`…/opencode.db#ses_…`, as `ctxc sessions` lists it).
  const stored = path === STDIN_FILE ? undefined : storeOwning(path);
  if (stored) {
    let text: string;
    try {
      text = await stored.store.read(path, opts.maxBytes ?? DEFAULT_MAX_BYTES);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== undefined) throw readFailure(path.slice(0, path.lastIndexOf('#')), e);
      const message = (e as Error).message;
      throw new TranscriptError({
        file: path,
        position: 'path',
        expected: `a session of ${stored.name}'s store`,
        found: message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message,
      });
    }
    const bytes = Buffer.byteLength(text);
    return { ...importTranscript(text, { ...importOpts, sourcePath, format: stored.formats[0]! }), bytes, ...(keepBytes ? { raw: Buffer.from(text) } : {}) };
  }
  const aiderName = path.toLowerCase().endsWith('.aider.chat.history.md');
  if (path !== STDIN_FILE && !keepBytes && aiderName && (importOpts.format === undefined || importOpts.format === 'aider')) {
    const streamed = await streamAiderFile(path, opts.maxBytes ?? DEFAULT_MAX_BYTES, { ...importOpts, sourcePath });
    if (streamed) return { ...streamed.result, bytes: streamed.bytes };
  }
  if (path !== STDIN_FILE && !keepBytes && !aiderName) {
    const streamed = await streamJsonlFile(path, opts.maxBytes ?? DEFAULT_MAX_BYTES, streamedFormat(importOpts.format));
    if (streamed) return { ...importSessionLines(streamed.format, streamed.lines, { ...importOpts, sourcePath }), bytes: streamed.bytes };
  }
  const { text, bytes, raw } = await readForImport(path, opts, keepBytes === true);
  // Usage kept beside the transcript (Cline's ui_messages.json); standard input has no folder.
  const usage = path === STDIN_FILE ? undefined : await siblingUsage(path);
  const result = importTranscript(text, { ...importOpts, sourcePath, ...(usage ? { usage } : {}) });
  return { ...result, bytes, ...(raw ? { raw } : {}) };
}

/** Warnings to stderr, one line each, at most MAX_PRINTED_WARNINGS and then a count. */
export function printWarnings(io: CliIO, file: string, warnings: readonly ImportWarning[], max = MAX_PRINTED_WARNINGS): void {
  for (const w of warnings.slice(0, max)) io.err(`warning: ${file}: ${clip(w.position)}: ${clip(w.message, 2 * MAX_ECHO_CHARS)}\n`);
  if (warnings.length > max) io.err(`warning: … ${warnings.length - max} more\n`);
}
