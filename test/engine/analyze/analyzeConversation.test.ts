// Behaviour of the analyze + prioritize stages on small hand-made conversations, English and
// Chinese: each metric moves the way its rule says, constants steer it, bad options are clear
// errors, and the output is deterministic.

import { describe, expect, it } from 'vitest';
import type { Message, ToolCall } from '../../../src/engine/conversation/model';
import { analyzeConversation } from '../../../src/engine/analyze/analyzeConversation';
import { ANALYZE_CONSTANTS, type AnalyzeConstants } from '../../../src/engine/analyze/constants';
import type { ConversationAnalysis, MessageAnalysis } from '../../../src/engine/analyze/analysis';

let seq = 0;
const nextId = () => `m${++seq}`;

function user(text: string, extra: Partial<Message> = {}): Message {
  return { id: nextId(), role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text }], ...extra };
}
function assistant(text: string, toolCalls?: ToolCall[], extra: Partial<Message> = {}): Message {
  const m: Message = { id: nextId(), role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: text ? [{ type: 'text', text }] : [], ...extra };
  if (toolCalls) m.toolCalls = toolCalls;
  return m;
}
function system(text: string): Message {
  return { id: nextId(), role: 'system', itemType: 'SYSTEM_PROMPT', content: [{ type: 'text', text }] };
}
function call(name: string, args: Record<string, unknown>, id = `call_${++seq}`): ToolCall {
  return { id, name, arguments: JSON.stringify(args) };
}
function result(toolCallId: string, text: string, isError = false, sourceRole?: string): Message {
  const m: Message = { id: nextId(), role: 'tool', itemType: 'TOOL_RESULT', content: [{ type: 'text', text }], toolResult: { toolCallId, isError } };
  if (sourceRole) m.source = { format: 'anthropic', role: sourceRole };
  return m;
}
const byId = (a: ConversationAnalysis, m: Message): MessageAnalysis => a.messages.find((x) => x.id === m.id)!;

describe('output shape', () => {
  it('gives one analysis per message, in order, with every metric in range and overall as the weighted sum', () => {
    const c1 = call('Read', { file_path: 'src/app.ts' });
    const msgs = [
      system('You are a coding assistant.'),
      user('Fix the crash in src/app.ts please'),
      assistant('Reading the file.', [c1]),
      result(c1.id, 'export const app = () => null;'),
      assistant('The bug is a missing null check; I will add it.'),
    ];
    const a = analyzeConversation(msgs);
    expect(a.messages.map((x) => x.id)).toEqual(msgs.map((m) => m.id));
    expect(a.messages.map((x) => x.index)).toEqual([0, 1, 2, 3, 4]);
    for (const x of a.messages) {
      const im = x.importance;
      for (const v of [
        im.criticality,
        im.dependency,
        im.uniqueness,
        im.actionability,
        im.overall,
        im.temporal,
        im.relevance,
        im.tier,
        x.classification.confidence,
        x.classification.density,
      ]) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
      const expected = im.criticality * 0.35 + im.dependency * 0.25 + im.uniqueness * 0.2 + im.actionability * 0.2;
      expect(im.overall).toBeCloseTo(expected, 3);
      expect(im.roleScore).toBeGreaterThan(0);
    }
  });

  it('handles an empty conversation', () => {
    const a = analyzeConversation([]);
    expect(a.messages).toEqual([]);
    expect(a.taskType).toBe('unknown');
  });
});

