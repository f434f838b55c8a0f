// The session file as the hook reads it: only the part an event needs, by byte offset. Claude
// Code only appends to a session file, so an offset taken once stays valid; a file that shrank
// (rewritten by another tool) is noticed by its size.
//
//   - Opening never hangs and never follows what is not a file: O_NONBLOCK (a named pipe put in
//     the file's place would otherwise block the open until a writer comes), then fstat on what was
//     opened. A FIFO, a device or a folder is refused with its kind named; a symlink is followed
//     to a regular file and said so, a dangling one or a loop is refused with the reason.
//   - Lines are read backwards from an offset, a chunk at a time, for what sits near the end (the
//     last compact boundary, the usage of the last request): the cost is what lies after it.
//   - A range is read forwards, decoded strictly (src/files/decodeText.ts).

import { constants } from 'node:fs';
import { lstat, open, readlink, type FileHandle } from 'node:fs/promises';
import { decodeTranscript } from '../../files/decodeText';

/** Bytes read per step when walking backwards. */
export const BACKWARD_CHUNK_BYTES = 1024 * 1024;

export type Opened = { ok: true; file: TranscriptFile } | { ok: false; reason: string };

/** What a file is when it is not a regular file, in words. */
function kindOf(s: { isFIFO(): boolean; isDirectory(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (s.isFIFO()) return 'a named pipe (FIFO)';
  if (s.isDirectory()) return 'a folder';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

export interface BackwardLine {
  /** Byte offset of the line's first byte. */
  start: number;
  /** The line's bytes, without its line break. */
  bytes: Buffer;
}

export class TranscriptFile {
  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    /** Bytes in the file when it was opened: what this run reads up to. */
    readonly size: number,
    /** How the path led to the file, when not directly ("a symlink to …"). */
    readonly note: string | undefined,
  ) {}

  static async open(path: string | undefined): Promise<Opened> {
    if (path === undefined) return { ok: false, reason: 'the input names no transcript_path' };
    let note: string | undefined;
    try {
      const link = await lstat(path);
      if (link.isSymbolicLink()) note = `${path} is a symlink to ${await readlink(path)}`;
    } catch (e) {
      return { ok: false, reason: `${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
    }
    let handle: FileHandle;
    try {
      handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'ELOOP' ? 'a loop of symlinks' : code === 'ENOENT' && note ? 'a symlink to nothing' : (code ?? (e as Error).message);
      return { ok: false, reason: `${path} cannot be read (${why})` };
    }
    try {
      const s = await handle.stat();
      if (!s.isFile()) {
        await handle.close();
        return { ok: false, reason: `${path} is ${kindOf(s)}, not a session file` };
      }
      return { ok: true, file: new TranscriptFile(path, handle, s.size, note) };
    } catch (e) {
      await handle.close().catch(() => undefined);
      return { ok: false, reason: `${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
    }
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }

  /** The bytes in [start, end). */
  async bytes(start: number, end = this.size): Promise<Buffer> {
    const length = Math.max(0, Math.min(end, this.size) - start);
    const buf = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await this.handle.read(buf, done, length - done, start + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done === length ? buf : buf.subarray(0, done);
  }

  /** The text in [start, end), decoded strictly (a TranscriptError names the byte where it fails). */
  async text(start: number, end = this.size): Promise<string> {
    return decodeTranscript(await this.bytes(start, end), this.path);
  }

  /**
   * The lines before `end`, last first, each with its byte offset: read a chunk at a time, so
   * stopping early costs only what was read. A line still being written (no line break yet at the
   * end) comes first, as it is.
   */
  async *linesBackward(end = this.size): AsyncGenerator<BackwardLine> {
    let pos = Math.min(end, this.size);
    // The start of the line whose bytes `carry` holds (it may begin in an earlier chunk).
    let carry = Buffer.alloc(0);
    while (pos > 0) {
      const from = Math.max(0, pos - BACKWARD_CHUNK_BYTES);
      const chunk = Buffer.concat([await this.bytes(from, pos), carry]);
      let lineEnd = chunk.length;
      for (let nl = chunk.lastIndexOf(0x0a, lineEnd - 1); nl >= 0; nl = chunk.lastIndexOf(0x0a, lineEnd - 1)) {
        if (nl + 1 < lineEnd) yield { start: from + nl + 1, bytes: chunk.subarray(nl + 1, lineEnd) };
        lineEnd = nl;
        if (lineEnd === 0) break;
      }
      carry = chunk.subarray(0, lineEnd);
      pos = from;
    }
    if (carry.length > 0) yield { start: 0, bytes: carry };
  }
}

/** A line's JSON object, or undefined when it is not one. */
export function parseLine(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(bytes.toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
