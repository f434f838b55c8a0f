// A tool call or tool result that repeats another word for word is read once per analysis
// (analyze/readingKey.ts): the key holds what a reading reads and nothing else, and the analysis
// of a session with repeats says for each repeat what it says for the first.

import { describe, expect, it } from 'vitest';
import { analyzeConversation } from '../../../src/engine/analyze/analyzeConversation';
import { READING_KEY_MAX_CHARS, readingKey } from '../../../src/engine/analyze/readingKey';
import type { Message } from '../../../src/engine/conversation/model';

function call(id: string, command: string, at: string): Message {
  return {
    id,
    role: 'assistant',
    itemType: 'ASSISTANT_MESSAGE',
    content: [],
    toolCalls: [{ id: `call_${id}`, name: 'Bash', arguments: JSON.stringify({ command }) }],
    timestamp: at,
  };
}

function result(id: string, text: string, isError = false): Message {
  return { id, role: 'tool', itemType: 'TOOL_RESULT', content: [{ type: 'text', text }], toolResult: { toolCallId: `call_${id}`, isError } };
}

describe('readingKey', () => {
  it('is the same for repeats that differ only in ids and times', () => {
    expect(readingKey(call('a', 'git status', '2026-01-01T00:00:00Z'))).toBe(readingKey(call('b', 'git status', '2026-01-02T00:00:00Z')));
    expect(readingKey(result('a', 'File created successfully'))).toBe(readingKey(result('b', 'File created successfully')));
  });

  it('differs when anything a reading reads differs', () => {
    const base = result('a', 'npm test: 3 failed');
    expect(readingKey(result('b', 'npm test: 3 failed', true))).not.toBe(readingKey(base));
    expect(readingKey(result('b', 'npm test: 4 failed'))).not.toBe(readingKey(base));
    expect(readingKey({ ...base, pinned: true })).not.toBe(readingKey(base));
    expect(readingKey({ ...base, role: 'user', itemType: 'USER_MESSAGE' })).not.toBe(readingKey(base));
    expect(readingKey(call('a', 'git status', ''))).not.toBe(readingKey(call('a', 'git diff', '')));
    // Lengths keep the pieces apart: "ab" + "c" is not "a" + "bc".
    const parts = (a: string, b: string): Message => ({
      ...base,
      content: [
        { type: 'text', text: a },
        { type: 'text', text: b },
      ],
    });
    expect(readingKey(parts('ab', 'c'))).not.toBe(readingKey(parts('a', 'bc')));
  });

  it('is undefined for what people and the model write, and for long texts', () => {
    expect(readingKey({ id: 'u', role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text: 'ok' }] })).toBeUndefined();
    expect(readingKey(result('a', 'x'.repeat(READING_KEY_MAX_CHARS + 1)))).toBeUndefined();
  });
});

describe('an analysis of a session with repeated tool calls and outputs', () => {
  it('gives each repeat what a session holding it alone gives it', () => {
    const round = (k: number): Message[] => [
      { id: `u${k}`, role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text: `Run the tests again, attempt ${k}` }] },
      call(`c${k}`, 'npm test -- src/parser.test.ts', `2026-01-01T00:0${k}:00Z`),
      result(`c${k}`, 'FAIL src/parser.test.ts\nTypeError: cannot read properties of undefined', true),
    ];
    const once = analyzeConversation(round(0));
    const thrice = analyzeConversation([...round(0), ...round(1), ...round(2)]);
    for (const k of [1, 2]) {
      for (const i of [1, 2]) {
        const a = thrice.messages[3 * k + i]!;
        const b = once.messages[i]!;
        expect(a.classification).toEqual(b.classification);
        expect(a.refs).toEqual(b.refs);
        expect(a.keyEvents).toEqual(b.keyEvents);
        expect(a.importance.roleScore).toBe(b.importance.roleScore);
        expect(a.importance.criticality).toBe(b.importance.criticality);
        // Read once: the repeat holds the first one's very refs.
        expect(a.refs).toBe(thrice.messages[i]!.refs);
      }
    }
  });
});