describe('importance', () => {
  it('an error report outranks an acknowledgement on every scale (English)', () => {
    const err = user('The build fails with TypeError: cannot read property "id" of undefined in src/user.ts — this is critical, please fix it');
    const ok = user('ok');
    const a = analyzeConversation([err, assistant('Looking into it.'), ok]);
    const e = byId(a, err);
    const k = byId(a, ok);
    expect(e.importance.overall).toBeGreaterThan(k.importance.overall);
    expect(e.importance.criticality).toBeGreaterThan(k.importance.criticality);
    expect(e.importance.roleScore).toBeGreaterThan(k.importance.roleScore);
    expect(e.importance.tier).toBeGreaterThan(k.importance.tier);
    expect(e.classification.contentType).toBe('error_information');
    expect(k.isAcknowledgement).toBe(true);
    expect(k.importance.tier).toBe(ANALYZE_CONSTANTS.TIER_LOW);
  });

  it('an error report outranks an acknowledgement (Chinese)', () => {
    const err = user('登录接口报错了：返回 500，必须今天修复这个问题');
    const ok = user('好的，收到');
    const a = analyzeConversation([err, assistant('我来看看。'), ok]);
    expect(byId(a, err).importance.overall).toBeGreaterThan(byId(a, ok).importance.overall);
    expect(byId(a, err).importance.criticality).toBeGreaterThan(0);
    expect(byId(a, err).classification.contentType).toBe('error_information');
    expect(byId(a, ok).isAcknowledgement).toBe(true);
    expect(byId(a, err).isAcknowledgement).toBe(false);
  });

  it('a message whose file is mentioned later gets higher dependency, and lists who refers back', () => {
    const intro = assistant('I created src/cache/store.ts with the LRU store.');
    const other = assistant('The weather API returns JSON we can print directly.');
    const later1 = user('Can you add a TTL to src/cache/store.ts?');
    const later2 = assistant('Updated store.ts: entries now expire.');
    const a = analyzeConversation([user('Build a cache'), intro, other, later1, later2]);
    const i = byId(a, intro);
    const o = byId(a, other);
    expect(i.referencedBy).toEqual([3, 4]);
    expect(o.referencedBy).toEqual([]);
    expect(i.importance.dependency).toBeGreaterThan(o.importance.dependency);
  });

  it('links identifiers and error signatures across messages (Chinese text too)', () => {
    const first = result('x', 'Traceback (most recent call last):\n  File "a.py", line 1\nKeyError: \'user_id\'', true);
    const a = analyzeConversation([
      user('运行测试'),
      assistant('', [call('bash', { command: 'pytest' }, 'x')]),
      first,
      user("这个 KeyError: 'user_id' 是什么原因？parseUserConfig 有问题吗"),
      assistant('parseUserConfig 没有处理缺失的键。'),
    ]);
    expect(a.messages[2]!.refs.errors).toEqual(["KeyError: 'user_id'"]);
    expect(a.messages[2]!.referencedBy).toContain(3);
    expect(a.messages[3]!.referencedBy).toContain(4);
  });

  it('near-duplicates get lower uniqueness and point at the first copy', () => {
    const base = 'Running the test suite again to check whether the flaky network test in tests/test_net.py passes this time around';
    const d1 = assistant(base);
    const d2 = assistant(`${base}.`);
    const d3 = assistant(`${base}!`);
    const other = assistant('Here is a completely different message about database migrations and schema versions for the orders table');
    const a = analyzeConversation([user('go'), d1, other, d2, d3]);
    expect(byId(a, d2).nearDuplicateOf).toBe(1);
    expect(byId(a, d3).nearDuplicateOf).toBe(1);
    expect(byId(a, d1).nearDuplicateOf).toBeUndefined();
    expect(byId(a, other).nearDuplicateOf).toBeUndefined();
    expect(byId(a, d1).importance.uniqueness).toBeLessThan(byId(a, other).importance.uniqueness);
    expect(byId(a, d3).importance.uniqueness).toBeLessThan(byId(a, other).importance.uniqueness);
  });

  it('near-duplicates in Chinese are found by character bigrams', () => {
    const t = '我们决定把缓存层从内存迁移到Redis，并且为每个键设置过期时间，这样可以减少内存占用';
    const a = analyzeConversation([user('开始'), assistant(t), assistant(`${t}。`), assistant('今天下午三点开会讨论前端页面的配色方案和字体大小')]);
    expect(a.messages[2]!.nearDuplicateOf).toBe(1);
    expect(a.messages[3]!.nearDuplicateOf).toBeUndefined();
  });

  it('messages that merely share words are not near-duplicates', () => {
    const a = analyzeConversation([
      user('Please add input validation to the signup form and show errors inline'),
      user('Please add rate limiting to the login endpoint and log failures'),
    ]);
    expect(a.messages[1]!.nearDuplicateOf).toBeUndefined();
  });
});

