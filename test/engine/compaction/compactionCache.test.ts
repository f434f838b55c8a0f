// A CompactionCache kept across plans of a growing conversation changes how long a plan takes,
// never the plan (compactionCache.corpus.test.ts plans every longer prefix of real transcripts).
// The same conversation planned again with the same options is the kept plan; with other options,
// or after it grew, a new one.

import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { analyzeConversation } from '../../../src/engine/analyze/analyzeConversation';
import { resolveConstants } from '../../../src/engine/analyze/constants';
import { advanceCrossReferences, crossReferenceScan } from '../../../src/engine/analyze/crossReferences';
import { advanceTermFrequencies, termFrequencyScan } from '../../../src/engine/analyze/relevance';
import { CompactionCache } from '../../../src/engine/compaction/cache';
import { planCompaction, type PlanOptions } from '../../../src/engine/compactor';
import { memoSlot, MessageMemo } from '../../../src/engine/conversation/messageMemo';
import type { Conversation, Message } from '../../../src/engine/conversation/model';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { importShared } from '../../helpers/sharedConversation';

const FILES: [string, { wholeFile?: boolean }][] = [
  ['mini-swe-agent/django__django-11138.traj.json', {}],
  ['aider/AFI-Protocol__afi-core.aider.chat.history.md', {}],
  ['claude-code/kiliman__claude-transcript__test2.jsonl', { wholeFile: true }],
];

const OPTION_SETS: Omit<PlanOptions, 'counter'>[] = [{}, { ratio: 0.1, level: 'heavy' }, { focus: 'the failing tests', keepRecentRounds: 1 }];

const NOW = '2026-01-01T00:00:00.000Z';

