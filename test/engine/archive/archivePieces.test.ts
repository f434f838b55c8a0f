// The archive takes an original in pieces: exactJsonPieces spells JSON.stringify of the
// conversation exactly, the stores (in memory, on disk) keep exactly what they were handed, and a
// large conversation reaches the store as many pieces, never as one string — undo stays byte-exact.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { archiveTextOf, type ArchiveStore, type ArchiveText } from '../../../src/engine/archive/archiveStore';
import { archiveConversation, exactJsonPieces, readArchivedConversation } from '../../../src/engine/archive/conversationArchive';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import type { Conversation, Message } from '../../../src/engine/conversation/model';
import { FileArchive } from '../../../src/files/fileArchive';

function message(i: number, text: string): Message {
  return { id: `m${i}`, role: i % 2 ? 'assistant' : 'user', itemType: i % 2 ? 'ASSISTANT_MESSAGE' : 'USER_MESSAGE', content: [{ type: 'text', text }] };
}

function big(n: number): Conversation {
  const messages = Array.from({ length: n }, (_, i) => message(i, `message ${i}: Grüße 你好 🎉 ${'x'.repeat(i % 500)}`));
  return { id: 'big', format: 'openai', meta: { title: 'big' }, messages };
}

/** A store that records how it was handed each entry. */
class RecordingStore extends MemoryArchive {
  readonly handed: { key: string; pieces: number; largest: number; whole: boolean }[] = [];
  override async put(key: string, data: ArchiveText): Promise<void> {
    const pieces = typeof data === 'string' ? [data] : [...data];
    this.handed.push({ key, pieces: pieces.length, largest: Math.max(...pieces.map((p) => p.length)), whole: typeof data === 'string' });
    return super.put(key, pieces);
  }
}

describe('exactJsonPieces', () => {
  it('spells JSON.stringify of the conversation, members in their own order, left-out values left out', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    const messageArb = fc.record(
      {
        id: fc.string(),
        role: fc.constant('user'),
        itemType: fc.constant('USER_MESSAGE'),
        content: fc.array(value, { maxLength: 3 }),
        extra: fc.option(value, { nil: undefined }),
      },
      { requiredKeys: ['id', 'role'] },
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(value, fc.constant(undefined)), { maxKeys: 4 }),
        fc.array(fc.oneof(messageArb, fc.constant(undefined)), { maxLength: 6 }),
        fc.boolean(),
        (members, messages, first) => {
          delete members['messages'];
          const conv = (first ? { messages, ...members } : { ...members, messages }) as unknown as Conversation;
          expect([...exactJsonPieces(conv)].join('')).toBe(JSON.stringify(conv));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes what toJSON gives, an own __proto__ member and an odd messages value as JSON.stringify does', () => {
    const withDate = { id: 'd', meta: { at: new Date(0) }, messages: [message(0, 'a'), { ...message(1, 'b'), toJSON: () => 'custom' }] };
    const proto = JSON.parse('{"__proto__":{"x":1},"id":"p","messages":[]}') as Conversation;
    const notArray = { id: 'n', messages: { 0: 'a' } };
    for (const c of [withDate, proto, notArray]) expect([...exactJsonPieces(c as unknown as Conversation)].join('')).toBe(JSON.stringify(c));
  });

  it('cuts a long conversation into pieces between messages, each far smaller than the whole', () => {
    const c = big(4000);
    const pieces = [...exactJsonPieces(c)];
    const whole = JSON.stringify(c);
    expect(pieces.join('')).toBe(whole);
    expect(pieces.length).toBeGreaterThan(3);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(whole.length / 3);
  });
});

describe('the stores keep pieces exactly', () => {
  const texts = ['', '\uFEFFbom first', 'lone \uD800 surrogate', 'pair 🎉 and 你好', `${'a'.repeat(1_100_000)}\uFEFF${'é'.repeat(1_100_000)}🎉`];

  it('MemoryArchive: what was put, whole or in pieces, is what get gives', async () => {
    const archive = new MemoryArchive();
    for (const [i, t] of texts.entries()) {
      await archive.put(`whole-${i}`, t);
      await archive.put(`pieces-${i}`, [t.slice(0, 3), '\uFEFF', t.slice(3)]);
      expect(await archive.get(`whole-${i}`)).toBe(t);
      expect(await archive.get(`pieces-${i}`)).toBe(`${t.slice(0, 3)}\uFEFF${t.slice(3)}`);
    }
    await archive.put('whole-1', 'another text');
    expect(await archive.get('whole-1')).toBe(texts[1]);
    expect(archiveTextOf(['a', 'b'])).toBe('ab');
  });

  it('FileArchive: pieces are written one after the other into the one file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxc-archive-pieces-'));
    try {
      const archive = new FileArchive(dir);
      await archive.put('k1', ['{"a":', '"Grüße 🎉"', '}']);
      expect(readFileSync(archive.pathOf('k1'), 'utf8')).toBe('{"a":"Grüße 🎉"}');
      const c = big(3000);
      const id = await archiveConversation(c, archive);
      expect(readFileSync(archive.pathOf(id), 'utf8')).toBe(JSON.stringify(c));
      expect(JSON.stringify(await readArchivedConversation(id, archive))).toBe(JSON.stringify(c));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('archiveConversation', () => {
  it('hands a large conversation to the store in pieces and undo gives it back byte for byte', async () => {
    const store = new RecordingStore();
    const c = big(4000);
    const whole = JSON.stringify(c);
    const id = await archiveConversation(c, store);
    expect(store.handed).toHaveLength(1);
    expect(store.handed[0]!.whole).toBe(false);
    expect(store.handed[0]!.largest).toBeLessThan(whole.length / 3);
    expect(JSON.stringify(await readArchivedConversation(id, store))).toBe(whole);
    // The same conversation again: nothing more is stored.
    expect(await archiveConversation(c, store as ArchiveStore)).toBe(id);
    expect(store.handed).toHaveLength(1);
  });
});