describe('temporal relevance', () => {
  it('decays 10% a day with timestamps, relative to the latest one', () => {
    const old = user('Note the deploy settings', { timestamp: '2025-01-01T10:00:00Z' });
    const mid = user('Note the deploy settings for staging', { timestamp: '2025-01-04T10:00:00Z' });
    const recent = user('Note the deploy settings for prod', { timestamp: '2025-01-06T10:00:00Z' });
    const a = analyzeConversation([old, mid, recent]);
    const [o, m, r] = a.messages.map((x) => x.importance.temporal);
    expect(o!).toBeLessThan(m!);
    expect(m!).toBeLessThan(r!);
    // 5 days old → 0.5 time decay × position decay 0.5 × timeless 0.9
    expect(o!).toBeCloseTo(0.5 * 0.5 * 0.9, 3);
  });

  it('decays by position when there are no timestamps', () => {
    const msgs = [user('Remember the palette'), assistant('Palette noted'), user('And the fonts'), assistant('Fonts noted')];
    const t = analyzeConversation(msgs).messages.map((x) => x.importance.temporal);
    expect(t[0]!).toBeLessThan(t[3]!);
    expect([...t].sort((x, y) => x - y)).toEqual(t);
  });

  it('uses `now` when given, and rejects a bad one clearly', () => {
    const m = user('Note the deploy settings', { timestamp: '2025-01-01T00:00:00Z' });
    const fresh = analyzeConversation([m]).messages[0]!.importance.temporal;
    const stale = analyzeConversation([m], { now: '2025-01-08T00:00:00Z' }).messages[0]!.importance.temporal;
    expect(stale).toBeLessThan(fresh);
    expect(() => analyzeConversation([m], { now: 'yesterday' })).toThrow(/AnalyzeOptions\.now: expected an ISO 8601/);
  });

  it('categorizes immediate, current-phase, future, historical and timeless content', () => {
    const msgs = [
      user('The deploy is broken right now'),
      user('I am working on the parser'),
      user('Next we will add caching later'),
      user('Previously the team did it by hand'),
      user('Blue is a colour'),
      user('现在线上报错了'),
      user('之前已经讨论过这个话题'),
    ];
    const cats = analyzeConversation(msgs).messages.map((x) => x.importance.temporalCategory);
    expect(cats).toEqual(['immediate', 'current_phase', 'future_relevant', 'historical', 'timeless', 'immediate', 'historical']);
  });
});

describe('relevance', () => {
  it('scores the current work 1 and earlier messages by what they share with it', () => {
    const related = assistant('The session tokens are stored in src/auth/session.ts and refreshed by refreshSession');
    const unrelated = assistant('The colour palette for the marketing site uses teal and orange');
    const msgs = [
      user('Tidy up the marketing site'),
      unrelated,
      related,
      user('Start on the auth work'),
      assistant('ok'),
      user('Why does refreshSession in src/auth/session.ts fail?'),
      assistant('Looking at src/auth/session.ts now.'),
    ];
    const a = analyzeConversation(msgs);
    expect(a.currentStart).toBe(3);
    for (let i = 3; i < msgs.length; i++) expect(a.messages[i]!.importance.relevance).toBe(1);
    expect(byId(a, related).importance.relevance).toBeGreaterThan(byId(a, unrelated).importance.relevance);
    // currentRounds = 1: only the last round is current.
    expect(analyzeConversation(msgs, { currentRounds: 1 }).currentStart).toBe(5);
  });

  it('a named focus raises the messages about it (testing)', () => {
    const testMsg = assistant('I added unit tests and a test for the validation of inputs; coverage is now 90%');
    const otherMsg = assistant('I renamed the navbar component and moved the logo');
    const msgs = [user('Work on the app'), testMsg, otherMsg, user('next'), assistant('ok')];
    const plain = analyzeConversation(msgs, { currentRounds: 1 });
    const focused = analyzeConversation(msgs, { focus: 'testing', currentRounds: 1 });
    expect(focused.focus).toEqual({ kind: 'named', name: 'testing', text: 'testing' });
    expect(byId(focused, testMsg).importance.relevance).toBeGreaterThan(byId(focused, otherMsg).importance.relevance);
    expect(byId(focused, testMsg).importance.relevance).toBeGreaterThan(byId(plain, testMsg).importance.relevance);
  });

  it('a free-text focus raises matching messages, in English and Chinese', () => {
    const auth = assistant('The authentication token expires too early because of the clock skew');
    const css = assistant('The button colours now follow the design tokens');
    const zhAuth = assistant('登录模块的验证码过期时间太短');
    const zhOther = assistant('首页的图片加载很慢');
    const msgs = [user('start'), auth, css, zhAuth, zhOther, user('next'), assistant('sure')];
    const en = analyzeConversation(msgs, { focus: 'focus on the auth bug' });
    expect(en.focus).toMatchObject({ kind: 'free', terms: ['auth', 'bug'] });
    expect(byId(en, auth).importance.relevance).toBeGreaterThan(byId(en, css).importance.relevance);
    const zh = analyzeConversation(msgs, { focus: '重点关注登录' });
    expect(byId(zh, zhAuth).importance.relevance).toBeGreaterThan(byId(zh, zhOther).importance.relevance);
    expect(analyzeConversation(msgs, { focus: '测试' }).focus).toMatchObject({ kind: 'named', name: 'testing' });
  });
});

