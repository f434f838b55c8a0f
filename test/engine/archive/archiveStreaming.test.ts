// The archive key is hashed as the canonical JSON is written, never holding the whole text: the
// incremental SHA-256 gives the digest of the whole input however it is cut into pieces (bytes
// or text, surrogate pairs and all), and conversationKey equals the hash of the canonical text.

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonTo } from '../../../src/engine/archive/canonicalJson';
import { conversationKey } from '../../../src/engine/archive/conversationArchive';
import { hashHex, pureSha256 } from '../../../src/engine/archive/contentHasher';
import { Sha256 } from '../../../src/engine/archive/sha256';
import type { Conversation } from '../../../src/engine/conversation/model';

const nodeSha = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

describe('incremental SHA-256', () => {
  it('hashes bytes fed in any pieces as node:crypto hashes them whole', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.array(fc.nat({ max: 200 }), { maxLength: 8 }), (data, cuts) => {
        const h = new Sha256();
        let at = 0;
        for (const c of cuts) {
          h.update(data.subarray(at, Math.min(data.length, at + c)));
          at = Math.min(data.length, at + c);
        }
        h.update(data.subarray(at));
        expect(h.hex()).toBe(nodeSha(data));
      }),
      { numRuns: 300 },
    );
  });

  it('hashes text as its UTF-8 bytes, pieces cut between characters', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 10 }), (pieces) => {
        const h = new Sha256();
        for (const p of pieces) h.updateText(p);
        expect(h.hex()).toBe(nodeSha(Buffer.from(pieces.join(''), 'utf8')));
      }),
      { numRuns: 300 },
    );
  });

  it('hashes a text longer than its encoding buffer the same as one call of hashHex', () => {
    const text = `${'é😀 ascii '.repeat(20_000)}末尾`;
    expect(new Sha256().updateText(text.slice(0, 70_001)).updateText(text.slice(70_001)).hex()).toBe(hashHex(pureSha256, text));
    expect(hashHex(pureSha256, text)).toBe(nodeSha(Buffer.from(text, 'utf8')));
  });
});

