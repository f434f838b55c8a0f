// The alternative to compaction "drop the oldest messages": whole rounds first, then — for an
// agent run that is one long round — the oldest assistant steps with their tool results. Header, summaries, pinned
// messages, the task and the newest step stay; tool calls keep their results.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import type { Conversation, Message } from '../../src/engine/conversation/model';
import { computeRounds } from '../../src/engine/conversation/views';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { dropOldestRounds } from '../../src/extension/compact/dropOldest';
import { apiShapeProblems } from '../helpers/toolPairingCheck';
import { transcriptPath } from '../helpers/transcripts';

function load(rel: string): Conversation {
  const file = transcriptPath(rel);
  return importTranscript(readFileSync(file, 'utf8'), { sourcePath: file }).conversation;
}

describe('dropOldestRounds', () => {
  it('a one-round agent run: drops the oldest steps whole until under the target, keeping the system prompt, the task and the newest step', async () => {
    const conv = load('mini-swe-agent/django__django-11138.traj.json');
    expect(computeRounds(conv.messages)).toHaveLength(1);
    const counter = await createTokenCounter('gpt-4o');
    const before = counter.countMessages(conv.messages);
    const target = Math.floor(before * 0.5);
    const r = dropOldestRounds(conv, counter, target);
    expect(r.fits).toBe(true);
    expect(r.tokensAfter).toBeLessThanOrEqual(target);
    expect(r.tokensAfter).toBe(counter.countMessages(r.conversation.messages));
    expect(r.droppedMessages).toBe(conv.messages.length - r.conversation.messages.length);
    expect(r.conversation.messages.slice(0, 2)).toEqual(conv.messages.slice(0, 2));
    expect(r.conversation.messages.slice(-2)).toEqual(conv.messages.slice(-2));
    expect(apiShapeProblems(r.conversation.messages)).toEqual([]);
    // What is left is the head, then a contiguous run of the newest steps.
    const ids = r.conversation.messages.map((m) => m.id);
    const firstKept = conv.messages.findIndex((m) => m.id === ids[2]);
    expect(conv.messages.slice(firstKept).map((m) => m.id)).toEqual(ids.slice(2));
  });

  it('never drops a pinned step, and says when even everything droppable is not enough', async () => {
    const conv = load('mini-swe-agent/django__django-11138.traj.json');
    const pinnedAt = 4;
    const messages: Message[] = conv.messages.map((m, i) => (i === pinnedAt ? { ...m, pinned: true } : m));
    const counter = await createTokenCounter('gpt-4o');
    const r = dropOldestRounds({ ...conv, messages }, counter, 1);
    expect(r.fits).toBe(false);
    expect(r.conversation.messages.some((m) => m.id === messages[pinnedAt]!.id)).toBe(true);
    expect(apiShapeProblems(r.conversation.messages)).toEqual([]);
  });

  it('a conversation of many rounds: whole rounds go first, the last round stays whole', async () => {
    const conv = load('aider/AFI-Protocol__afi-core.aider.chat.history.md');
    const rounds = computeRounds(conv.messages);
    expect(rounds.length).toBeGreaterThan(3);
    const counter = await createTokenCounter('gpt-4o');
    const before = counter.countMessages(conv.messages);
    const r = dropOldestRounds(conv, counter, Math.floor(before * 0.7));
    expect(r.fits).toBe(true);
    expect(r.droppedRounds).toBeGreaterThan(0);
    const last = rounds.at(-1)!;
    expect(r.conversation.messages.slice(-(last.end - last.start))).toEqual(conv.messages.slice(last.start, last.end));
  });
});
