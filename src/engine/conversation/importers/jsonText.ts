// JSON and JSONL reading with positions a person can use. JSON.parse does the work; only when it
// fails does a small iterative scanner walk the text to find the line and column of the first
// error and say what was expected there (V8's messages often carry no position at all).

import { TranscriptError } from './transcriptError';

export interface LineColumn {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
}

export function lineColumnAt(text: string, offset: number): LineColumn {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

export function formatLineColumn(lc: LineColumn): string {
  return `line ${lc.line}, column ${lc.column}`;
}

export interface JsonSyntaxProblem {
  /** Offset of the offending character (text.length for a premature end). */
  offset: number;
  expected: string;
  found: string;
}

/** Parses a whole document; a syntax error becomes a TranscriptError naming line and column. */
export function parseJsonDocument(text: string, file: string | undefined, lineOffset = 0): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    const problem = locateJsonError(text) ?? { offset: 0, expected: 'valid JSON', found: e.message };
    const lc = lineColumnAt(text, problem.offset);
    throw new TranscriptError({
      file,
      position: formatLineColumn({ line: lc.line + lineOffset, column: lc.column }),
      expected: problem.expected,
      found: problem.found,
    });
  }
}

/** Strips a UTF-8 byte-order mark, which JSON.parse rejects and editors sometimes write. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function describeChar(text: string, i: number): string {
  if (i >= text.length) return 'end of input';
  const c = text[i]!;
  const code = c.charCodeAt(0);
  if (code < 0x20) return `control character U+${code.toString(16).padStart(4, '0').toUpperCase()}`;
  return `'${c}'`;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

type Container = 'object' | 'array';
type State = 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'after';

/** Finds the first JSON syntax error, or undefined when the text is valid. Iterative (an explicit
 *  stack), linear in the text, so deeply nested or huge input cannot overflow it. */
export function locateJsonError(text: string): JsonSyntaxProblem | undefined {
  const stack: Container[] = [];
  let state: State = 'value';
  let i = 0;
  const n = text.length;
  const fail = (expected: string): JsonSyntaxProblem => ({ offset: i, expected, found: describeChar(text, i) });
  for (;;) {
    while (i < n && WS.has(text.charCodeAt(i))) i++;
    if (state === 'after') {
      const top = stack[stack.length - 1];
      if (top === undefined) return i < n ? fail('end of input after the JSON value') : undefined;
      const c = text[i];
      if (c === ',') {
        state = top === 'object' ? 'key' : 'value';
        i++;
      } else if ((c === '}' && top === 'object') || (c === ']' && top === 'array')) {
        stack.pop();
        i++;
      } else {
        return fail(top === 'object' ? "',' or '}' after a property value" : "',' or ']' after an array element");
      }
      continue;
    }
    if (state === 'colon') {
      if (text[i] !== ':') return fail("':' after a property name");
      i++;
      state = 'value';
      continue;
    }
    if (state === 'key' || state === 'keyOrClose') {
      if (state === 'keyOrClose' && text[i] === '}') {
        stack.pop();
        i++;
        state = 'after';
        continue;
      }
      if (text[i] !== '"') return fail(state === 'keyOrClose' ? "a property name in double quotes or '}'" : 'a property name in double quotes');
      const bad = scanString();
      if (bad) return bad;
      state = 'colon';
      continue;
    }
    // state is 'value' or 'valueOrClose'
    const c = text[i];
    if (state === 'valueOrClose' && c === ']') {
      stack.pop();
      i++;
      state = 'after';
      continue;
    }
    if (c === '{') {
      stack.push('object');
      i++;
      state = 'keyOrClose';
    } else if (c === '[') {
      stack.push('array');
      i++;
      state = 'valueOrClose';
    } else if (c === '"') {
      const bad = scanString();
      if (bad) return bad;
      state = 'after';
    } else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m || m[0] === '-') return fail('a number');
      i += m[0].length;
      state = 'after';
    } else if (text.startsWith('true', i) || text.startsWith('null', i)) {
      i += 4;
      state = 'after';
    } else if (text.startsWith('false', i)) {
      i += 5;
      state = 'after';
    } else {
      return fail(state === 'valueOrClose' ? "a JSON value or ']'" : 'a JSON value');
    }
  }

  function scanString(): JsonSyntaxProblem | undefined {
    i++; // opening quote
    for (;;) {
      if (i >= n) return fail("a closing '\"' (unterminated string)");
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        i++;
        return undefined;
      }
      if (code < 0x20) return fail('no raw control characters inside a string (escape them)');
      if (code === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          HEX4.lastIndex = i + 2;
          if (!HEX4.test(text)) {
            i += 2;
            return fail('four hex digits after \\u');
          }
          i += 6;
        } else if (e !== undefined && ESCAPES.has(e)) {
          i += 2;
        } else {
          i++;
          return fail('a valid escape after \\');
        }
        continue;
      }
      i++;
    }
  }
}

export interface JsonlLine {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

export interface JsonlResult {
  lines: JsonlLine[];
  /** Lines that were not valid JSON, with the reason (line/column included). */
  bad: { line: number; message: string }[];
}

/** The same, read only: lines a JsonlParser still adds to (JsonlParser.parsed). */
export interface JsonlLines {
  readonly lines: readonly JsonlLine[];
  readonly bad: readonly JsonlResult['bad'][number][];
}

/** Splits JSONL; blank lines are skipped, bad lines reported (not thrown) so one torn line does
 *  not lose a whole session. */
export function parseJsonl(text: string): JsonlResult {
  const parser = new JsonlParser();
  parser.push(text);
  return parser.end();
}

/** parseJsonl fed in pieces (a file read as a stream): the same lines, line numbers and bad-line
 *  reports, without the whole text ever being one string. */
export class JsonlParser {
  private readonly out: JsonlResult = { lines: [], bad: [] };
  private pending = '';
  private lineNo = 0;

  push(piece: string): void {
    let end = piece.indexOf('\n');
    if (end === -1) {
      this.pending += piece;
      return;
    }
    this.line(this.pending + piece.slice(0, end));
    let start = end + 1;
    for (end = piece.indexOf('\n', start); end !== -1; end = piece.indexOf('\n', start)) {
      this.line(piece.slice(start, end));
      start = end + 1;
    }
    this.pending = piece.slice(start);
  }

  /** The lines read; the text after the last newline is the last line. */
  end(): JsonlResult {
    this.line(this.pending);
    this.pending = '';
    return this.out;
  }

  /** Everything parsed so far, as the parser keeps it (no copy: it grows with the next push). */
  get parsed(): JsonlLines {
    return this.out;
  }

  /** Lines parsed so far (the first one decides a stream's format)… */
  get lines(): readonly JsonlLine[] {
    return this.out.lines;
  }

  /** …and the lines that were not valid JSON so far. */
  get badLines(): JsonlResult['bad'] {
    return this.out.bad;
  }

  private line(text: string): void {
    this.lineNo++;
    const raw = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (raw.trim() === '') return;
    try {
      this.out.lines.push({ line: this.lineNo, value: JSON.parse(raw) });
    } catch {
      const p = locateJsonError(raw);
      const col = p ? p.offset + 1 : 1;
      this.out.bad.push({ line: this.lineNo, message: p ? `column ${col}: expected ${p.expected}, found ${p.found}` : 'not valid JSON' });
    }
  }
}

/** JSON.stringify that survives pathologically deep values (JSON.parse accepts any depth,
 *  JSON.stringify recurses and overflows): undefined instead of a RangeError. */
export function stringifySafely(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}
