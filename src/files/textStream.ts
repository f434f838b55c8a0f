// A text file read a chunk at a time as strict UTF-8, for the importers that take their input in
// pieces (an agent's JSONL session, an aider history), so the whole file is never one string.
// Whatever the whole read handles in its own way — not a regular file, empty or over the size
// limit, a byte-order mark the caller names, a NUL byte, bytes that are not UTF-8, a read that
// fails — stops the stream, and the caller reads the file whole, for the same result or error.

import { open, stat, type FileHandle } from 'node:fs/promises';

/** Bytes read at a time. */
const CHUNK_BYTES = 1024 * 1024;

/** A UTF-16 byte-order mark (LE or BE) at the start of `chunk`. */
export function startsWithUtf16Bom(chunk: Uint8Array): boolean {
  return chunk.length >= 2 && ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff));
}

/** A byte-order mark of UTF-8, UTF-16 LE or UTF-16 BE at the start of `chunk`. */
export function startsWithBom(chunk: Uint8Array): boolean {
  return (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) || startsWithUtf16Bom(chunk);
}

/** `read` on the regular file at `path` (1 to maxBytes bytes), opened for it and closed after;
 *  undefined for anything else, or when the file cannot be opened. */
export async function withStreamableFile<R>(path: string, maxBytes: number, read: (fh: FileHandle) => Promise<R | undefined>): Promise<R | undefined> {
  let fh: FileHandle;
  try {
    const s = await stat(path);
    if (!s.isFile() || s.size > maxBytes || s.size === 0) return undefined;
    fh = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    return await read(fh);
  } finally {
    await fh.close();
  }
}

/**
 * Hands an opened file's text to `push` a decoded piece at a time, from its start; `push` returns
 * false to stop. Gives the bytes read, or undefined when the stream stopped: `refuseStart` said
 * so of the first chunk, more than `maxBytes`, a NUL byte, not strict UTF-8, a failed read, or a
 * `push` that stopped or threw.
 */
export async function pushFileText(
  fh: FileHandle,
  maxBytes: number,
  refuseStart: (firstChunk: Uint8Array) => boolean,
  push: (text: string) => boolean,
): Promise<number | undefined> {
  try {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let bytes = 0;
    let first = true;
    for await (const chunk of fh.createReadStream({ highWaterMark: CHUNK_BYTES, autoClose: false, start: 0 }) as AsyncIterable<Buffer>) {
      if (first && refuseStart(chunk)) return undefined;
      first = false;
      bytes += chunk.length;
      if (bytes > maxBytes || chunk.indexOf(0) !== -1) return undefined;
      if (!push(decoder.decode(chunk, { stream: true }))) return undefined;
    }
    return push(decoder.decode()) ? bytes : undefined;
  } catch {
    // Not strict UTF-8 (the decoder throws), or the file went away: read whole, for its error.
    return undefined;
  }
}
