// The archive behind undo: content-addressed keys, exact restoration, clear errors.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, CanonicalJsonError } from '../../../src/engine/archive/canonicalJson';
import { ArchiveError, archiveConversation, conversationKey, readArchivedConversation } from '../../../src/engine/archive/conversationArchive';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { hashHex, pureSha256, type ContentHasher } from '../../../src/engine/archive/contentHasher';
import { compactConversation, CompactionInputError, undoCompaction } from '../../../src/engine/compactor';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import type { Conversation } from '../../../src/engine/conversation/model';

function conv(): Conversation {
  return {
    id: 'c1',
    format: 'openai',
    meta: { title: 'Grüße 你好 🎉' },
    messages: [
      { id: 'a', role: 'system', itemType: 'SYSTEM_PROMPT', content: [{ type: 'text', text: 'be brief' }] },
      {
        id: 'b',
        role: 'user',
        itemType: 'USER_MESSAGE',
        content: [{ type: 'text', text: 'fix src/a.ts\n\twith "quotes" \\ and \u2028' }],
        timestamp: '2024-01-01T00:00:00Z',
      },
    ],
  };
}

describe('sha256', () => {
  it('matches node:crypto on empty, short, block-boundary and multi-byte input', () => {
    const inputs = ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'a'.repeat(119), '你好世界🎉'.repeat(50), 'x'.repeat(100_000)];
    for (const s of inputs) expect(hashHex(pureSha256, s)).toBe(createHash('sha256').update(s, 'utf8').digest('hex'));
  });
});

describe('canonicalJson', () => {
  it('spells deep-equal values the same whatever their key order, leaving undefined out', () => {
    expect(canonicalJson({ b: 1, a: [1, { d: 2, c: undefined }] })).toBe(canonicalJson({ a: [1, { d: 2 }], b: 1 }));
    expect(canonicalJson({ b: 1, a: 'x' })).toBe('{"a":"x","b":1}');
  });
  it('refuses values JSON cannot carry, naming where', () => {
    expect(() => canonicalJson({ a: [1, Number.NaN] })).toThrow(CanonicalJsonError);
    expect(() => canonicalJson({ a: [1, Number.NaN] })).toThrow('$.a[1]');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow('cycle');
  });
});

describe('conversation archive', () => {
  it('restores the exact original: deep-equal and JSON-identical', async () => {
    const archive = new MemoryArchive();
    const original = conv();
    const id = await archiveConversation(original, archive);
    expect(id).toMatch(/^conv-[0-9a-f]{64}$/);
    const back = await readArchivedConversation(id, archive);
    expect(back).toEqual(original);
    expect(JSON.stringify(back)).toBe(JSON.stringify(original));
  });

  it('is content-addressed: the same conversation is stored once, under the same key', async () => {
    const archive = new MemoryArchive();
    const a = await archiveConversation(conv(), archive);
    const b = await archiveConversation(conv(), archive);
    expect(a).toBe(b);
    expect(archive.size).toBe(1);
    expect(conversationKey(conv())).toBe(a);
    const other = conv();
    other.messages[1]!.content = [{ type: 'text', text: 'something else' }];
    expect(await archiveConversation(other, archive)).not.toBe(a);
  });

  it('keeps a copy spelled with another key order under a variant key, so undo stays byte-exact', async () => {
    const archive = new MemoryArchive();
    const original = conv();
    const reordered = JSON.parse(
      JSON.stringify({ messages: original.messages, meta: original.meta, format: original.format, id: original.id }),
    ) as Conversation;
    const a = await archiveConversation(original, archive);
    const b = await archiveConversation(reordered, archive);
    expect(b.startsWith(`${a}.`)).toBe(true);
    expect(JSON.stringify(await readArchivedConversation(b, archive))).toBe(JSON.stringify(reordered));
    expect(JSON.stringify(await readArchivedConversation(a, archive))).toBe(JSON.stringify(original));
  });

  it('says clearly when an entry is missing, not JSON, or changed', async () => {
    const archive = new MemoryArchive();
    const id = await archiveConversation(conv(), archive);
    await expect(readArchivedConversation('conv-0000', archive)).rejects.toThrow(/not found/);
    await expect(readArchivedConversation('nope', archive)).rejects.toThrow(ArchiveError);
    const broken = new MemoryArchive();
    await broken.put(id, '{"id":');
    await expect(readArchivedConversation(id, broken)).rejects.toThrow(/not valid JSON/);
    const tampered = new MemoryArchive();
    await tampered.put(id, JSON.stringify({ ...conv(), id: 'other' }));
    await expect(readArchivedConversation(id, tampered)).rejects.toThrow(/does not match its content hash/);
  });
});

describe('the hasher a host injects', () => {
  /** SHA-256 through the engine's own, recording the text it was given. */
  function recording(): { hasher: ContentHasher; texts: string[] } {
    const texts: string[] = [];
    const hasher: ContentHasher = {
      create() {
        const inner = pureSha256.create();
        let text = '';
        return {
          update: (piece) => {
            text += piece;
            inner.update(piece);
          },
          hex: () => {
            texts.push(text);
            return inner.hex();
          },
        };
      },
    };
    return { hasher, texts };
  }

  it('keys the compaction archive and checks the undo: the canonical JSON goes through it', async () => {
    const original = conv();
    const { hasher, texts } = recording();
    const archive = new MemoryArchive();
    const result = await compactConversation(original, { counter: await createTokenCounter('gpt-4o'), archive, hasher });
    expect(texts).toEqual([canonicalJson(original)]);
    expect(result.archiveId).toBe(`conv-${hashHex(pureSha256, canonicalJson(original))}`);
    expect(await undoCompaction(result.archiveId, archive, hasher)).toEqual(original);
    expect(texts).toHaveLength(2);
  });

  it('gives other keys when it hashes otherwise (the option is the one used)', async () => {
    const constant: ContentHasher = { create: () => ({ update: () => undefined, hex: () => 'f'.repeat(64) }) };
    const result = await compactConversation(conv(), { counter: await createTokenCounter('gpt-4o'), archive: new MemoryArchive(), hasher: constant });
    expect(result.archiveId).toBe(`conv-${'f'.repeat(64)}`);
  });

  it('refuses a hasher without create()', async () => {
    const bad = { counter: await createTokenCounter('gpt-4o'), archive: new MemoryArchive(), hasher: {} as ContentHasher };
    await expect(compactConversation(conv(), bad)).rejects.toThrow(CompactionInputError);
    await expect(compactConversation(conv(), bad)).rejects.toThrow('options.hasher');
  });
});
