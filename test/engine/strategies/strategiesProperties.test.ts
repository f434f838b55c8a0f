// Every strategy on random conversations (tool blocks with several calls, thinking, pins,
// acknowledgements, repeats, skill prompts, an earlier summary, random targets): the result is
// valid for both chat APIs, header items and pins are kept verbatim, no tool block is split, each
// replacement keeps its original's id and pairing (and names no archive: a plan writes none), the
// same input gives the same result, and the latest request is never split from its round.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { planCompaction } from '../../../src/engine/compactor';
import { validateApiShape } from '../../../src/engine/conversation/apiShape';
import { isHeaderItem, isUserAuthored, messageText, type Conversation, type Message } from '../../../src/engine/conversation/model';
import { computeToolBlocks } from '../../../src/engine/conversation/views';
import { listStrategies } from '../../../src/engine/strategies/registry';
import { createTokenCounter, type CachedTokenCounter } from '../../../src/engine/tokens/messageCounter';

const RUNS = 25;
const WORDS = [
  'fix',
  'the',
  'parser',
  'in',
  'src/app/parser.ts',
  'TypeError:',
  'decided',
  'must',
  'TODO:',
  'ok',
  'retry',
  'tests',
  'passed',
  'failed',
  '决定',
  'cache',
];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 30 }).map((w) => `${w.join(' ')}.`);
const longText = fc.tuple(text, fc.integer({ min: 0, max: 80 })).map(([t, n]) => `${t}\n${'output line of the tool\n'.repeat(n)}`);

type Step =
  | { kind: 'user'; text: string; pin: boolean }
  | { kind: 'ack' }
  | { kind: 'assistant'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'tools'; calls: { args: string; out: string; error: boolean }[]; text: string }
  | { kind: 'skill'; text: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), text, pin: fc.integer({ min: 0, max: 9 }).map((x) => x === 0) }),
  fc.constant({ kind: 'ack' as const }),
  fc.record({ kind: fc.constant('assistant' as const), text: longText }),
  fc.record({ kind: fc.constant('thinking' as const), text }),
  fc.record({
    kind: fc.constant('tools' as const),
    text: fc.oneof(fc.constant(''), text),
    calls: fc.array(fc.record({ args: longText, out: longText, error: fc.boolean() }), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('skill' as const), text: longText }),
);

function build(steps: readonly Step[], system: boolean): Conversation {
  const messages: Message[] = [];
  let n = 0;
  const id = (p: string) => `${p}${++n}`;
  if (system) messages.push({ id: id('s'), role: 'system', itemType: 'SYSTEM_PROMPT', content: [{ type: 'text', text: 'You are an agent.' }] });
  messages.push({ id: id('u'), role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text: 'Start: fix the parser in src/app/parser.ts.' }] });
  for (const s of steps) {
    if (s.kind === 'user')
      messages.push({ id: id('u'), role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text: s.text }], ...(s.pin ? { pinned: true } : {}) });
    else if (s.kind === 'ack') messages.push({ id: id('u'), role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text: 'ok' }] });
    else if (s.kind === 'assistant')
      messages.push({ id: id('a'), role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: [{ type: 'text', text: s.text }] });
    else if (s.kind === 'thinking') messages.push({ id: id('t'), role: 'assistant', itemType: 'THINKING', content: [{ type: 'thinking', text: s.text }] });
    else if (s.kind === 'skill') messages.push({ id: id('k'), role: 'user', itemType: 'SKILL_PROMPT', content: [{ type: 'text', text: s.text }] });
    else {
      const calls = s.calls.map((c) => ({ id: id('call_'), name: 'Bash', arguments: JSON.stringify({ command: c.args }) }));
      messages.push({
        id: id('a'),
        role: 'assistant',
        itemType: 'ASSISTANT_MESSAGE',
        content: s.text ? [{ type: 'text', text: s.text }] : [],
        toolCalls: calls,
      });
      s.calls.forEach((c, k) =>
        messages.push({
          id: id('r'),
          role: 'tool',
          itemType: 'TOOL_RESULT',
          content: [{ type: 'text', text: c.out }],
          toolResult: { toolCallId: calls[k]!.id, isError: c.error, toolName: 'Bash' },
        }),
      );
    }
  }
  return { id: 'random', format: 'openai', messages, meta: {} };
}

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await createTokenCounter('gpt-4o');
});

describe.each(listStrategies().map((s) => s.name))('%s on random conversations', (strategy) => {
  it('valid, header and pins verbatim, blocks whole, replacements paired and named, deterministic', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 3, maxLength: 30 }),
        fc.boolean(),
        fc.double({ min: 0.05, max: 0.9, noNaN: true }),
        fc.constantFrom('light', 'normal', 'heavy', 'emergency' as const),
        (steps, system, ratio, level) => {
          const conv = build(steps, system);
          const p = planCompaction(conv, { counter, strategy, ratio, level });
          const out = p.conversation.messages;
          expect(validateApiShape(out).problems).toEqual([]);
          const present = new Map(out.map((m) => [m.id, m]));
          for (const m of conv.messages) if (isHeaderItem(m) || m.pinned) expect(present.get(m.id)).toBe(m);
          for (const b of computeToolBlocks(conv.messages)) {
            const members = [b.assistantIndex, ...b.resultIndices].map((i) => conv.messages[i]!.id);
            const here = members.filter((id) => present.has(id)).length;
            expect(here === 0 || here === members.length).toBe(true);
          }
          for (const m of conv.messages) {
            const r = present.get(m.id);
            if (!r || r === m) continue;
            expect(r.role).toBe(m.role);
            expect(r.toolResult).toEqual(m.toolResult);
            expect(r.toolCalls?.map((c) => c.id)).toEqual(m.toolCalls?.map((c) => c.id));
            // No archive outlives a plan: a shortened message points to none.
            expect(`${messageText(r)}${r.toolCalls?.map((c) => c.arguments).join('') ?? ''}`).not.toContain('archive');
          }
          expect(planCompaction(conv, { counter, strategy, ratio, level }).conversation).toEqual(p.conversation);
        },
      ),
      { numRuns: RUNS, seed: 20261123 },
    );
  });

  it('never splits the latest round from its request: the last message a person wrote is kept verbatim', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 3, maxLength: 30 }),
        fc.boolean(),
        fc.double({ min: 0.05, max: 0.9, noNaN: true }),
        fc.constantFrom('light', 'normal', 'heavy', 'emergency' as const),
        (steps, system, ratio, level) => {
          const conv = build(steps, system);
          const p = planCompaction(conv, { counter, strategy, ratio, level });
          const at = conv.messages.map((m) => isUserAuthored(m)).lastIndexOf(true);
          const request = conv.messages[at]!;
          const out = p.conversation.messages;
          const later = new Set(conv.messages.slice(at + 1).map((m) => m.id));
          // Kept as it was written — only the emergency level may leave it out (when it alone is
          // over the room left), and then nothing after it is kept: its whole round is summarized.
          if (p.level !== 'emergency') expect(out).toContain(request);
          if (!out.includes(request)) expect(out.filter((m) => later.has(m.id))).toEqual([]);
        },
      ),
      { numRuns: RUNS, seed: 20261127 },
    );
  });
});
