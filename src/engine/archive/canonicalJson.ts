// Canonical JSON: the one spelling of a value that content addressing hashes. Object keys are
// sorted (by UTF-16 code units, as Array.prototype.sort does), undefined members are left out
// (as JSON.stringify does), no whitespace. Two conversations that are deep-equal get the same
// canonical text however their keys were ordered when they were built.
//
// Plain JSON data (what every importer makes: finite numbers, no functions, no cycles, plain
// objects and dense arrays) is checked once, then each message is written as one string by a
// recursion that keeps no path and gathers nothing. Anything else is written by the writer that
// tracks where it is, and fails there with the path of the first value at fault.

/** Thrown for values JSON cannot carry faithfully (NaN, functions, cycles). */
export class CanonicalJsonError extends Error {}

export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  canonicalJsonTo(value, (piece) => parts.push(piece));
  return parts.join('');
}

/** Characters gathered before they are handed on: few, long pieces for the consumer. */
const PIECE_CHARS = 16 * 1024;
/** Deeper data is written member by member (JSON from a transcript is far shallower). */
const PLAIN_MAX_DEPTH = 200;
/** Values this deep (a conversation's messages) are written as one string each. */
const WHOLE_FROM_DEPTH = 2;

/** The canonical JSON of `value`, handed to `emit` in pieces (in order; each piece ends between
 *  two JSON tokens, never inside a character), without building the whole text. */
export function canonicalJsonTo(value: unknown, emit: (piece: string) => void): void {
  const w = new Writer(emit, isPlain(value, 0));
  w.write(value, 0);
  w.flush();
}

/** Whether a tree is plain JSON data, which plainJson writes. */
function isPlain(value: unknown, depth: number): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (depth > PLAIN_MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return false;
      const v: unknown = value[i];
      if (v !== undefined && !isPlain(v, depth + 1)) return false;
    }
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const rec = value as Record<string, unknown>;
  for (const k of Object.keys(rec)) {
    const v = rec[k];
    if (v !== undefined && !isPlain(v, depth + 1)) return false;
  }
  return true;
}

/** Object keys as JSON, for the few keys a conversation's objects share. */
const QUOTED_KEYS = new Map<string, string>();
const QUOTED_KEYS_MAX = 1000;

function quotedKey(k: string): string {
  let q = QUOTED_KEYS.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (QUOTED_KEYS.size < QUOTED_KEYS_MAX) QUOTED_KEYS.set(k, q);
  }
  return q;
}

/** The canonical JSON of plain data (isPlain). */
function plainJson(v: unknown): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
    case 'number':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) {
      if (i > 0) s += ',';
      const x: unknown = v[i];
      s += x === undefined ? 'null' : plainJson(x);
    }
    return `${s}]`;
  }
  const rec = v as Record<string, unknown>;
  const keys = Object.keys(rec);
  if (keys.length > 1) keys.sort();
  let s = '{';
  let first = true;
  for (const k of keys) {
    const x = rec[k];
    if (x === undefined) continue;
    if (!first) s += ',';
    first = false;
    s += `${quotedKey(k)}:${plainJson(x)}`;
  }
  return `${s}}`;
}

class Writer {
  private pending = '';
  /** The keys and indices from the root to the value being written, for error messages. */
  private readonly path: (string | number)[] = [];
  private readonly stack = new Set<object>();

  constructor(
    private readonly emit: (piece: string) => void,
    /** The whole value is plain JSON data (isPlain). */
    private readonly plain: boolean,
  ) {}

  private put(s: string): void {
    this.pending += s;
    if (this.pending.length >= PIECE_CHARS) {
      this.emit(this.pending);
      this.pending = '';
    }
  }

  flush(): void {
    if (this.pending) this.emit(this.pending);
    this.pending = '';
  }

  private where(): string {
    let out = '$';
    for (const p of this.path) out += typeof p === 'number' ? `[${p}]` : `.${p}`;
    return out;
  }

  write(value: unknown, depth: number): void {
    if (value === null) {
      this.put('null');
      return;
    }
    switch (typeof value) {
      case 'string':
        this.put(JSON.stringify(value));
        return;
      case 'boolean':
        this.put(value ? 'true' : 'false');
        return;
      case 'number':
        if (!Number.isFinite(value)) throw new CanonicalJsonError(`${this.where()}: expected a finite number, got ${value}`);
        this.put(JSON.stringify(value));
        return;
      case 'object':
        break;
      default:
        throw new CanonicalJsonError(`${this.where()}: expected JSON data, got a ${typeof value}`);
    }
    if (this.plain && depth >= WHOLE_FROM_DEPTH) {
      this.put(plainJson(value));
      return;
    }
    const obj = value as object;
    if (this.stack.has(obj)) throw new CanonicalJsonError(`${this.where()}: expected a tree, found a cycle`);
    this.stack.add(obj);
    if (Array.isArray(obj)) {
      this.put('[');
      obj.forEach((v, i) => {
        if (i > 0) this.put(',');
        this.path.push(i);
        // JSON.stringify writes undefined array entries as null; so do we.
        this.write(v === undefined ? null : v, depth + 1);
        this.path.pop();
      });
      this.put(']');
    } else {
      const rec = obj as Record<string, unknown>;
      const keys = Object.keys(rec)
        .filter((k) => rec[k] !== undefined)
        .sort();
      this.put('{');
      keys.forEach((k, i) => {
        if (i > 0) this.put(',');
        this.put(JSON.stringify(k));
        this.put(':');
        this.path.push(k);
        this.write(rec[k], depth + 1);
        this.path.pop();
      });
      this.put('}');
    }
    this.stack.delete(obj);
  }
}
