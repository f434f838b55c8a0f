// Offload: big tool outputs go to the archive behind a placeholder naming the entry, and come
// back exactly; small, recent, pinned or already-shortened outputs stay; a broken archive is a
// clear error.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../src/engine/archive/memoryArchive';
import { validateApiShape } from '../src/engine/conversation/apiShape';
import { importTranscript } from '../src/engine/conversation/importers/detect';
import { messageText, type Conversation } from '../src/engine/conversation/model';
import { OffloadError, offloadToolOutputs, restoreOffloaded } from '../src/engine/offload/offload';
import { createTokenCounter, type CachedTokenCounter } from '../src/engine/tokens/messageCounter';
import { codingSession } from './compactorFixtures';
import { transcriptPath } from './helpers/transcripts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await createTokenCounter('gpt-4o');
});

function real(rel: string): Conversation {
  const file = transcriptPath(rel);
  return importTranscript(readFileSync(file, 'utf8'), { sourcePath: file }).conversation;
}

describe('offload', () => {
  it('moves outputs over 1,000 tokens to the archive behind a placeholder naming the entry; restore is exact', async () => {
    const conv = real('mini-swe-agent/django__django-11138.traj.json');
    const archive = new MemoryArchive();
    const r = await offloadToolOutputs(conv, { counter, archive });
    expect(r.offloaded.length).toBeGreaterThan(0);
    expect(r.tokensAfter).toBeLessThan(r.tokensBefore);
    for (const o of r.offloaded) {
      expect(o.tokens).toBeGreaterThan(1000);
      const m = r.conversation.messages.find((x) => x.id === o.id)!;
      expect(messageText(m)).toMatch(new RegExp(`offloaded: [\\d,]+ tokens.*archive entry ${o.key}\\]$`));
      expect(m.truncation).toMatchObject({ by: 'offload', archiveRef: o.key });
      expect(m.toolResult).toEqual(conv.messages.find((x) => x.id === o.id)!.toolResult);
    }
    for (const m of conv.messages) if (m.toolResult && counter.countMessage(m) <= 1000) expect(r.conversation.messages).toContain(m);
    expect(validateApiShape(r.conversation.messages).problems.length).toBe(validateApiShape(conv.messages).problems.length);
    expect(await restoreOffloaded(r.conversation, archive)).toEqual(conv);
    const again = await offloadToolOutputs(r.conversation, { counter, archive });
    expect(again.offloaded).toEqual([]);
  });
  it('threshold and recent outputs are configurable; pinned outputs stay', async () => {
    const conv = codingSession(300);
    const archive = new MemoryArchive();
    const none = await offloadToolOutputs(conv, { counter, archive, thresholdTokens: 100_000 });
    expect(none.offloaded).toEqual([]);
    const some = await offloadToolOutputs(conv, { counter, archive, thresholdTokens: 100 });
    expect(some.offloaded.map((o) => o.id)).toEqual(['r5']);
    const recent = await offloadToolOutputs(conv, { counter, archive, thresholdTokens: 100, keepRecent: 5 });
    expect(recent.offloaded).toEqual([]);
    const pinned = { ...conv, messages: conv.messages.map((m) => (m.id === 'r5' ? { ...m, pinned: true } : m)) };
    expect((await offloadToolOutputs(pinned, { counter, archive, thresholdTokens: 100 })).offloaded).toEqual([]);
  });
  it('a missing or tampered entry is a clear error naming the message and the key', async () => {
    const conv = codingSession(300);
    const archive = new MemoryArchive();
    const r = await offloadToolOutputs(conv, { counter, archive, thresholdTokens: 100 });
    await expect(restoreOffloaded(r.conversation, new MemoryArchive())).rejects.toThrow(/messages\[\d+\] \(id r5\): archive entry offload-[0-9a-f]+ is missing/);
    const bad = new MemoryArchive();
    await bad.put(r.offloaded[0]!.key, JSON.stringify({ ...conv.messages[3], content: [{ type: 'text', text: 'changed' }] }));
    await expect(restoreOffloaded(r.conversation, bad)).rejects.toThrow(OffloadError);
  });
});