/** Canonical JSON as its definition says, member by member: the reference the fast path is held to. */
function reference(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x) => reference(x === undefined ? null : x)).join(',')}]`;
  const rec = v as Record<string, unknown>;
  const keys = Object.keys(rec)
    .filter((k) => rec[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(rec[k])}`).join(',')}}`;
}

/** Keys that order differently as numbers and as text, and keys Object.prototype has. */
const AWKWARD_KEYS = ['10', '9', '0', 'a', 'B', 'toString', 'constructor', 'valueOf', 'hasOwnProperty', 'é', '😀', ''];

describe('streamed canonical JSON', () => {
  it('writes plain data as the member-by-member definition does, deep and shallow, with awkward keys', () => {
    const key = fc.oneof(fc.constantFrom(...AWKWARD_KEYS), fc.string({ maxLength: 4 }));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('arr'), tie('obj')),
      leaf: fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.constant(undefined)),
      arr: fc.array(tie('tree'), { maxLength: 4 }),
      obj: fc.dictionary(key, tie('tree'), { maxKeys: 5 }),
    }));
    fc.assert(
      fc.property(fc.array(tree, { maxLength: 5 }), fc.dictionary(key, tree, { maxKeys: 4 }), (list, meta) => {
        // The shape of a conversation (messages two levels down) and the bare values.
        for (const v of [{ messages: list, meta }, list, meta]) expect(canonicalJson(v)).toBe(reference(v));
      }),
      { numRuns: 500, seed: 27 },
    );
  });

  it('writes data that is not plain member by member: class instances, null prototypes, an own __proto__', () => {
    const nullProto = Object.assign(Object.create(null) as object, { b: 1, a: 2 });
    const withDate = { messages: [{ at: new Date(0), z: 1 }] };
    expect(canonicalJson({ messages: [nullProto] })).toBe('{"messages":[{"a":2,"b":1}]}');
    expect(canonicalJson(withDate)).toBe('{"messages":[{"at":{},"z":1}]}');
    expect(canonicalJson({ messages: [JSON.parse('{"__proto__":{"x":1},"a":1}') as unknown] })).toBe('{"messages":[{"__proto__":{"x":1},"a":1}]}');
  });

  it('hands on the same text canonicalJson builds, in pieces', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        let out = '';
        canonicalJsonTo(v, (p) => (out += p));
        expect(out).toBe(canonicalJson(v));
      }),
      { numRuns: 200 },
    );
  });

  it('gives a conversation the key of the SHA-256 of its canonical text', () => {
    const conv: Conversation = {
      messages: Array.from({ length: 3000 }, (_, i) => ({
        id: `m${i}`,
        role: i % 2 ? 'assistant' : 'user',
        itemType: i % 2 ? 'ASSISTANT_MESSAGE' : 'USER_MESSAGE',
        content: [{ type: 'text', text: `message ${i}: naïve 😀 ${'x'.repeat(i % 50)}` }],
      })),
      meta: { title: '会话' },
    } as Conversation;
    expect(conversationKey(conv)).toBe(`conv-${nodeSha(Buffer.from(canonicalJson(conv), 'utf8'))}`);
  });
});

/** Every own key anywhere in `v`. */
function keysIn(v: unknown, into = new Set<string>()): Set<string> {
  if (v !== null && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      into.add(k);
      keysIn((v as Record<string, unknown>)[k], into);
    }
  }
  return into;
}

/** Canonical JSON by JSON.stringify itself: its property list, the sorted keys of the whole value,
 *  fixes the order of every object's members (integer-like keys included, which an object built
 *  in sorted order would still list first). An own "__proto__" is left to the tests above: an
 *  object without one would read Object.prototype through the list. */
function stringifySorted(v: unknown): string {
  return JSON.stringify(v, [...keysIn(v)].sort());
}

const noProtoKey = (v: unknown) => !keysIn(v).has('__proto__');

describe('canonical JSON against JSON.stringify with sorted keys', () => {
  it('is the same text for any JSON value, bare and as the messages of a conversation', () => {
    fc.assert(
      fc.property(fc.jsonValue().filter(noProtoKey), fc.array(fc.jsonValue().filter(noProtoKey), { maxLength: 6 }), (value, messages) => {
        for (const v of [value, { messages, meta: value }]) expect(canonicalJson(v)).toBe(stringifySorted(v));
      }),
      { numRuns: 500 },
    );
  });

  it('is the same text when many objects share keys in other orders, or one first key with other keys', () => {
    const key = fc.constantFrom('id', 'role', 'content', 'text', '10', '9', 'toString', 'é', 'b', 'B');
    const value = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(undefined), fc.constant(null));
    const object = fc.dictionary(key, value, { maxKeys: 6 });
    const message = fc.record({ id: fc.string({ maxLength: 2 }), content: fc.array(object, { maxLength: 3 }), extra: object }, { requiredKeys: ['id'] });
    fc.assert(
      fc.property(fc.array(fc.oneof(object, message), { maxLength: 30 }), (messages) => {
        const conv = { messages, id: 'c' };
        expect(canonicalJson(conv)).toBe(stringifySorted(conv));
      }),
      { numRuns: 300 },
    );
  });

  it('is the same text past the number of object shapes it sorts once, and of shapes with one first key', () => {
    const messages = Array.from({ length: 2500 }, (_, i) => (i % 2 ? { z: i, [`w${i % 40}`]: 1, a: [i] } : { [`k${i % 1200}`]: 'v', z: { b: 1, a: i } }));
    const conv = { messages, meta: { title: 't' } };
    expect(canonicalJson(conv)).toBe(reference(conv));
  });

  it('writes a message that is not plain member by member among plain ones, holes as null as JSON does', () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    const conv = {
      messages: [
        { b: 1, a: 2 },
        { at: new Date(0), list: sparse },
        { d: sparse, c: 'x' },
      ],
    };
    expect(canonicalJson(conv)).toBe('{"messages":[{"a":2,"b":1},{"at":{},"list":[1,null,3]},{"c":"x","d":[1,null,3]}]}');
    expect(() => canonicalJson({ messages: [{ a: 1 }, { b: { c: [Number.NaN] } }] })).toThrow('$.messages[1].b.c[0]');
  });
});
