// Properties of compactConversation on random conversations: tool blocks (one or several calls,
// errors), thinking, pinned messages, a system prompt, and earlier summaries (a second
// compaction of a grown conversation). Whatever the input and the target:
//   - nothing is lost: each original message is in the result verbatim, or comes back byte for
//     byte from the archive;
//   - undo gives back the original exactly;
//   - tool calls stay paired with their results (the chat APIs accept the result);
//   - an achievable budget is met within 10%;
//   - the same input gives the same bytes.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { CompactionCache } from '../../../src/engine/compaction/cache';
import { compactConversation, planCompaction, undoCompaction } from '../../../src/engine/compactor';
import { validateApiShape } from '../../../src/engine/conversation/apiShape';
import type { Conversation, Message } from '../../../src/engine/conversation/model';
import type { CompactionResult } from '../../../src/engine/result';
import { createTokenCounter, type CachedTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { apiShapeProblems } from '../../helpers/toolPairingCheck';

/** Enough runs to meet tool blocks, pins and re-compaction together, few enough for seconds. */
const RUNS = 60;
/** The tolerance on an achievable budget. */
const BUDGET_SLACK = 0.1;

const WORDS = [
  'fix',
  'the',
  'login',
  'test',
  'in',
  'src/auth/login.ts',
  'must',
  'never',
  'TODO:',
  'decided',
  'TypeError:',
  'error',
  'config.json',
  'retry',
  'timeout',
  'cache',
  'we',
  'should',
  'use',
  'Redis',
  '30',
  'minutes',
  'done',
  'next',
  '必须',
  '决定',
  'because',
  'npm test',
  'passed',
  'failed',
];

const sentence = fc.array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 14 }).map((w) => `${w.join(' ')}.`);
const paragraph = fc.array(sentence, { minLength: 1, maxLength: 6 }).map((s) => s.join(' '));
/** Tool output: sometimes long (a file read), so there is something to shrink. */
const toolOutput = fc.oneof(
  paragraph,
  fc.tuple(paragraph, fc.integer({ min: 20, max: 120 })).map(([p, n]) => `${p}\n${'  line of output from the tool\n'.repeat(n)}`),
);

type Step =
  | { kind: 'user'; text: string; pinned: boolean }
  | { kind: 'assistant'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'tools'; text: string; calls: { name: string; output: string; isError: boolean }[] };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('user' as const), text: paragraph, pinned: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('assistant' as const), text: paragraph }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('thinking' as const), text: paragraph }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('tools' as const),
      text: fc.oneof(fc.constant(''), sentence),
      calls: fc.array(fc.record({ name: fc.constantFrom('Read', 'Bash', 'Edit', 'Grep'), output: toolOutput, isError: fc.boolean() }), {
        minLength: 1,
        maxLength: 3,
      }),
    }),
  },
);

/** Messages from steps, ids unique under `prefix`; a user message always comes first. */
function messagesOf(steps: readonly Step[], prefix: string): Message[] {
  const out: Message[] = [];
  let n = 0;
  const id = (k: string) => `${prefix}${k}${++n}`;
  for (const s of steps) {
    if (s.kind === 'user')
      out.push({ id: id('u'), role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text: s.text }], ...(s.pinned ? { pinned: true } : {}) });
    else if (s.kind === 'assistant') out.push({ id: id('a'), role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: [{ type: 'text', text: s.text }] });
    else if (s.kind === 'thinking') out.push({ id: id('t'), role: 'assistant', itemType: 'THINKING', content: [{ type: 'thinking', text: s.text }] });
    else {
      const calls = s.calls.map((c) => ({ ...c, callId: id('call_') }));
      out.push({
        id: id('a'),
        role: 'assistant',
        itemType: 'ASSISTANT_MESSAGE',
        content: s.text ? [{ type: 'text', text: s.text }] : [],
        toolCalls: calls.map((c) => ({
          id: c.callId,
          name: c.name,
          arguments: JSON.stringify({
            command: c.name === 'Bash' ? 'npm test' : undefined,
            file_path: c.name === 'Read' || c.name === 'Edit' ? 'src/auth/login.ts' : undefined,
          }),
        })),
      });
      for (const c of calls)
        out.push({
          id: id('r'),
          role: 'tool',
          itemType: 'TOOL_RESULT',
          content: [{ type: 'text', text: c.output }],
          toolResult: { toolCallId: c.callId, isError: c.isError, toolName: c.name },
        });
    }
  }
  return out;
}

const conversationArb = fc.record({
  system: fc.option(paragraph, { nil: undefined }),
  first: paragraph,
  steps: fc.array(step, { minLength: 1, maxLength: 24 }),
  more: fc.array(step, { minLength: 0, maxLength: 8 }),
  target: fc.oneof(
    fc.constant(undefined),
    fc.record({ ratio: fc.double({ min: 0.05, max: 1, noNaN: true }) }),
    fc.record({ budget: fc.integer({ min: 50, max: 6000 }) }),
  ),
  keepRecentRounds: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  recompact: fc.boolean(),
});

