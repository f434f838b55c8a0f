// An aider chat history read as a stream: decoded a chunk at a time and handed to the importer's
// reader (AiderReader), so the whole file is never one string. A 50 MB history with one character
// beyond Latin-1 decodes to a 90 MB string of two bytes a character; read whole, it stays in the
// heap long after the import, until the next full collection, and the heap is sized around it.
//
// Anything unusual — not a regular file, over the size limit, empty or only white space, a
// byte-order mark, a NUL byte, not strict UTF-8 — gives undefined, and the caller reads the file
// whole, which gives the same result or the same error as it always did.

import type { FileHandle } from 'node:fs/promises';
import { AiderReader } from '../engine/conversation/importers/aider';
import type { ImportOptions } from '../engine/conversation/importers/importOptions';
import type { ImportResult } from '../engine/conversation/model';
import { pushFileText, startsWithBom, withStreamableFile } from './textStream';

/** The import of the aider history at `path` read in chunks, as importTranscript gives it for
 *  the whole text; undefined when the file is to be read whole (see the header). */
export async function streamAiderFile(path: string, maxBytes: number, opts: ImportOptions): Promise<{ result: ImportResult; bytes: number } | undefined> {
  return withStreamableFile(path, maxBytes, (fh) => streamAiderHandle(fh, maxBytes, opts));
}

/** streamAiderFile on a file already opened (a session's file, opened without following links);
 *  the caller closes it. */
export async function streamAiderHandle(fh: FileHandle, maxBytes: number, opts: ImportOptions): Promise<{ result: ImportResult; bytes: number } | undefined> {
  const reader = new AiderReader(opts);
  /** Whether a character other than white space was read (an empty file is an error). */
  let words = false;
  const bytes = await pushFileText(fh, maxBytes, startsWithBom, (text) => {
    if (!words && /\S/.test(text)) words = true;
    reader.push(text);
    return true;
  });
  if (bytes === undefined || !words) return undefined;
  try {
    return { result: reader.end(), bytes };
  } catch {
    // The whole read gives the error, with the file's name and position.
    return undefined;
  }
}
