// Canonical JSON: the one spelling of a value that content addressing hashes. Object keys are
// sorted (by UTF-16 code units, as Array.prototype.sort does), undefined members are left out
// (as JSON.stringify does), no whitespace. Two conversations that are deep-equal get the same
// canonical text however their keys were ordered when they were built.

/** Thrown for values JSON cannot carry faithfully (NaN, functions, cycles). */
export class CanonicalJsonError extends Error {}

export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  write(value, { push: (...s: string[]) => void parts.push(...s) }, new Set(), '$');
  return parts.join('');
}

/** Characters gathered before they are handed on: few, long pieces for the consumer. */
const PIECE_CHARS = 16 * 1024;

/** The canonical JSON of `value`, handed to `emit` in pieces (in order; each piece ends between
 *  two JSON tokens, never inside a character), without building the whole text. */
export function canonicalJsonTo(value: unknown, emit: (piece: string) => void): void {
  let pending = '';
  const out = {
    push: (...s: string[]) => {
      for (const x of s) pending += x;
      if (pending.length >= PIECE_CHARS) {
        emit(pending);
        pending = '';
      }
    },
  };
  write(value, out, new Set(), '$');
  if (pending) emit(pending);
}

interface Out {
  push(...s: string[]): void;
}

function write(value: unknown, out: Out, stack: Set<object>, path: string): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(`${path}: expected a finite number, got ${value}`);
      out.push(JSON.stringify(value));
      return;
    case 'object':
      break;
    default:
      throw new CanonicalJsonError(`${path}: expected JSON data, got a ${typeof value}`);
  }
  const obj = value as object;
  if (stack.has(obj)) throw new CanonicalJsonError(`${path}: expected a tree, found a cycle`);
  stack.add(obj);
  if (Array.isArray(obj)) {
    out.push('[');
    obj.forEach((v, i) => {
      if (i > 0) out.push(',');
      // JSON.stringify writes undefined array entries as null; so do we.
      write(v === undefined ? null : v, out, stack, `${path}[${i}]`);
    });
    out.push(']');
  } else {
    const rec = obj as Record<string, unknown>;
    const keys = Object.keys(rec)
      .filter((k) => rec[k] !== undefined)
      .sort();
    out.push('{');
    keys.forEach((k, i) => {
      if (i > 0) out.push(',');
      out.push(JSON.stringify(k), ':');
      write(rec[k], out, stack, `${path}.${k}`);
    });
    out.push('}');
  }
  stack.delete(obj);
}
