// Canonical JSON: the one spelling of a value that content addressing hashes. Object keys are
// sorted (by UTF-16 code units, as Array.prototype.sort does), undefined members are left out
// (as JSON.stringify does), no whitespace. Two conversations that are deep-equal get the same
// canonical text however their keys were ordered when they were built.
//
// Plain JSON data (what every importer makes: finite numbers, no functions, no cycles, plain
// objects and dense arrays) is written one message at a time as one string, by a recursion that
// keeps no path and gathers nothing, and that checks as it goes; a message where it meets anything
// else is written again by the writer that tracks where it is, which fails there with the path of
// the first value at fault.

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
  const w = new Writer(emit, new Shapes());
  w.write(value, 0);
  w.flush();
}

/** An object's keys as Object.keys lists them, the same keys sorted, and each sorted key written
 *  as `"key":`. */
interface Shape {
  readonly keys: readonly string[];
  readonly sorted: readonly string[];
  readonly prefixes: readonly string[];
}

/** Shapes kept per call, and per first key: a conversation's objects come in a few shapes (a
 *  message, a text part, a tool call), so each is sorted and its keys quoted once, not per object. */
const SHAPES_MAX = 1000;
const SHAPES_PER_FIRST_KEY = 8;

/** The shapes of the objects one call writes. */
class Shapes {
  private readonly byFirstKey = new Map<string, Shape[]>();
  private count = 0;

  of(keys: string[]): Shape {
    let list = this.byFirstKey.get(keys[0]!);
    if (list !== undefined) {
      for (const shape of list) if (sameKeys(shape.keys, keys)) return shape;
    }
    const sorted = keys.length > 1 ? [...keys].sort() : keys;
    const shape: Shape = { keys, sorted, prefixes: sorted.map((k) => `${JSON.stringify(k)}:`) };
    if (this.count < SHAPES_MAX && (list?.length ?? 0) < SHAPES_PER_FIRST_KEY) {
      if (list === undefined) this.byFirstKey.set(keys[0]!, (list = []));
      list.push(shape);
      this.count++;
    }
    return shape;
  }
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Thrown by plainJson at the first value that is not plain JSON data (one instance: nothing is
 *  built per throw). */
class NotPlain extends Error {}
const NOT_PLAIN = new NotPlain('not plain JSON data');

/** The canonical JSON of plain data (finite numbers, no functions, plain objects and dense
 *  arrays, at most PLAIN_MAX_DEPTH deep: a cycle is too deep); NOT_PLAIN for anything else. */
function plainJson(v: unknown, depth: number, shapes: Shapes): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      if (!Number.isFinite(v)) throw NOT_PLAIN;
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      break;
    default:
      throw NOT_PLAIN;
  }
  if (depth > PLAIN_MAX_DEPTH) throw NOT_PLAIN;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) throw NOT_PLAIN;
    let s = '[';
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) throw NOT_PLAIN;
      if (i > 0) s += ',';
      const x: unknown = v[i];
      s += x === undefined ? 'null' : plainJson(x, depth + 1, shapes);
    }
    return `${s}]`;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  const rec = v as Record<string, unknown>;
  const keys = Object.keys(rec);
  if (keys.length === 0) return '{}';
  const { sorted, prefixes } = shapes.of(keys);
  let s = '{';
  let first = true;
  for (let i = 0; i < sorted.length; i++) {
    const x = rec[sorted[i]!];
    if (x === undefined) continue;
    if (!first) s += ',';
    first = false;
    s += prefixes[i]! + plainJson(x, depth + 1, shapes);
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
    private readonly shapes: Shapes,
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
    if (depth === WHOLE_FROM_DEPTH) {
      let whole: string | undefined;
      try {
        whole = plainJson(value, depth, this.shapes);
      } catch (e) {
        if (e !== NOT_PLAIN) throw e;
      }
      if (whole !== undefined) {
        this.put(whole);
        return;
      }
    }
    const obj = value as object;
    if (this.stack.has(obj)) throw new CanonicalJsonError(`${this.where()}: expected a tree, found a cycle`);
    this.stack.add(obj);
    if (Array.isArray(obj)) {
      this.put('[');
      for (let i = 0; i < obj.length; i++) {
        if (i > 0) this.put(',');
        this.path.push(i);
        // JSON.stringify writes undefined entries and holes as null; so do we.
        const v: unknown = obj[i];
        this.write(v === undefined ? null : v, depth + 1);
        this.path.pop();
      }
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