describe('role score', () => {
  it('bases: user 5, assistant 2, system 1, tool result below the assistant', () => {
    const c1 = call('Read', { file_path: 'a.txt' });
    const a = analyzeConversation([system('Be brief.'), user('hello'), assistant('hi'), assistant('', [c1]), result(c1.id, 'plain text')]);
    expect(a.messages.map((x) => x.importance.roleScore)).toEqual([1, 5, 2, 2 + 2, 0.5 + 2]);
  });

  it('a tool result that travelled with role "user" is not a user message', () => {
    const c1 = call('Read', { file_path: 'a.txt' });
    const asUserItem: Message = {
      id: 'r',
      role: 'user',
      itemType: 'USER_MESSAGE',
      content: [{ type: 'text', text: 'file contents' }],
      toolResult: { toolCallId: c1.id, isError: false },
    };
    const a = analyzeConversation([user('read it'), assistant('', [c1]), asUserItem, result('zz', 'x', false, 'user')]);
    expect(a.messages[2]!.importance.roleScore).toBeLessThan(5);
    expect(a.messages[2]!.keyEvents).not.toContain('user_input');
    expect(a.messages[3]!.importance.roleScore).toBeLessThan(5);
  });

  it('adds keyword, error/fix, completion and pin bonuses', () => {
    const plain = assistant('Here you go');
    const keywords = assistant('The task had an error and a bug'); // error, task, bug: +1.5; error/fix +2
    const completion = assistant('Task complete. !!!COMPLETE!!!');
    const pinned = user('<Pin>Always use pnpm</Pin>');
    const zhPinned = user('注意：接口前缀统一为 /api/v2');
    const a = analyzeConversation([user('go'), plain, keywords, completion, pinned, zhPinned]);
    expect(byId(a, plain).importance.roleScore).toBe(2);
    expect(byId(a, keywords).importance.roleScore).toBe(2 + 3 * 0.5 + 2);
    expect(byId(a, completion).importance.roleScore).toBe(2 + 2 * 0.5 + 1.5); // "task", "complete" + completion
    expect(byId(a, pinned).importance.roleScore).toBe(5 + 3);
    expect(byId(a, zhPinned).importance.roleScore).toBe(5 + 3);
    expect(byId(a, pinned).importance.tier).toBe(1);
  });

  it('the bases are constants', () => {
    const a = analyzeConversation([user('hello'), assistant('hi')], { constants: { ROLE_BASE_USER: 4, ROLE_BASE_ASSISTANT: 1 } });
    expect(a.messages.map((x) => x.importance.roleScore)).toEqual([4, 1]);
  });
});

