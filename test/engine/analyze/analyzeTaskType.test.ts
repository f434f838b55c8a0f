// The task type (code, analysis, conversation, mixed, unknown) read from the tools a conversation
// used, and the tool-call kinds it rests on.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import { MessageMemo } from '../../../src/engine/conversation/messageMemo';
import type { Message, ToolCall } from '../../../src/engine/conversation/model';
import { ANALYZE_CONSTANTS } from '../../../src/engine/analyze/constants';
import { detectTaskType } from '../../../src/engine/analyze/taskType';
import { shellCommandKind, toolCallKind } from '../../../src/engine/analyze/toolKinds';
import { transcriptPath } from '../../helpers/transcripts';

let n = 0;
const call = (name: string, args: Record<string, unknown>): ToolCall => ({ id: `c${++n}`, name, arguments: JSON.stringify(args) });
const user = (text: string): Message => ({ id: `u${++n}`, role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text }] });
const assistant = (text: string, toolCalls?: ToolCall[]): Message => ({
  id: `a${++n}`,
  role: 'assistant',
  itemType: 'ASSISTANT_MESSAGE',
  content: [{ type: 'text', text }],
  ...(toolCalls ? { toolCalls } : {}),
});
const results = (calls: ToolCall[]): Message[] =>
  calls.map((c) => ({
    id: `r${++n}`,
    role: 'tool',
    itemType: 'TOOL_RESULT',
    content: [{ type: 'text', text: 'out' }],
    toolResult: { toolCallId: c.id, isError: false },
  }));
const withCalls = (calls: ToolCall[]): Message[] => [user('do the task'), ...calls.flatMap((c) => [assistant('', [c]), ...results([c])])];
const detect = (m: Message[]) => detectTaskType(m, ANALYZE_CONSTANTS);

describe('tool kinds', () => {
  it('by tool name', () => {
    expect(toolCallKind(call('Edit', {}))).toBe('edit');
    expect(toolCallKind(call('str_replace_based_edit_tool', { command: 'str_replace' }))).toBe('edit');
    expect(toolCallKind(call('mcp__fs__write_file', {}))).toBe('edit');
    expect(toolCallKind(call('Read', {}))).toBe('read');
    expect(toolCallKind(call('Grep', {}))).toBe('search');
    expect(toolCallKind(call('retrieve_memory', {}))).toBe('search');
    expect(toolCallKind(call('TodoWrite', { todos: [] }))).toBe('other');
  });

  it.each([
    ["sed -i 's/a/b/' x.py", 'edit'],
    ["cat <<'EOF' > fix.py\nprint('hi') > 3\nEOF", 'edit'],
    ['echo "x" >> notes.md', 'edit'],
    ['git apply patch.diff', 'edit'],
    ['cd /testbed && python -m pytest tests/test_a.py -q', 'test'],
    ['npm run build', 'test'],
    ['cargo test', 'test'],
    ['/testbed/tests/runtests.py timezones', 'test'],
    ['python reproduce.py 2>&1', 'run'],
    ["grep -rn 'TIME_ZONE' django/ | head -20", 'search'],
    ['find . -name "*.py"', 'search'],
    ["nl -ba django/db/utils.py | sed -n '1,40p'", 'read'],
    ['cat setup.cfg', 'read'],
    ['ls -la > /dev/null 2>&1', 'search'],
  ])('shell %j is %s', (command, kind) => {
    expect(shellCommandKind(command)).toBe(kind);
  });
});

describe('detectTaskType', () => {
  it('file edits and test runs make a code task, even with many reads', () => {
    const calls = [
      ...Array.from({ length: 6 }, () => call('Read', { file_path: 'a.ts' })),
      call('Grep', { pattern: 'x' }),
      call('Edit', { file_path: 'a.ts' }),
      call('Write', { file_path: 'b.ts' }),
      call('Bash', { command: 'npm test' }),
    ];
    const r = detect(withCalls(calls));
    expect(r.taskType).toBe('code');
    expect(r.confidence).toBeGreaterThan(0.5);
    expect(r.signals.join(' ')).toMatch(/2 file edits/);
  });

  it('aider-style applied edits in the text count as code', () => {
    const r = detect([user('add a flag'), assistant('src/a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE'), user('> Applied edit to src/a.py')]);
    expect(r.taskType).toBe('code');
  });

  it('searches and reads without edits make an analysis task', () => {
    const calls = [
      call('Grep', { pattern: 'auth' }),
      call('Glob', { pattern: '**/*.ts' }),
      call('WebSearch', { query: 'oauth' }),
      call('Read', { file_path: 'a.ts' }),
    ];
    const r = detect(withCalls(calls));
    expect(r.taskType).toBe('analysis');
  });

  it('short turns without tools make a conversation', () => {
    const r = detect([
      user('What is a closure?'),
      assistant('A function with its environment.'),
      user('Thanks! And currying?'),
      assistant('Turning f(a, b) into f(a)(b).'),
    ]);
    expect(r.taskType).toBe('conversation');
    expect(r.confidence).toBe(1);
  });

  it('edits and searches in balance make a mixed task', () => {
    const calls = [call('Edit', { file_path: 'a.ts' }), call('Grep', { pattern: 'a' }), call('Grep', { pattern: 'b' }), call('Glob', { pattern: 'c' })];
    const r = detect(withCalls(calls));
    expect(r.taskType).toBe('mixed');
  });

  it('nothing to go on is unknown', () => {
    expect(detect([]).taskType).toBe('unknown');
    expect(detect(withCalls([call('TodoWrite', { todos: [] })])).taskType).toBe('unknown');
  });
});

describe('the task type of a growing conversation', () => {
  it('counts resumed as messages come, or started over, give what counting afresh gives', () => {
    const path = transcriptPath('claude-code/kiliman__claude-transcript__test2.jsonl');
    const messages = importTranscript(readFileSync(path, 'utf8'), { sourcePath: path, wholeFile: true }).conversation.messages;
    const memo = new MessageMemo();
    const k = messages.length;
    // Growing prefixes resume; a shorter one starts over; constants of their own count apart.
    for (const cut of [1, 2, Math.floor(k / 3), Math.floor(k / 2), k - 1, k, Math.floor(k / 4), k]) {
      const prefix = messages.slice(0, cut);
      expect(detectTaskType(prefix, ANALYZE_CONSTANTS, memo), `cut ${cut}`).toEqual(detect(prefix));
    }
    const other = { ...ANALYZE_CONSTANTS, TASK_SHORT_TURN_CHARS: 5 };
    expect(detectTaskType(messages, other, memo)).toEqual(detectTaskType(messages, other));
    expect(detect(messages).taskType).not.toBe('unknown');
  });
});
