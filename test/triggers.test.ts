// Triggers and policy: the size, remaining-room and turn triggers; the pre-check (estimate plus a
// safety buffer) and post-check (reported usage); the cooldown that still runs the drop rules;
// escalation to heavier levels when a compaction is still over budget; the event bus.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../src/engine/archive/memoryArchive';
import { compactConversation, planCompaction } from '../src/engine/compactor';
import { importTranscript } from '../src/engine/conversation/importers/detect';
import type { Conversation } from '../src/engine/conversation/model';
import { CompactionEventBus, type CompactionEvent } from '../src/engine/events';
import { afterFailure, afterSuccess, COOLDOWN_STRATEGY, NO_COOLDOWN, planUnderCooldown } from '../src/engine/triggers/cooldown';
import { compactWithEscalation } from '../src/engine/triggers/escalate';
import { postCheck, preCheck, shouldCompact, TriggerInputError } from '../src/engine/triggers/shouldCompact';
import { createTokenCounter, type CachedTokenCounter } from '../src/engine/tokens/messageCounter';
import { ConversationBuilder } from './compactorFixtures';
import { transcriptPath } from './helpers/transcripts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await createTokenCounter('gpt-4o');
});

function real(rel: string): Conversation {
  const file = transcriptPath(rel);
  return importTranscript(readFileSync(file, 'utf8'), { sourcePath: file, wholeFile: true }).conversation;
}

describe('shouldCompact', () => {
  it('fires at 80% of the window by default, with the reason', () => {
    expect(shouldCompact(79_999, { contextWindow: 100_000, minRemainingRatio: 0 }).reason).toBe('none');
    // Both defaults together: under 25% left (over 75% used) fires first.
    expect(shouldCompact(75_000, { contextWindow: 100_000 }).reason).toBe('none');
    expect(shouldCompact(76_000, { contextWindow: 100_000 }).reason).toBe('remaining');
    const d = shouldCompact(80_000, { contextWindow: 100_000 });
    expect(d).toMatchObject({ compact: true, reason: 'ratio', usage: 0.8 });
    expect(d.detail).toMatch(/80% of the 100000-token window/);
  });
  it('fires when less than 25% of the window remains after the reserved reply', () => {
    const d = shouldCompact(60_000, { contextWindow: 100_000, reservedOutput: 20_000 });
    expect(d).toMatchObject({ compact: true, reason: 'remaining' });
    expect(d.detail).toMatch(/20000 tokens left, under 25% of the window/);
    expect(shouldCompact(60_000, { contextWindow: 100_000 }).compact).toBe(false);
  });
  it('fires at the turn threshold', () => {
    expect(shouldCompact(1_000, { contextWindow: 100_000, turnThreshold: 30 }, 30)).toMatchObject({ compact: true, reason: 'turns' });
    expect(shouldCompact(1_000, { contextWindow: 100_000, turnThreshold: 30 }, 29).compact).toBe(false);
  });
  it('a custom trigger ratio; bad input is a clear error', () => {
    expect(shouldCompact(50_000, { contextWindow: 100_000, triggerRatio: 0.5 }).reason).toBe('ratio');
    expect(() => shouldCompact(1, { contextWindow: 0 })).toThrow(TriggerInputError);
    expect(() => shouldCompact(1, { contextWindow: 100, triggerRatio: 2 })).toThrow(/triggerRatio: expected a number in \[0, 1\], got 2/);
  });
  it('pre-check adds the estimated next addition with a 10% buffer; post-check uses the reported usage', () => {
    const pre = preCheck(70_000, 9_500, { contextWindow: 100_000, minRemainingRatio: 0 });
    expect(pre.estimatedNext).toBe(80_450);
    expect(pre).toMatchObject({ compact: true, reason: 'ratio' });
    expect(pre.detail).toMatch(/^pre-check/);
    expect(preCheck(70_000, 9_000, { contextWindow: 100_000, safetyBufferRatio: 0, minRemainingRatio: 0 }).compact).toBe(false);
    const post = postCheck({ promptTokens: 78_000, completionTokens: 2_500 }, { contextWindow: 100_000 });
    expect(post).toMatchObject({ compact: true, tokens: 80_500 });
    expect(post.detail).toMatch(/^post-check/);
  });
  it('on a real transcript: the count of the conversation against a small window', () => {
    const conv = real('mini-swe-agent/django__django-11138.traj.json');
    const tokens = counter.countMessages(conv.messages);
    expect(shouldCompact(tokens, { contextWindow: Math.ceil(tokens / 0.8) }).compact).toBe(true);
    expect(shouldCompact(tokens, { contextWindow: tokens * 4 }).compact).toBe(false);
  });
});