describe('key events (user input, task start and end, long decisions, errors, fixes, key tool results)', () => {
  it('marks user input, task start and completion', () => {
    const msgs = [
      system('When done, run: echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT'),
      user('Implement the login page'),
      assistant('Working on it.'),
      user('ok'),
      assistant('', [call('bash', { command: 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff' })]),
      assistant('Done.'),
      assistant('任务完成，已经提交。'),
      assistant('', [call('finish', { message: 'all set' })]),
    ];
    const ev = analyzeConversation(msgs).messages.map((x) => x.keyEvents);
    expect(ev[0]).toEqual([]); // system prompts mention the marker as an instruction
    expect(ev[1]).toEqual(['task_start', 'user_input']);
    expect(ev[2]).toEqual([]);
    expect(ev[3]).toEqual(['user_input']);
    expect(ev[4]).toContain('task_complete');
    expect(ev[5]).toContain('task_complete');
    expect(ev[6]).toContain('task_complete');
    expect(ev[7]).toContain('task_complete'); // OpenHands' finish action
  });

  it('the task starts at the first user message that states one, not at "ok" or a bare slash command', () => {
    const a = analyzeConversation([
      user('<command-name>/clear</command-name>\n<command-message>clear</command-message>'),
      user('/init'),
      user('ok'),
      user('Migrate the build from CJS to ESM'),
      user('Also add a lint step'),
    ]);
    expect(a.messages.map((x) => x.keyEvents.includes('task_start'))).toEqual([false, false, false, true, false]);
  });

  it('marks decisions only when long enough', () => {
    const long = assistant('We decided to go with PostgreSQL instead of MongoDB because the data is relational and we need transactions across orders.');
    const short = assistant('Decided: Postgres.');
    const zh = assistant(
      '经过比较，我们决定采用方案B：使用消息队列解耦订单服务和库存服务，这样可以在高峰期削峰填谷，并且方便以后扩展更多的消费者服务，也能降低各个服务之间的耦合程度，出现故障时也更容易定位和恢复，监控告警也可以按服务拆分。',
    );
    const a = analyzeConversation([user('go'), long, short, zh]);
    expect(byId(a, long).keyEvents).toContain('decision');
    expect(byId(a, short).keyEvents).not.toContain('decision');
    expect(byId(a, zh).keyEvents).toContain('decision');
  });

  it('marks errors, fixes and key tool results, not code that mentions errors', () => {
    const run = call('bash', { command: 'pytest tests/test_api.py' });
    const edit = call('Edit', { file_path: 'api.py', old_string: 'x', new_string: 'raise ValueError("bad")' });
    const read = call('Read', { file_path: 'README.md' });
    const failing = result(run.id, 'FAILED tests/test_api.py::test_create - AssertionError\n1 failed, 3 passed', true);
    const edited = result(edit.id, 'The file api.py has been updated.');
    const readOut = result(read.id, '# Project\nSome docs');
    const msgs = [
      user('Run the tests'),
      assistant('', [run]),
      failing,
      assistant('Let me fix it.', [edit]),
      edited,
      assistant('', [read]),
      readOut,
      assistant('Fixed the bug; tests pass now.'),
      user('登录失败，报错 500'),
    ];
    const a = analyzeConversation(msgs);
    expect(byId(a, failing).keyEvents).toEqual(['error', 'key_tool_result']);
    expect(byId(a, edited).keyEvents).toEqual(['key_tool_result']);
    expect(byId(a, readOut).keyEvents).toEqual([]);
    expect(a.messages[3]!.keyEvents).toEqual(['fix']); // "raise ValueError" in the edit is code, not an error report
    expect(a.messages[7]!.keyEvents).toEqual(['error', 'fix']);
    expect(a.messages[8]!.keyEvents).toEqual(['error', 'user_input']);
  });

  it('marks pinned messages: the flag, <Pin>, and importance words a person wrote', () => {
    const flagged = assistant('Use port 8080', [], { pinned: true });
    const a = analyzeConversation([user('重要：不要改数据库结构'), flagged, assistant('It is important to note the cache'), user('This is important')]);
    expect(a.messages[0]!.keyEvents).toContain('pinned');
    expect(a.messages[1]!.keyEvents).toContain('pinned');
    expect(a.messages[2]!.keyEvents).not.toContain('pinned');
    expect(a.messages[3]!.keyEvents).toContain('pinned');
  });
});

describe('tiers on messages', () => {
  it('keeps header items and pinned messages extreme, tool results default', () => {
    const c1 = call('Read', { file_path: 'x.md' });
    const a = analyzeConversation([
      system('You are helpful.'),
      user('决定：使用 Rust'),
      assistant('好的'),
      assistant('', [c1]),
      result(c1.id, 'You must never do this (from a file)'),
      assistant('hello', [], { pinned: true }),
    ]);
    expect(a.messages.map((x) => x.importance.tier)).toEqual([1, 1, 0.1, 0.5, 0.5, 1]);
  });

  it('reads tiers from the words, not from code written by a tool call', () => {
    const a = analyzeConversation([user('go'), assistant('', [call('Write', { file_path: 'a.md', content: 'You must never commit secrets' })])]);
    expect(a.messages[1]!.importance.tier).toBe(0.5);
  });
});

describe('constants and options', () => {
  it('weights can be overridden by name', () => {
    const msgs = [user('There is a critical error in the payment service, fix it now')];
    const a = analyzeConversation(msgs, { constants: { WEIGHT_CRITICALITY: 1, WEIGHT_DEPENDENCY: 0, WEIGHT_UNIQUENESS: 0, WEIGHT_ACTIONABILITY: 0 } });
    expect(a.messages[0]!.importance.overall).toBe(a.messages[0]!.importance.criticality);
  });

  it('an acknowledgement limit can be raised', () => {
    const long = 'ok thanks great got it sure yes';
    expect(analyzeConversation([user(long)]).messages[0]!.isAcknowledgement).toBe(false);
    expect(analyzeConversation([user(long)], { constants: { ACK_MAX_CHARS: 40 } }).messages[0]!.isAcknowledgement).toBe(true);
  });

  it('rejects unknown constants, bad values and bad options with the name of what is wrong', () => {
    const msgs = [user('hi')];
    // A JavaScript caller (or a misspelling behind a cast) still gets a clear error.
    expect(() => analyzeConversation(msgs, { constants: { WEIGHT_CRITICALTY: 1 } as Partial<AnalyzeConstants> })).toThrow(
      /AnalyzeOptions\.constants\.WEIGHT_CRITICALTY: unknown constant/,
    );
    expect(() => analyzeConversation(msgs, { constants: { WEIGHT_CRITICALITY: -1 } })).toThrow(/WEIGHT_CRITICALITY: expected a finite number ≥ 0/);
    expect(() => analyzeConversation(msgs, { constants: { ACK_MAX_CHARS: 2.5 } })).toThrow(/ACK_MAX_CHARS: expected a whole number/);
    expect(() => analyzeConversation(msgs, { constants: { CRITICALITY_SATURATION: 0 } })).toThrow(/CRITICALITY_SATURATION: expected a number > 0/);
    expect(() => analyzeConversation(msgs, { currentRounds: -1 })).toThrow(/AnalyzeOptions\.currentRounds: expected a whole number/);
  });

  it('rejects malformed messages naming the position', () => {
    expect(() => analyzeConversation('nope' as unknown as Message[])).toThrow(/expected an array of messages/);
    const bad = [user('ok'), { id: 'x', role: 'user', itemType: 'USER_MESSAGE' } as unknown as Message];
    expect(() => analyzeConversation(bad)).toThrow(/messages\[1\] \(id x\): expected content to be an array/);
  });
});

describe('determinism', () => {
  it('the same input gives deep-equal output, and the input is not changed', () => {
    const c1 = call('bash', { command: 'grep -rn TODO src' });
    const msgs = [
      system('You are a coding agent.'),
      user('Find the TODOs in src and fix the one in src/a.ts', { timestamp: '2025-03-01T09:00:00Z' }),
      assistant('Searching.', [c1], { timestamp: '2025-03-01T09:00:05Z' }),
      result(c1.id, 'src/a.ts:3: // TODO handle null\nsrc/b.ts:9: // TODO cache'),
      assistant('决定：先修复 src/a.ts 里的空值处理。', [], { timestamp: '2025-03-02T09:00:00Z' }),
      user('好的'),
    ];
    const snapshot = JSON.stringify(msgs);
    const a = analyzeConversation(msgs, { focus: 'null handling' });
    const b = analyzeConversation(JSON.parse(snapshot) as Message[], { focus: 'null handling' });
    expect(b).toEqual(a);
    expect(JSON.stringify(msgs)).toBe(snapshot);
  });
});
