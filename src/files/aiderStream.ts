// An aider chat history read as a stream: decoded a chunk at a time and handed to the importer's
// reader (AiderReader), so the whole file is never one string. A 50 MB history with one character
// beyond Latin-1 decodes to a 90 MB string of two bytes a character; read whole, it stays in the
// heap long after the import, until the next full collection, and the heap is sized around it.
//
// Anything unusual — not a regular file, over the size limit, empty or only white space, a
// byte-order mark, a NUL byte, not strict UTF-8 — gives undefined, and the caller reads the file
// whole, which gives the same result or the same error as it always did.

import { open, stat, type FileHandle } from 'node:fs/promises';
import { AiderReader } from '../engine/conversation/importers/aider';
import type { ImportOptions } from '../engine/conversation/importers/importOptions';
import type { ImportResult } from '../engine/conversation/model';

/** Bytes read at a time. */
const CHUNK_BYTES = 1024 * 1024;

/** A byte-order mark of UTF-8, UTF-16 LE or UTF-16 BE at the start of `chunk`. */
function startsWithBom(chunk: Uint8Array): boolean {
  if (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) return true;
  return chunk.length >= 2 && ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff));
}

/** The import of the aider history at `path` read in chunks, as importTranscript gives it for
 *  the whole text; undefined when the file is to be read whole (see the header). */
export async function streamAiderFile(path: string, maxBytes: number, opts: ImportOptions): Promise<{ result: ImportResult; bytes: number } | undefined> {
  let fh: FileHandle;
  try {
    const s = await stat(path);
    if (!s.isFile() || s.size > maxBytes || s.size === 0) return undefined;
    fh = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    return await streamAiderHandle(fh, maxBytes, opts);
  } finally {
    await fh.close();
  }
}

/** streamAiderFile on a file already opened (a session's file, opened without following links);
 *  the caller closes it. */
export async function streamAiderHandle(fh: FileHandle, maxBytes: number, opts: ImportOptions): Promise<{ result: ImportResult; bytes: number } | undefined> {
  try {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const reader = new AiderReader(opts);
    let bytes = 0;
    let first = true;
    /** Whether a character other than white space was read (an empty file is an error). */
    let words = false;
    const push = (text: string) => {
      if (!words && /\S/.test(text)) words = true;
      reader.push(text);
    };
    for await (const chunk of fh.createReadStream({ highWaterMark: CHUNK_BYTES, autoClose: false, start: 0 }) as AsyncIterable<Buffer>) {
      if (first && startsWithBom(chunk)) return undefined;
      first = false;
      bytes += chunk.length;
      if (bytes > maxBytes || chunk.indexOf(0) !== -1) return undefined;
      push(decoder.decode(chunk, { stream: true }));
    }
    push(decoder.decode());
    if (!words) return undefined;
    return { result: reader.end(), bytes };
  } catch {
    // Not strict UTF-8 (the decoder throws), or the file went away: read whole, for its error.
    return undefined;
  }
}