describe('planning a growing conversation with one cache', () => {
  it('gives the kept plan for the same conversation and options, a new one otherwise', async () => {
    const conv = importShared(FILES[0]![0], {});
    const counter = await createTokenCounter(conv.meta.model);
    const cache = new CompactionCache();
    const first = planCompaction(conv, { counter, cache, now: NOW });
    expect(planCompaction(conv, { counter, cache, now: NOW })).toEqual(first);
    expect(cache.stats).toEqual({ plans: 1, reusedPlans: 1 });
    planCompaction(conv, { counter, cache, now: NOW, level: 'heavy' });
    planCompaction({ ...conv, messages: [...conv.messages] }, { counter, cache, now: NOW, level: 'heavy' });
    expect(cache.stats).toEqual({ plans: 3, reusedPlans: 1 });
    // What a caller does to a preview does not reach the kept plan.
    first.conversation.messages.length = 0;
    first.warnings.push({ code: 'manyCompactions', count: 99 });
    const again = planCompaction(conv, { counter, cache, now: NOW, level: 'heavy' });
    expect(again.conversation.messages.length).toBeGreaterThan(0);
    expect(again.warnings).not.toContainEqual({ code: 'manyCompactions', count: 99 });
  });

  it('refuses a cache that is not one', async () => {
    const conv = importShared(FILES[0]![0], {});
    const counter = await createTokenCounter(conv.meta.model);
    expect(() => planCompaction(conv, { counter, cache: {} as CompactionCache })).toThrow(/options.cache: expected a CompactionCache/);
  });

  /** Messages an agent appends one at a time: a user's request naming a file the conversation
   *  names already, the assistant's edit of it, the edit's result (an edit result, a reference
   *  back), and a reply. */
  function appendedMessages(file: string): Message[] {
    return [
      {
        id: 'new-user',
        role: 'user',
        itemType: 'USER_MESSAGE',
        content: [{ type: 'text', text: `Please fix the failing check in ${file} and run the tests again.` }],
      },
      {
        id: 'new-assistant',
        role: 'assistant',
        itemType: 'ASSISTANT_MESSAGE',
        content: [{ type: 'text', text: `I will edit ${file}.` }],
        toolCalls: [{ id: 'new-call', name: 'Edit', arguments: JSON.stringify({ file_path: file, old_string: 'a', new_string: 'b' }) }],
      },
      {
        id: 'new-result',
        role: 'tool',
        itemType: 'TOOL_RESULT',
        content: [{ type: 'text', text: `The file ${file} has been updated.` }],
        toolResult: { toolCallId: 'new-call', isError: false, toolName: 'Edit' },
      },
      { id: 'new-reply', role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: [{ type: 'text', text: `Done: ${file} is fixed and the tests pass.` }] },
    ];
  }

  function namedFile(conv: Conversation): string {
    const file = analyzeConversation(conv.messages).messages.find((m) => m.refs.files.length > 0)?.refs.files[0];
    expect(file).toBeDefined();
    return file!;
  }

  it.each(OPTION_SETS)('appended user, assistant and tool messages plan as with no cache (%j)', async (options) => {
    const conv = importShared(FILES[2]![0], FILES[2]![1]);
    const counter = await createTokenCounter(conv.meta.model);
    const cache = new CompactionCache();
    let current: Conversation = { ...conv, messages: conv.messages.slice(0, Math.ceil(conv.messages.length * 0.7)) };
    planCompaction(current, { counter, cache, now: NOW, ...options });
    for (const m of appendedMessages(namedFile(current))) {
      current = { ...current, messages: [...current.messages, m] };
      const warm = planCompaction(current, { counter, cache, now: NOW, ...options });
      expect(warm).toEqual(planCompaction(current, { counter, now: NOW, ...options }));
    }
  });

  it('a conversation whose earlier messages changed, or that got shorter, is analyzed from the start', async () => {
    const conv = importShared(FILES[2]![0], FILES[2]![1]);
    const counter = await createTokenCounter(conv.meta.model);
    const cache = new CompactionCache();
    const n = conv.messages.length;
    const file = namedFile(conv);
    const grown: Conversation = { ...conv, messages: [...conv.messages, ...appendedMessages(file)] };
    planCompaction(grown, { counter, cache, now: NOW });
    // An earlier message replaced (an edit in the inspector, a re-import that differs), then one appended.
    const i = conv.messages.findIndex((m) => m.role === 'user' && m.toolResult === undefined);
    const edited = { ...conv.messages[i]!, content: [{ type: 'text' as const, text: `Look at ${file} first, please.` }] };
    const changed: Conversation = { ...grown, messages: grown.messages.map((m, k) => (k === i ? edited : m)) };
    expect(planCompaction(changed, { counter, cache, now: NOW })).toEqual(planCompaction(changed, { counter, now: NOW }));
    // Shorter than the last one planned, then grown again by other messages.
    const shorter: Conversation = { ...conv, messages: conv.messages.slice(0, n - 3) };
    expect(planCompaction(shorter, { counter, cache, now: NOW })).toEqual(planCompaction(shorter, { counter, now: NOW }));
    const regrown: Conversation = { ...shorter, messages: [...shorter.messages, ...appendedMessages(file).slice(1)] };
    expect(planCompaction(regrown, { counter, cache, now: NOW })).toEqual(planCompaction(regrown, { counter, now: NOW }));
  });

  it('pins (flag, <pin> tag, unpin) found in a conversation growing one message at a time are those found afresh', async () => {
    const conv = importShared(FILES[2]![0], FILES[2]![1]);
    const counter = await createTokenCounter(conv.meta.model);
    const users = conv.messages.flatMap((m, k) => (m.role === 'user' && m.toolResult === undefined ? [k] : []));
    const [flagged, tagged, late] = [users[1]!, users[2]!, users[users.length - 2]!];
    const pin = (m: Message, k: number): Message =>
      k === flagged || k === late
        ? { ...m, pinned: true }
        : k === tagged
          ? { ...m, content: [{ type: 'text', text: 'Remember: <pin>never push to main</pin>' }] }
          : m;
    const messages = conv.messages.map(pin);
    const n = messages.length;
    for (const edits of [undefined, { unpin: [messages[tagged]!.id] }]) {
      const cache = new CompactionCache();
      for (const k of [Math.ceil(n / 2), n - 3, n - 2, n - 1, n]) {
        const prefix: Conversation = { ...conv, messages: messages.slice(0, k) };
        const warm = planCompaction(prefix, { counter, cache, now: NOW, ...(edits ? { edits } : {}) });
        expect(warm, `prefix ${k}`).toEqual(planCompaction(prefix, { counter, now: NOW, ...(edits ? { edits } : {}) }));
        const reasons = new Map(warm.plan.map((p) => [p.index, p.reason]));
        expect(reasons.get(flagged)).toMatch(/pinned/);
        if (!edits) expect(reasons.get(tagged)).toMatch(/pinned/);
        if (k > late) expect(reasons.get(late)).toMatch(/pinned/);
      }
    }
  });

  it('a grown conversation counted by another counter is counted afresh', async () => {
    const conv = importShared(FILES[2]![0], FILES[2]![1]);
    const [first, other] = [await createTokenCounter(conv.meta.model), await createTokenCounter('an-unknown-model')];
    const cache = new CompactionCache();
    const n = conv.messages.length;
    planCompaction({ ...conv, messages: conv.messages.slice(0, n - 1) }, { counter: first, cache, now: NOW });
    const warm = planCompaction(conv, { counter: other, cache, now: NOW });
    expect(warm).toEqual(planCompaction(conv, { counter: other, now: NOW }));
    expect(warm.tokensBefore).not.toBe(planCompaction(conv, { counter: first, now: NOW }).tokensBefore);
  });

  it('an analysis handed out is not changed by the analysis of the grown conversation', () => {
    const conv = importShared(FILES[2]![0], FILES[2]![1]);
    const memo = new MessageMemo();
    const first = analyzeConversation(conv.messages, { memo, now: NOW });
    const before = structuredClone(first);
    const grown = [...conv.messages, ...appendedMessages(namedFile(conv))];
    const second = analyzeConversation(grown, { memo, now: NOW });
    expect(first).toEqual(before);
    expect(second).toEqual(analyzeConversation(grown, { now: NOW }));
    // A message whose analysis says the same as before is given the object handed out before.
    let same = 0;
    first.messages.forEach((a, k) => {
      if (!isDeepStrictEqual(a, second.messages[k])) return;
      expect(second.messages[k]).toBe(a);
      same++;
    });
    expect(same).toBeGreaterThan(0);
    // The appended messages refer back to earlier ones: the later analysis lists them there.
    expect(second.messages.some((m, k) => k < conv.messages.length && m.referencedBy.some((j) => j >= conv.messages.length))).toBe(true);
  });

  it('scans resumed one message at a time find what one scan of the whole finds', () => {
    const c = resolveConstants();
    // Terms that become frequent, stop being frequent as messages come, and come back.
    const terms: number[][] = Array.from({ length: 60 }, (_, i) => [i % 2, 10 + (i % 3), i < 20 ? 20 : 21, 100 + i]);
    const keys: string[][] = terms.map((t) => t.map((x) => `k${x}`));
    const freq = termFrequencyScan<number>();
    const xref = crossReferenceScan();
    for (let n = 1; n <= terms.length; n++) {
      advanceTermFrequencies(freq, terms.slice(0, n), keys.slice(0, n), n - 1, c);
      advanceCrossReferences(xref, keys.slice(0, n), n - 1);
      const once = termFrequencyScan<number>();
      advanceTermFrequencies(once, terms.slice(0, n), keys.slice(0, n), 0, c);
      expect(freq).toEqual(once);
      const whole = crossReferenceScan();
      advanceCrossReferences(whole, keys.slice(0, n), 0);
      expect(xref).toEqual(whole);
    }
    expect([...freq.frequent]).toEqual([21]);
  });

  it('scans over one array changed in place between them see it as it now is (the copies they keep are shared)', () => {
    const memo = new MessageMemo();
    const messages = importShared(FILES[0]![0], {}).messages.slice(0, 6);
    const scanned = (name: string) =>
      memo.resume(
        memoSlot<string[]>(name),
        messages,
        () => [],
        (ids, from) => ids.push(...messages.slice(from).map((m) => m.id)),
      );
    const ids = () => messages.map((m) => m.id);
    for (const change of [
      () => undefined,
      () => messages.push({ ...messages[0]!, id: 'appended' }),
      () => (messages[2] = { ...messages[2]!, id: 'replaced' }),
      () => messages.pop(),
      () => (messages[1] = { ...messages[1]!, id: 'replaced again' }),
    ]) {
      change();
      expect(scanned('test.a')).toEqual(ids());
      expect(scanned('test.b')).toEqual(ids());
    }
  });

  it('an appended message with an id used before is refused, and the cache still checks what follows', async () => {
    const conv = importShared(FILES[0]![0], {});
    const counter = await createTokenCounter(conv.meta.model);
    const cache = new CompactionCache();
    planCompaction(conv, { counter, cache, now: NOW });
    const [user, assistant] = appendedMessages('src/a.py');
    const twice: Conversation = { ...conv, messages: [...conv.messages, user!, { ...assistant!, id: conv.messages[1]!.id }] };
    expect(() => planCompaction(twice, { counter, cache, now: NOW })).toThrow(/used twice/);
    // The refused message's id was not kept: the same message under a new id plans, and one
    // appended after it that reuses the new message's id is refused.
    const fixed: Conversation = { ...conv, messages: [...conv.messages, user!, assistant!] };
    expect(planCompaction(fixed, { counter, cache, now: NOW })).toEqual(planCompaction(fixed, { counter, now: NOW }));
    expect(() => planCompaction({ ...fixed, messages: [...fixed.messages, { ...user!, id: assistant!.id }] }, { counter, cache, now: NOW })).toThrow(
      /used twice/,
    );
  });
});
