// An agent's JSONL session read as a stream: the file is decoded and split into lines a chunk at
// a time and each line parsed as it arrives, so the whole file is never held as one string (nor
// as bytes) beside its parsed lines. Its first line decides whether it is read this way at all.
//
// Anything unusual — not a regular file, over the size limit, not strict UTF-8 text, a NUL byte,
// a first line that is not an object `accept` takes, or not complete in the first chunk — gives
// undefined, and the caller reads the file whole, which gives the same result or the same error
// as it always did.

import { JsonlParser, type JsonlResult } from '../engine/conversation/importers/jsonText';
import { pushFileText, startsWithUtf16Bom, withStreamableFile } from './textStream';

export interface StreamedLines<F> {
  format: F;
  lines: JsonlResult;
  bytes: number;
}

/** The first non-blank line, once the parser has read it: its value, or undefined when it was not
 *  valid JSON. `done` is false until then. */
function firstLine(parser: JsonlParser): { done: boolean; value: unknown } {
  const good = parser.lines[0];
  const bad = parser.badLines[0];
  if (bad && (!good || bad.line < good.line)) return { done: true, value: undefined };
  return good ? { done: true, value: good.value } : { done: false, value: undefined };
}

/**
 * Reads `path` line by line when its first line is one `accept` gives a format for; undefined
 * otherwise (see the header).
 */
export async function streamJsonlFile<F>(path: string, maxBytes: number, accept: (firstLine: unknown) => F | undefined): Promise<StreamedLines<F> | undefined> {
  return withStreamableFile(path, maxBytes, async (fh) => {
    const parser = new JsonlParser();
    let format: F | undefined;
    const bytes = await pushFileText(fh, maxBytes, startsWithUtf16Bom, (text) => {
      parser.push(text);
      if (format === undefined) {
        // The first chunk decides: a JSON document on one line (or a first line longer than a
        // chunk) is read whole, without reading it twice over.
        const line = firstLine(parser);
        format = line.done ? accept(line.value) : undefined;
      }
      return format !== undefined;
    });
    if (bytes === undefined || format === undefined) return undefined;
    try {
      return { format, lines: parser.end(), bytes };
    } catch {
      return undefined;
    }
  });
}