type Case = typeof conversationArb extends fc.Arbitrary<infer T> ? T : never;

function baseConversation(c: Case): Conversation {
  const messages: Message[] = [];
  if (c.system !== undefined) messages.push({ id: 'sys', role: 'system', itemType: 'SYSTEM_PROMPT', content: [{ type: 'text', text: c.system }] });
  messages.push({ id: 'first', role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text: c.first }] });
  messages.push(...messagesOf(c.steps, 'm'));
  return { id: 'prop', format: 'openai', messages, meta: {} };
}

let counter: CachedTokenCounter;

async function run(conv: Conversation, c: Case, archive: MemoryArchive): Promise<CompactionResult> {
  return compactConversation(conv, {
    counter,
    archive,
    ...(c.target ?? {}),
    ...(c.keepRecentRounds !== undefined ? { keepRecentRounds: c.keepRecentRounds } : {}),
    now: '2026-01-01T00:00:00.000Z',
  });
}

/** The conversation to test: either the base, or the base compacted once and then grown (so it
 *  starts with an earlier summary). */
async function subject(c: Case): Promise<Conversation> {
  const base = baseConversation(c);
  if (!c.recompact) return base;
  const once = await run(base, { ...c, target: { ratio: 0.3 } }, new MemoryArchive());
  return {
    ...once.conversation,
    messages: [...once.conversation.messages, ...messagesOf([{ kind: 'user', text: 'And now the next part.', pinned: false }, ...c.more], 'n')],
  };
}

describe('compactConversation on random conversations', () => {
  it('loses nothing, undoes exactly, keeps tools paired, meets achievable budgets, is deterministic', async () => {
    counter = await createTokenCounter('gpt-4o');
    await fc.assert(
      fc.asyncProperty(conversationArb, async (c) => {
        const conv = await subject(c);
        const snapshot = JSON.stringify(conv);
        const archive = new MemoryArchive();
        const result = await run(conv, c, archive);

        // The input is untouched.
        expect(JSON.stringify(conv)).toBe(snapshot);

        // Undo is exact, and every original message is in the result verbatim or in the archive.
        const back = await undoCompaction(result.archiveId, archive);
        expect(JSON.stringify(back)).toBe(snapshot);
        const inResult = new Map(result.conversation.messages.map((m) => [m.id, JSON.stringify(m)]));
        const archived = new Map(back.messages.map((m) => [m.id, JSON.stringify(m)]));
        for (const m of conv.messages) {
          const exact = JSON.stringify(m);
          expect(inResult.get(m.id) === exact || archived.get(m.id) === exact, m.id).toBe(true);
        }
        // Pinned messages and the system prompt are never summarized away.
        for (const m of conv.messages) if (m.pinned || m.itemType === 'SYSTEM_PROMPT') expect(inResult.get(m.id), m.id).toBe(JSON.stringify(m));

        // Valid for the chat APIs.
        expect(validateApiShape(result.conversation.messages).problems).toEqual([]);
        expect(apiShapeProblems(result.conversation.messages)).toEqual([]);

        // The reported size is the size, and an achievable budget is met.
        expect(result.tokensAfter).toBe(counter.countMessages(result.conversation.messages));
        const target = result.target!;
        if (c.target && result.minimumTokens !== undefined && result.minimumTokens <= target && result.tokensAfter < result.tokensBefore) {
          expect(result.tokensAfter, `target ${target}, minimum ${result.minimumTokens}`).toBeLessThanOrEqual(Math.ceil(target * (1 + BUDGET_SLACK)));
        }

        // Deterministic.
        const again = await run(JSON.parse(snapshot) as Conversation, c, new MemoryArchive());
        expect(JSON.stringify(again)).toBe(JSON.stringify(result));
      }),
      { numRuns: RUNS, seed: 20260101 },
    );
  });
});

describe('planning a random conversation as it grows, with one cache', () => {
  it('gives after every appended message what a plan with no cache gives', async () => {
    counter = await createTokenCounter('gpt-4o');
    await fc.assert(
      fc.asyncProperty(conversationArb, async (c) => {
        const conv = await subject(c);
        const options = {
          ...(c.target ?? {}),
          ...(c.keepRecentRounds !== undefined ? { keepRecentRounds: c.keepRecentRounds } : {}),
          now: '2026-01-01T00:00:00.000Z',
        };
        const cache = new CompactionCache();
        const grown = [...conv.messages, ...messagesOf([{ kind: 'user', text: 'One more thing.', pinned: false }, ...c.more], 'g')];
        // The analysis, the readings and the scans of each plan are extended by the next one.
        for (let k = Math.max(1, conv.messages.length - 2); k <= grown.length; k++) {
          const prefix: Conversation = { ...conv, messages: grown.slice(0, k) };
          const warm = planCompaction(prefix, { counter, cache, ...options });
          expect(warm).toEqual(planCompaction(prefix, { counter, ...options }));
        }
      }),
      { numRuns: RUNS / 2, seed: 20260127 },
    );
  });
});
