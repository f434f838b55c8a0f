// Properties of analyzeConversation on random conversations, including text built to trip
// regular expressions (long paths, dotted runs, tracebacks that never end, deep indentation):
// it never throws on valid messages, every score stays in range, referencedBy points forward,
// nearDuplicateOf points back, and the result is deterministic.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeConversation } from '../../../src/engine/analyze/analyzeConversation';
import type { Message, Role } from '../../../src/engine/conversation/model';

const FRAGMENTS = [
  'ok',
  '好的',
  'thanks 👍',
  'Fix the TypeError: x is undefined in src/app.ts',
  '登录接口报错了，必须修复',
  '决定：使用 Redis',
  'Traceback (most recent call last):\n  File "a.py", line 1\n',
  '    indented line\n',
  'Raises:\n',
  '        ValueError: if empty\n',
  'a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p',
  '/very/deep/path/'.repeat(20),
  'x'.repeat(300),
  '.'.repeat(200),
  '<returncode>1</returncode>\n<output>\n',
  '```ts\nconst a = 1;\n```',
  'FAILED tests/test_a.py::test_b - AssertionError',
  'npm ERR! code E404',
  'C:\\Users\\me\\file.json',
  'https://example.com/a/b.py',
  'getUserName TIME_ZONE os.path.join(x)',
  '\n\n',
  '   ',
  'error: ',
  'ValueError:',
  '- list item\n',
  '我们觉得这个方案不错。',
];

const text = fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 40 })), { maxLength: 12 }).map((parts) => parts.join(' '));

const message = fc.record({
  role: fc.constantFrom<Role>('user', 'assistant', 'tool', 'system'),
  text,
  withCall: fc.boolean(),
  hour: fc.option(fc.integer({ min: 0, max: 23 * 30 }), { nil: undefined }),
  pinned: fc.boolean(),
});

interface MessageSpec {
  role: Role;
  text: string;
  withCall: boolean;
  hour: number | undefined;
  pinned: boolean;
}

function build(specs: MessageSpec[]): Message[] {
  let lastCall: string | undefined;
  return specs.map((s, i) => {
    const id = `m${i}`;
    const base: Message = { id, role: s.role, itemType: 'USER_MESSAGE', content: [{ type: 'text', text: s.text }] };
    if (s.hour !== undefined) base.timestamp = new Date(Date.UTC(2025, 0, 1) + s.hour * 3600_000).toISOString();
    if (s.pinned) base.pinned = true;
    if (s.role === 'system') base.itemType = 'SYSTEM_PROMPT';
    if (s.role === 'assistant') {
      base.itemType = 'ASSISTANT_MESSAGE';
      if (s.withCall) {
        lastCall = `c${i}`;
        base.toolCalls = [{ id: lastCall, name: 'bash', arguments: JSON.stringify({ command: s.text.slice(0, 80) }) }];
      }
    }
    if (s.role === 'tool') {
      base.itemType = 'TOOL_RESULT';
      base.toolResult = { toolCallId: lastCall ?? 'orphan', isError: s.withCall };
    }
    return base;
  });
}

describe('analyzeConversation properties', () => {
  it('stays in range, points references the right way, and is deterministic', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 25 }), fc.option(fc.constantFrom('testing', 'auth bug', '登录', ''), { nil: undefined }), (specs, focus) => {
        const msgs = build(specs);
        const a = analyzeConversation(msgs, focus === undefined ? {} : { focus });
        expect(a.messages).toHaveLength(msgs.length);
        for (const m of a.messages) {
          const im = m.importance;
          for (const v of [
            im.criticality,
            im.dependency,
            im.uniqueness,
            im.actionability,
            im.overall,
            im.temporal,
            im.relevance,
            im.tier,
            m.classification.density,
            m.classification.confidence,
          ]) {
            expect(Number.isFinite(v)).toBe(true);
            expect(v).toBeGreaterThanOrEqual(0);
            expect(v).toBeLessThanOrEqual(1);
          }
          expect(Number.isFinite(im.roleScore)).toBe(true);
          for (const j of m.referencedBy) expect(j).toBeGreaterThan(m.index);
          if (m.nearDuplicateOf !== undefined) expect(m.nearDuplicateOf).toBeLessThan(m.index);
        }
        expect(analyzeConversation(msgs, focus === undefined ? {} : { focus })).toEqual(a);
      }),
      { numRuns: 150, seed: 20250301 },
    );
  });

  it('handles one huge adversarial message without blowing up', () => {
    const parts: string[] = [];
    for (let i = 0; i < 2000; i++) parts.push(FRAGMENTS[i % FRAGMENTS.length]!);
    const huge = parts.join(' \n');
    const a = analyzeConversation([
      { id: 'u', role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text: huge }] },
      { id: 'a', role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: [{ type: 'text', text: `${'a'.repeat(50_000)}.py ${'/x'.repeat(20_000)}` }] },
    ]);
    expect(a.messages).toHaveLength(2);
  });

  // Each of these once took time quadratic in its length (a regular expression rescanning a
  // long run from every position). At 200,000 characters quadratic means minutes: a
  // regression shows up as a timeout, with no timing assertion needed.
  it.each([
    ['a capitalized run with no second capital', `A${'a'.repeat(200_000)}_`],
    ['a dotted chain that is not a call', `${'a.'.repeat(100_000)}(`],
    ['a run of dots', `%1${'.'.repeat(200_000)}< `],
    ['a run of question marks', `-${'?'.repeat(200_000)}@%`],
    ['an exception name that never ends', `Z${'z'.repeat(200_000)}Error_`],
    ['a traceback of indented lines only', `Traceback (most recent call last):\n${'        x = 1\n'.repeat(15_000)}During handling`],
    ['a docstring section that goes on', `Raises:\n${'        ValueError: x\n'.repeat(10_000)}`],
    ['a path that never gets an extension', `/${'ab/'.repeat(60_000)}x`],
  ])('stays linear on %s', (_name, text) => {
    const a = analyzeConversation([{ id: 'u', role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text }] }]);
    expect(a.messages).toHaveLength(1);
  });
});
