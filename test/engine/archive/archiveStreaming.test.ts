// The archive key is hashed as the canonical JSON is written, never holding the whole text: the
// incremental SHA-256 gives the digest of the whole input however it is cut into pieces (bytes
// or text, surrogate pairs and all), and conversationKey equals the hash of the canonical text.

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonTo } from '../../../src/engine/archive/canonicalJson';
import { conversationKey } from '../../../src/engine/archive/conversationArchive';
import { Sha256, sha256Hex } from '../../../src/engine/archive/sha256';
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

  it('hashes a text longer than its encoding buffer the same as one call of sha256Hex', () => {
    const text = `${'é😀 ascii '.repeat(20_000)}末尾`;
    expect(new Sha256().updateText(text.slice(0, 70_001)).updateText(text.slice(70_001)).hex()).toBe(sha256Hex(text));
    expect(sha256Hex(text)).toBe(nodeSha(Buffer.from(text, 'utf8')));
  });
});

describe('streamed canonical JSON', () => {
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
