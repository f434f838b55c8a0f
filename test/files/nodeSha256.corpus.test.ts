// Node's SHA-256 (what the CLI, the hook, the MCP server and the extension key archives with) and
// the engine's own give the same archive keys: on every shared transcript, through a compaction,
// and across an undo — so entries already on disk stay readable whichever host wrote them.

import { describe, expect, it } from 'vitest';
import { hashHex, pureSha256 } from '../../src/engine/archive/contentHasher';
import { archiveConversation, conversationKey, readArchivedConversation } from '../../src/engine/archive/conversationArchive';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { compactConversation, undoCompaction } from '../../src/engine/compactor';
import type { Conversation } from '../../src/engine/conversation/model';
import { offloadKey } from '../../src/engine/strategies/truncation';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { nodeSha256 } from '../../src/files/nodeSha256';
import { runCompaction } from '../../src/sessions/compactionService';
import { transcriptFiles } from '../helpers/transcripts';
import { importShared } from '../helpers/sharedConversation';

const FIXED_NOW = '2026-01-01T00:00:00.000Z';

describe('archive keys with Node SHA-256 and the engine SHA-256', () => {
  it.each(transcriptFiles())('%s: the same conversation key and the same offload keys', (rel) => {
    const conv = importShared(rel, { wholeFile: true });
    const key = conversationKey(conv, nodeSha256);
    expect(key).toMatch(/^conv-[0-9a-f]{64}$/);
    expect(key).toBe(conversationKey(conv, pureSha256));
    for (const m of conv.messages.slice(0, 50)) expect(offloadKey(m, nodeSha256)).toBe(offloadKey(m, pureSha256));
  });

  it('hashes text the same: multi-byte characters, surrogate pairs, a lone surrogate, pieces of any size', () => {
    const texts = ['', 'abc', 'Grüße 你好 🎉', '\ud83d', 'a\udc00b', `${'é😀 ascii '.repeat(20_000)}末尾`];
    for (const t of texts) expect(hashHex(nodeSha256, t)).toBe(hashHex(pureSha256, t));
  });
});

describe('a compaction keyed with one hasher and undone with the other', () => {
  const files = transcriptFiles().filter((f) => f.startsWith('claude-code/') || f.startsWith('mini-swe-agent/'));
  it.each(files)(
    '%s: the same archiveId; undo restores the original whichever hasher reads it',
    async (rel) => {
      const conv = importShared(rel, { wholeFile: true });
      const counter = await createTokenCounter(conv.meta.model);
      const byNode = new MemoryArchive();
      const byPure = new MemoryArchive();
      const node = await compactConversation(conv, { counter, archive: byNode, hasher: nodeSha256, now: FIXED_NOW });
      const pure = await compactConversation(conv, { counter, archive: byPure, now: FIXED_NOW });
      expect(node.archiveId).toBe(pure.archiveId);
      expect(node.conversation).toEqual(pure.conversation);
      expect(await undoCompaction(node.archiveId, byNode)).toEqual(conv);
      expect(await undoCompaction(pure.archiveId, byPure, nodeSha256)).toEqual(conv);
    },
    60_000,
  );

  it('runCompaction (every Node front end) keys the archive as the engine does', async () => {
    const conv = importShared(files[0]!, { wholeFile: true });
    const archive = new MemoryArchive();
    const { result } = await runCompaction(conv, {}, { archive, now: FIXED_NOW });
    expect(result.archiveId).toBe(conversationKey(conv, pureSha256));
    expect(await readArchivedConversation(result.archiveId, archive, pureSha256)).toEqual(conv);
  });

  it('a copy spelled with another key order gets the same variant key from either hasher', async () => {
    const conv = importShared(files[0]!, { wholeFile: true });
    const reordered = JSON.parse(JSON.stringify({ messages: conv.messages, meta: conv.meta, format: conv.format, id: conv.id })) as Conversation;
    const byNode = new MemoryArchive();
    const byPure = new MemoryArchive();
    await archiveConversation(conv, byNode, nodeSha256);
    await archiveConversation(conv, byPure, pureSha256);
    const variant = await archiveConversation(reordered, byNode, nodeSha256);
    expect(variant).toMatch(/^conv-[0-9a-f]{64}\.[0-9a-f]{16}$/);
    expect(await archiveConversation(reordered, byPure, pureSha256)).toBe(variant);
    expect(JSON.stringify(await readArchivedConversation(variant, byNode, pureSha256))).toBe(JSON.stringify(reordered));
  });
});
