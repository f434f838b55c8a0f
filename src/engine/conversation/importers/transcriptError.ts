// The one error a person sees when a transcript cannot be read. Its message is a single line
// that names the file, the position and what was expected, so the CLI and the extension can
// print it as it is: "chat.jsonl: line 12, column 5: expected a JSON object with a 'type'
// field, found a number".

import { clip } from '../../text/clip';

export interface TranscriptErrorDetails {
  /** The file it came from, when known. */
  file?: string;
  /** Where: "line 12, column 5", "messages[4].content", "byte 1043", "top level". */
  position: string;
  /** The shape that was expected there. */
  expected: string;
  /** What was there instead, shortly ("a number", "end of input"). */
  found?: string;
}

export class TranscriptError extends Error {
  override readonly name = 'TranscriptError';
  readonly file: string | undefined;
  readonly position: string;
  readonly expected: string;
  readonly found: string | undefined;

  constructor(details: TranscriptErrorDetails) {
    super(formatTranscriptError(details));
    this.file = details.file;
    this.position = details.position;
    this.expected = details.expected;
    this.found = details.found;
  }
}

/** One line; what came from the file (the position's keys, the "found" text) is clipped, so a
 *  5 MB key or line cannot make a 5 MB message. */
export function formatTranscriptError(d: TranscriptErrorDetails): string {
  const where = d.file ? `${d.file}: ${clip(d.position)}` : clip(d.position);
  const found = d.found ? `, found ${clip(d.found)}` : '';
  return `${where}: expected ${d.expected}${found}`.replace(/[\r\n]+/g, ' ');
}

/** Positions that are made of the format's own words and numbers only ("line 12, column 5",
 *  "messages[4].content", "top level"), never of a key read from the file. */
const STRUCTURAL_POSITION = /^(?:top level|file|messages|(?:lines?|byte|instance) \d+(?:-\d+)?(?:, column \d+)?|[a-z_]*(?:\[\d+\])+(?:\.[a-z_]+)*)$/;

/** The message without anything taken from the file (what was found there, a position built from
 *  its keys): for a caller that must not show a file's content, e.g. to a model over MCP. */
export function formatTranscriptErrorUnquoted(d: Pick<TranscriptErrorDetails, 'file' | 'position' | 'expected'>): string {
  const where = STRUCTURAL_POSITION.test(d.position) ? `: ${d.position}` : '';
  return `${d.file ? `${d.file}${where}` : where.slice(2) || 'the file'}: expected ${d.expected}`.replace(/[\r\n]+/g, ' ');
}

export function isTranscriptError(e: unknown): e is TranscriptError {
  return e instanceof TranscriptError || (e instanceof Error && e.name === 'TranscriptError' && 'position' in e);
}

/** How a JSON value is described in "found …". */
export function describeJsonValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  switch (typeof v) {
    case 'string':
      return v.length > 40 ? `a string ("${v.slice(0, 37)}…")` : `a string ("${v}")`;
    case 'number':
      return `a number (${v})`;
    case 'boolean':
      return `${v}`;
    case 'object': {
      const keys = Object.keys(v as object);
      return keys.length === 0
        ? 'an empty object'
        : `an object with keys ${keys
            .slice(0, 5)
            .map((k) => clip(k, 40))
            .join(', ')}${keys.length > 5 ? ', …' : ''}`;
    }
    default:
      return typeof v;
  }
}
