// Canonical JSON: the one spelling of a value that content addressing hashes. Object keys are
// sorted (by UTF-16 code units, as Array.prototype.sort does), undefined members are left out
// (as JSON.stringify does), no whitespace. Two conversations that are deep-equal get the same
// canonical text however their keys were ordered when they were built.
//
// Plain JSON data (what every importer makes) is written by JSON.stringify itself: given the
// sorted list of every key the data holds, it writes each object's members in that list's order,
// which is the sorted order. Anything else — a number JSON cannot carry, a function, a cycle, an
// object with a prototype of its own (a toJSON JSON.stringify would call), a sparse array — is
// written member by member, and fails there with the path of the first value at fault.

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
/** Values this deep (a conversation's messages) are written by JSON.stringify, one each. */
const WHOLE_FROM_DEPTH = 2;

/** The canonical JSON of `value`, handed to `emit` in pieces (in order; each piece ends between
 *  two JSON tokens, never inside a character), without building the whole text. */
export function canonicalJsonTo(value: unknown, emit: (piece: string) => void): void {
  const w = new Writer(emit, sortedKeysOfPlain(value));
  w.write(value, 0);
  w.flush();
}

/** Every key of a tree of plain JSON data, sorted; undefined when the tree holds anything else. */
function sortedKeysOfPlain(value: unknown): string[] | undefined {
  const keys = new Set<string>();
  const ok = plain(value, keys, 0);
  // JSON.stringify reads a listed key through the prototype: "__proto__" would read one.
  if (!ok || keys.has('__proto__')) return undefined;
  return [...keys].sort();
}

function plain(value: unknown, keys: Set<string>, depth: number): boolean {
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
      if (v !== undefined && !plain(v, keys, depth + 1)) return false;
    }
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const rec = value as Record<string, unknown>;
  for (const k of Object.keys(rec)) {
    const v = rec[k];
    if (v === undefined) continue;
    keys.add(k);
    if (!plain(v, keys, depth + 1)) return false;
  }
  return true;
}

class Writer {
  private pending = '';
  /** The keys and indices from the root to the value being written, for error messages. */
  private readonly path: (string | number)[] = [];
  private readonly stack = new Set<object>();

  constructor(
    private readonly emit: (piece: string) => void,
    /** Set when the whole value is plain JSON data: the sorted keys JSON.stringify writes by. */
    private readonly keys: string[] | undefined,
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
    if (this.keys && depth >= WHOLE_FROM_DEPTH) {
      this.put(JSON.stringify(value, this.keys));
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
