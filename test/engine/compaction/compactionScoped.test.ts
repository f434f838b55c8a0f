// Compactions of part of a conversation, as the inspector asks for them: up to a chosen message
// (every later one verbatim, the target a share of what came before), and only offloading a big
// tool result (its text in an archive entry of its own, a one-line placeholder naming it, nothing
// else changed). Both are compactions like any other: archived first, and undone exactly.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, CompactionInputError, undoCompaction } from '../../../src/engine/compactor';
import { requestOptions } from '../../../src/engine/compaction/request';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import { messageText, type Conversation } from '../../../src/engine/conversation/model';
import { offloadKey } from '../../../src/engine/strategies/truncation';
import { createTokenCounter, type CachedTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { transcriptPath } from '../../helpers/transcripts';

const KILIMAN = transcriptPath('claude-code/kiliman__claude-transcript__test2.jsonl');
let conversation: Conversation;
let counter: CachedTokenCounter;

beforeAll(async () => {
  conversation = importTranscript(readFileSync(KILIMAN, 'utf8'), { sourcePath: KILIMAN }).conversation;
  counter = await createTokenCounter(conversation.meta.model);
});

describe('a compaction of part of the conversation', () => {
  it('offload only: the biggest tool result becomes a placeholder naming its archive entry, which holds it exactly; nothing else changes; undo restores all', async () => {
    const big = conversation.messages
      .filter((m) => m.toolResult)
      .map((m) => ({ m, tokens: counter.countMessage(m) }))
      .sort((a, b) => b.tokens - a.tokens)[0]!;
    const archive = new MemoryArchive();
    const r = await compactConversation(conversation, { counter, archive, edits: { offload: [big.m.id], offloadOnly: true }, now: '2026-01-01T00:00:00Z' });
    expect(r.plan.filter((p) => p.decision !== 'kept').map((p) => [p.id, p.decision])).toEqual([[big.m.id, 'offloaded']]);
    expect(r.conversation.messages).toHaveLength(conversation.messages.length);
    expect(r.conversation.messages.some((m) => m.itemType === 'COMPACTION_SUMMARY')).toBe(false);
    const placeholder = r.conversation.messages.find((m) => m.id === big.m.id)!;
    expect(messageText(placeholder)).toContain(offloadKey(big.m));
    expect(JSON.parse((await archive.get(offloadKey(big.m)))!)).toEqual(big.m);
    for (const [i, m] of conversation.messages.entries()) if (m.id !== big.m.id) expect(r.conversation.messages[i]).toBe(m);
    expect(r.tokensAfter).toBeLessThan(r.tokensBefore - big.tokens / 2);
    expect(r.warnings).toEqual([]);
    expect(JSON.stringify(await undoCompaction(r.archiveId, archive))).toBe(JSON.stringify(conversation));
  });

  it('up to a message: everything after it stays verbatim, what came before is summarized, the target a share of that part', async () => {
    const at = Math.floor(conversation.messages.length / 2);
    const upTo = conversation.messages[at]!;
    const archive = new MemoryArchive();
    const r = await compactConversation(conversation, { counter, archive, edits: { upTo: upTo.id }, now: '2026-01-01T00:00:00Z' });
    const after = conversation.messages.slice(at + 1);
    expect(r.plan.slice(at + 1).every((p) => p.decision === 'kept')).toBe(true);
    expect(r.conversation.messages.slice(-after.length)).toEqual(after);
    expect(r.plan.slice(0, at + 1).filter((p) => p.decision === 'summarized').length).toBeGreaterThan(at / 2);
    expect(r.conversation.messages.some((m) => m.itemType === 'COMPACTION_SUMMARY')).toBe(true);
    const kept = counter.countMessages(after);
    expect(r.target).toBeLessThan(kept + 0.4 * (r.tokensBefore - kept));
    expect(r.warnings).toEqual([]);
    expect(JSON.stringify(await undoCompaction(r.archiveId, archive))).toBe(JSON.stringify(conversation));
  });

  it('an unknown message to compact up to is a clear error', async () => {
    await expect(compactConversation(conversation, { counter, archive: new MemoryArchive(), edits: { upTo: 'no-such-id' } })).rejects.toThrow(
      new CompactionInputError("edits.upTo: no message has the id 'no-such-id'"),
    );
  });

  it('is not made to fit under the trigger: what it keeps is the person’s choice', () => {
    // Far over its window: the default target (30%) would still leave it over the trigger.
    const full = { total: 600_000, overhead: 0, window: 200_000 };
    const run = { counter, archive: new MemoryArchive() };
    expect(requestOptions({}, full, run).budget).toBeDefined();
    expect(requestOptions({ edits: { upTo: 'x' } }, full, run).budget).toBeUndefined();
    expect(requestOptions({ edits: { offload: ['x'], offloadOnly: true } }, full, run).budget).toBeUndefined();
  });
});