describe('cooldown', () => {
  it('after a failure the full compaction waits, doubling on repeated failures; the drop rules still run', () => {
    let s = afterFailure(NO_COOLDOWN, 10);
    expect(s).toEqual({ until: 13, consecutiveFailures: 1 });
    const plan = planUnderCooldown(s, 11);
    expect(plan).toMatchObject({ mode: 'conservative', strategy: COOLDOWN_STRATEGY });
    expect(planUnderCooldown(s, 13).mode).toBe('full');
    s = afterFailure(s, 13);
    expect(s.until).toBe(19);
    expect(afterSuccess()).toEqual(NO_COOLDOWN);
  });
  it('the cooldown strategy drops skill prompts and nothing else: no summary, no cut', () => {
    const b = new ConversationBuilder().system('s').user('Start the task.');
    b.messages.push({ id: 'skill', role: 'user', itemType: 'SKILL_PROMPT', content: [{ type: 'text', text: 'A long skill text. '.repeat(200) }] });
    b.assistant('Working on it. '.repeat(50)).user('Continue.').assistant('Done.');
    const p = planCompaction(b.build(), { counter, strategy: COOLDOWN_STRATEGY, ratio: 0.2 });
    expect(p.plan.find((x) => x.id === 'skill')!.decision).toBe('dropped');
    expect(p.plan.filter((x) => x.id !== 'skill').every((x) => x.decision === 'kept')).toBe(true);
    expect(p.summarizedIds).toEqual([]);
    expect(p.tokensAfter).toBeLessThan(p.tokensBefore);
  });
});

describe('escalation', () => {
  it('still over budget → again from the original at the next heavier level until it fits', async () => {
    const conv = real('mini-swe-agent/django__django-11138.traj.json');
    const { result, steps } = await compactWithEscalation(conv, { counter, archive: new MemoryArchive(), ratio: 0.05, strategy: 'levels', level: 'light' });
    expect(steps[0]!.level).toBe('light');
    expect(steps.length).toBeGreaterThan(1);
    const levels = steps.map((s) => s.level);
    expect(levels).toEqual(['light', 'normal', 'heavy', 'emergency'].slice(0, levels.length));
    expect(steps.slice(0, -1).every((s) => !s.met)).toBe(true);
    expect(result.level).toBe(levels.at(-1));
    expect(result.warnings.join('\n')).toMatch(/escalated: levels\/light → \d+/);
  });
  it('no escalation when the first compaction meets the target', async () => {
    const conv = real('mini-swe-agent/django__django-11138.traj.json');
    const { steps } = await compactWithEscalation(conv, { counter, archive: new MemoryArchive(), ratio: 0.5 });
    expect(steps).toHaveLength(1);
    expect(steps[0]!.met).toBe(true);
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

describe('autoCompact: trigger, cooldown and escalation together', () => {
  function session(): Conversation {
    const b = new ConversationBuilder().system('agent').user('Migrate the database schema to version 2.');
    b.messages.push({ id: 'skill', role: 'user', itemType: 'SKILL_PROMPT', content: [{ type: 'text', text: 'Skill: migrations guide. '.repeat(300) }] });
    for (let k = 0; k < 12; k++) b.tool('Bash', { command: `migrate step ${k}` }, `applied step ${k}\n`.repeat(60));
    b.user('Now run the tests.').assistant('All tests pass.');
    return b.build('auto');
  }
  it('under the trigger nothing happens; over it, a compaction replaces the conversation', async () => {
    const conv = session();
    const tokens = counter.countMessages(conv.messages);
    const { autoCompact } = await import('../src/engine/triggers/autoCompact');
    const idle = await autoCompact({ conversation: conv, trigger: { contextWindow: tokens * 4 }, state: NO_COOLDOWN, turn: 1, compact: { counter, archive: new MemoryArchive() } });
    expect(idle.action).toBe('none');
    expect(idle.conversation).toBe(conv);
    const bus = new CompactionEventBus();
    const phases: string[] = [];
    bus.subscribe((e) => phases.push(e.phase));
    const done = await autoCompact({ conversation: conv, trigger: { contextWindow: Math.ceil(tokens / 0.9) }, state: NO_COOLDOWN, turn: 2, compact: { counter, archive: new MemoryArchive(), ratio: 0.3 }, events: bus });
    expect(done.action).toBe('compacted');
    expect(done.trigger.reason).toBe('ratio');
    expect(counter.countMessages(done.conversation.messages)).toBeLessThan(tokens);
    expect(phases.at(-1)).toBe('conversation_replaced');
    expect(phases).toContain('compaction_performed');
  });
  it('a compaction that does not shrink starts a cooldown during which only the drop rules run; after it, the full compaction again', async () => {
    const conv = session();
    const tokens = counter.countMessages(conv.messages);
    const { autoCompact } = await import('../src/engine/triggers/autoCompact');
    const trigger = { contextWindow: Math.ceil(tokens / 0.9) };
    // A compaction that cannot shrink: everything pinned.
    const pinnedAll: Conversation = { ...conv, messages: conv.messages.map((m) => ({ ...m, pinned: m.itemType !== 'SKILL_PROMPT' })) };
    const failed = await autoCompact({ conversation: pinnedAll, trigger, state: NO_COOLDOWN, turn: 5, compact: { counter, archive: new MemoryArchive(), strategy: 'summary' } });
    expect(failed.action).toBe('failed');
    expect(failed.state).toEqual({ until: 8, consecutiveFailures: 1 });
    const cooling = await autoCompact({ conversation: conv, trigger, state: failed.state, turn: 6, compact: { counter, archive: new MemoryArchive() } });
    expect(cooling.action).toBe('conservative');
    expect(cooling.conversation.messages.some((m) => m.id === 'skill')).toBe(false);
    expect(cooling.conversation.messages.filter((m) => m.itemType === 'COMPACTION_SUMMARY')).toHaveLength(0);
    const after = await autoCompact({ conversation: conv, trigger, state: failed.state, turn: 8, compact: { counter, archive: new MemoryArchive() } });
    expect(after.action).toBe('compacted');
    expect(after.state).toEqual(NO_COOLDOWN);
  });
});
