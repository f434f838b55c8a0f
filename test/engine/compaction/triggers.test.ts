// Triggers and policy: the size trigger (with its floating-point slack), the cooldown after a
// failure (doubling, capped, ended by a success), the conservative drop-only strategy, and the
// event bus.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, planCompaction } from '../../../src/engine/compactor';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import type { Conversation } from '../../../src/engine/conversation/model';
import { CompactionEventBus, type CompactionEvent } from '../../../src/engine/events';
import { afterFailure, afterSuccess, coolingDown, NO_COOLDOWN } from '../../../src/engine/triggers/cooldown';
import { shouldCompact, TriggerInputError } from '../../../src/engine/triggers/shouldCompact';
import { createTokenCounter, type CachedTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { ConversationBuilder } from '../../helpers/compactorFixtures';
import { transcriptPath } from '../../helpers/transcripts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await createTokenCounter('gpt-4o');
});

function real(rel: string): Conversation {
  const file = transcriptPath(rel);
  return importTranscript(readFileSync(file, 'utf8'), { sourcePath: file, wholeFile: true }).conversation;
}

describe('shouldCompact', () => {
  it('fires at 80% of the window by default, with the reason and the threshold', () => {
    expect(shouldCompact(79_999, { contextWindow: 100_000 }).compact).toBe(false);
    const d = shouldCompact(80_000, { contextWindow: 100_000 });
    expect(d).toMatchObject({ compact: true, usage: 0.8, thresholdTokens: 80_000 });
    expect(d.detail).toMatch(/80% of the 100000-token window/);
  });
  it('counts a share that floating point puts a hair under the ratio as reached', () => {
    expect(shouldCompact(700, { contextWindow: 1_000, triggerRatio: 0.8 - 0.1 }).compact).toBe(true);
  });
  it('a custom trigger ratio; bad input is a clear error', () => {
    expect(shouldCompact(50_000, { contextWindow: 100_000, triggerRatio: 0.5 }).compact).toBe(true);
    expect(() => shouldCompact(1, { contextWindow: 0 })).toThrow(TriggerInputError);
    expect(() => shouldCompact(1, { contextWindow: 100, triggerRatio: 2 })).toThrow(/triggerRatio: expected a number in \[0, 1\], got 2/);
  });
  it('on a real transcript: the count of the conversation against a small window', () => {
    const conv = real('mini-swe-agent/django__django-11138.traj.json');
    const tokens = counter.countMessages(conv.messages);
    expect(shouldCompact(tokens, { contextWindow: Math.ceil(tokens / 0.8) }).compact).toBe(true);
    expect(shouldCompact(tokens, { contextWindow: tokens * 4 }).compact).toBe(false);
  });
});

describe('cooldown', () => {
  const policy = { wait: 3, maxWait: 10 };
  it('after a failure the failing path waits, doubling on repeated failures up to the most; a success ends it', () => {
    let s = afterFailure(NO_COOLDOWN, 10, policy);
    expect(s).toEqual({ until: 13, consecutiveFailures: 1 });
    expect(coolingDown(s, 12)).toBe(true);
    expect(coolingDown(s, 13)).toBe(false);
    s = afterFailure(s, 13, policy);
    expect(s).toEqual({ until: 19, consecutiveFailures: 2 });
    s = afterFailure(s, 19, policy);
    expect(s.until).toBe(29);
    expect(afterSuccess()).toEqual(NO_COOLDOWN);
    expect(coolingDown(NO_COOLDOWN, 0)).toBe(false);
  });
});

describe('drop-only', () => {
  it('drops skill prompts and nothing else: no summary, no cut', () => {
    const b = new ConversationBuilder().system('s').user('Start the task.');
    b.messages.push({ id: 'skill', role: 'user', itemType: 'SKILL_PROMPT', content: [{ type: 'text', text: 'A long skill text. '.repeat(200) }] });
    b.assistant('Working on it. '.repeat(50)).user('Continue.').assistant('Done.');
    const p = planCompaction(b.build(), { counter, strategy: 'drop-only', ratio: 0.2 });
    expect(p.plan.find((x) => x.id === 'skill')!.decision).toBe('dropped');
    expect(p.plan.filter((x) => x.id !== 'skill').every((x) => x.decision === 'kept')).toBe(true);
    expect(p.summarizedIds).toEqual([]);
    expect(p.tokensAfter).toBeLessThan(p.tokensBefore);
  });
});

describe('events', () => {
  it('phases in order with tokens before and after; unsubscribe stops them; a throwing listener breaks nothing', async () => {
    const bus = new CompactionEventBus();
    const seen: CompactionEvent[] = [];
    bus.subscribe(() => {
      throw new Error('broken listener');
    });
    const off = bus.subscribe((e) => seen.push(e));
    const conv = real('claude-code/kiliman__claude-transcript__test2.jsonl');
    const r = await compactConversation(conv, { counter, archive: new MemoryArchive(), ratio: 0.2, strategy: 'masking', events: bus });
    expect(seen.map((e) => e.phase)).toEqual(['selective_start', 'selective_done', 'summary_start', 'summary_done', 'compaction_performed']);
    expect(seen[0]!.tokensBefore).toBe(r.tokensBefore);
    expect(seen[1]!.tokensAfter).toBeLessThan(r.tokensBefore); // masking shrank it before any summary
    expect(seen[3]!.tokensAfter).toBe(r.tokensAfter);
    expect(seen[4]).toMatchObject({ tokensBefore: r.tokensBefore, tokensAfter: r.tokensAfter, strategy: 'masking' });
    off();
    await compactConversation(conv, { counter, archive: new MemoryArchive(), ratio: 0.2, events: bus });
    expect(seen).toHaveLength(5);
  });
});
