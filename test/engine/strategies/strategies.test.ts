// Every strategy on small hand-made conversations showing what each one keeps and what it drops
// (strategies.corpus.test.ts runs each on the real transcripts).

import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, planCompaction, undoCompaction } from '../../../src/engine/compactor';
import { validateApiShape } from '../../../src/engine/conversation/apiShape';
import { messageText, type Conversation } from '../../../src/engine/conversation/model';
import { capDiff, cutToolOutput, cutToTokens } from '../../../src/engine/strategies/truncation';
import { getStrategy, listStrategies, UnknownStrategyError } from '../../../src/engine/strategies/registry';
import { plainDecision } from '../../../src/engine/strategies/strategy';
import { createTokenCounter, type CachedTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { ConversationBuilder, codingSession } from '../../helpers/compactorFixtures';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await createTokenCounter('gpt-4o');
});

const NAMES = listStrategies().map((s) => s.name);

describe('registry', () => {
  it('lists every strategy with what it keeps, and names them in the unknown-strategy error', () => {
    expect(NAMES).toEqual(
      expect.arrayContaining([
        'adaptive',
        'summary',
        'window',
        'importance',
        'key-events',
        'incremental',
        'levels',
        'selective',
        'masking',
        'dedupe',
        'drop-only',
      ]),
    );
    for (const s of listStrategies()) expect(s.keeps.length).toBeGreaterThan(10);
    expect(() => getStrategy('nope')).toThrow(UnknownStrategyError);
    expect(() => getStrategy('nope')).toThrow(/adaptive, summary, window/);
  });
});

function decisionsOf(conv: Conversation, strategy: string, extra: Parameters<typeof planCompaction>[1] extends infer O ? Partial<O> : never = {}) {
  const p = planCompaction(conv, { counter, strategy, ...extra });
  return { p, by: (id: string) => p.plan.find((x) => x.id === id)!.decision };
}

/** A chat of n user/assistant pairs with distinct content. */
function longChat(n: number, opts: { pinAt?: number } = {}): Conversation {
  const b = new ConversationBuilder().system('You are helpful.');
  for (let k = 0; k < n; k++) {
    b.user(
      `Question ${k}: how does module${k} handle the retry limit of ${k * 7} attempts in the scheduler?${k === opts.pinAt ? ' <pin>remember this</pin>' : ''}`,
    );
    b.assistant(
      `Answer ${k}: module${k} retries ${k * 7} times with exponential backoff, then reports the failure to the caller. ${'More detail about the scheduler internals. '.repeat(10)}`,
    );
  }
  return b.build('chat');
}

describe('window', () => {
  it('keeps the last 4 user and 5 assistant messages (9), summarizes the rest, keeps the system prompt and a pinned message', () => {
    const conv = longChat(12, { pinAt: 1 });
    const { p } = decisionsOf(conv, 'window');
    const kept = p.plan.filter(
      (x) =>
        x.decision === 'kept' && x.itemType !== 'SYSTEM_PROMPT' && !conv.messages[x.index]!.pinned && !messageText(conv.messages[x.index]!).includes('<pin>'),
    );
    expect(kept.map((x) => x.role).filter((r) => r === 'user')).toHaveLength(4);
    expect(kept.map((x) => x.role).filter((r) => r === 'assistant')).toHaveLength(5);
    expect(kept.every((x) => x.index >= conv.messages.length - 9)).toBe(true);
    expect(p.plan[0]!.decision).toBe('kept');
    expect(p.plan.find((x) => messageText(conv.messages[x.index]!).includes('<pin>'))!.decision).toBe('kept');
    expect(p.plan[1]!.decision).toBe('summarized');
  });
});

describe('importance', () => {
  it('keeps every user message (score 5.0) and only the 5 most recent low-scoring assistant replies', () => {
    const conv = longChat(12);
    const { p } = decisionsOf(conv, 'importance');
    for (const x of p.plan) if (x.role === 'user') expect(x.decision).toBe('kept');
    const assistants = p.plan.filter((x) => x.role === 'assistant');
    for (const x of assistants) if (x.importance.roleScore >= 3) expect(x.decision).toBe('kept');
    const low = assistants.filter((x) => x.importance.roleScore < 3);
    expect(low.filter((x) => x.decision === 'kept')).toEqual(low.slice(-5));
    expect(low.slice(0, -5).every((x) => x.decision === 'summarized')).toBe(true);
  });
});

describe('key-events', () => {
  it('keeps errors, fixes and user messages; summarizes routine steps outside the recent context', () => {
    const b = new ConversationBuilder().system('agent').user('Fix the crash in parser.ts');
    for (let k = 0; k < 10; k++) b.tool('Read', { file_path: `src/file${k}.ts` }, `export const value${k} = ${k};\n`.repeat(20));
    b.tool('Bash', { command: 'npm test' }, 'TypeError: cannot read properties of undefined (reading "tokens")\n    at parse (src/parser.ts:10)', {
      isError: true,
    });
    for (let k = 10; k < 18; k++) b.tool('Read', { file_path: `src/file${k}.ts` }, `export const value${k} = ${k};\n`.repeat(20));
    b.assistant('Fixed the bug: the parser now checks for undefined tokens. The error is resolved.');
    const conv = b.build('k');
    const { p } = decisionsOf(conv, 'key-events', { archive: new MemoryArchive(true) });
    const error = p.plan.find((x) => messageText(conv.messages[x.index]!).includes('TypeError'))!;
    expect(error.decision).toBe('kept');
    expect(p.plan.find((x) => x.role === 'user')!.decision).toBe('kept');
    expect(p.plan.find((x) => messageText(conv.messages[x.index]!).includes('value0 = 0'))!.decision).toBe('summarized');
    // Kept verbatim, but for its 20 identical lines, which collapse to one line and a count.
    const recent = p.plan.find((x) => messageText(conv.messages[x.index]!).includes('value17'))!;
    expect(recent.decision).toBe('truncated');
    expect(recent.reason).toContain('19 repeated output lines collapsed into counts');
    expect(messageText(p.conversation.messages.find((m) => m.id === recent.id)!)).toMatch(
      /^export const value17 = 17;\n… 19 more identical lines \[the full output is message r\d+ in this compaction's archive\]\n?$/,
    );
  });
});

describe('incremental', () => {
  it('summarizes all but the last chunk of 20 turns, in chunks merged into one summary', () => {
    const conv = longChat(30);
    const { p } = decisionsOf(conv, 'incremental');
    const nonSystem = p.plan.filter((x) => x.itemType !== 'SYSTEM_PROMPT');
    expect(nonSystem.slice(-20).every((x) => x.decision === 'kept')).toBe(true);
    expect(nonSystem.slice(0, -20).every((x) => x.decision === 'summarized')).toBe(true);
    expect(p.conversation.messages.filter((m) => m.itemType === 'COMPACTION_SUMMARY')).toHaveLength(1);
    expect(p.sections['All user messages']).toContain('Question 0');
    expect(p.sections['All user messages']).toContain('Question 19');
  });
});

describe('levels', () => {
  it.each([
    ['light', 10],
    ['heavy', 5],
    ['emergency', 3],
  ] as const)('%s keeps the %i most recent messages', (level, n) => {
    const conv = longChat(12);
    const { p } = decisionsOf(conv, 'levels', { level });
    // At the emergency level a kept message over the room the target leaves is cut to a preview.
    const kept = p.plan.filter((x) => (x.decision === 'kept' || (level === 'emergency' && x.decision === 'truncated')) && x.itemType !== 'SYSTEM_PROMPT');
    expect(kept).toHaveLength(n);
    expect(kept.every((x) => x.index >= conv.messages.length - n)).toBe(true);
    for (const x of kept) if (x.decision === 'truncated') expect(x.reason).toMatch(/^shortened to fit the emergency budget/);
    expect(p.level).toBe(level);
  });
  it('normal: big topic groups summarized together, small ones shortened one by one at a sentence', () => {
    const b = new ConversationBuilder().system('s');
    b.user('Topic A: explain the cache. '.repeat(3));
    for (let k = 0; k < 4; k++) b.assistant(`Cache detail ${k}. ${'The cache evicts entries by age. '.repeat(20)}`);
    b.user('Topic B: and the logger? '.repeat(3)).assistant(`Logger answer. ${'The logger writes JSON lines to stderr. '.repeat(30)}`);
    for (let k = 0; k < 6; k++) b.user(`recent ${k}`).assistant(`ok ${k}`);
    const conv = b.build('lv');
    const { p } = decisionsOf(conv, 'levels', { level: 'normal' });
    expect(p.plan.filter((x) => messageText(conv.messages[x.index]!).startsWith('Cache detail')).every((x) => x.decision === 'summarized')).toBe(true);
    const logger = p.plan.find((x) => messageText(conv.messages[x.index]!).startsWith('Logger answer'))!;
    expect(logger.decision).toBe('truncated');
    const rep = p.conversation.messages.find((m) => m.id === logger.id)!;
    expect(messageText(rep)).toMatch(/stderr\. \[… [\d,]+ more characters\]/);
    expect(rep.truncation?.by).toBe('truncate');
  });
});

describe('selective', () => {
  function agentRun(): Conversation {
    const b = new ConversationBuilder().system('agent').user('Refactor the storage layer.');
    b.messages.push({
      id: 'skill1',
      role: 'user',
      itemType: 'SKILL_PROMPT',
      content: [{ type: 'text', text: 'Skill: storage refactoring guide. '.repeat(40) }],
    });
    for (let k = 0; k < 8; k++) b.tool('Read', { file_path: `src/store${k}.ts` }, `line ${k} of the store module with some code in it\n`.repeat(150));
    b.tool('Write', { file_path: 'src/big.ts', content: 'const x = 1;\n'.repeat(400) }, 'written');
    b.assistant('Done with the storage layer.');
    return b.build('sel');
  }
  it('low priorities first: old tool results become previews, oversized recent arguments/results too; the skill prompt is dropped only if still needed', () => {
    const conv = agentRun();
    // Offloading only above 100,000 tokens: every old result is cut to a preview.
    const { p, by } = decisionsOf(conv, 'selective', { ratio: 0.5, limits: { tools: { offloadTokens: 100_000 } } });
    const results = p.plan.filter((x) => x.itemType === 'TOOL_RESULT');
    expect(results.slice(0, 4).every((x) => x.decision === 'truncated')).toBe(true);
    expect(by('skill1')).not.toBe('summarized');
    const write = p.plan.find((x) => conv.messages[x.index]!.toolCalls?.[0]?.name === 'Write')!;
    expect(write.decision).toBe('truncated');
    const rep = p.conversation.messages.find((m) => m.id === write.id)!;
    expect(() => JSON.parse(rep.toolCalls![0]!.arguments)).not.toThrow();
    expect(rep.toolCalls![0]!.id).toBe(conv.messages[write.index]!.toolCalls![0]!.id);
    expect(counter.count(rep.toolCalls![0]!.arguments)).toBeLessThan(300);
  });
  it('old tool results over offloadTokens go to an archive entry of their own, exactly, behind a placeholder naming it; undo is exact', async () => {
    const conv = agentRun();
    const archive = new MemoryArchive();
    const r = await compactConversation(conv, { counter, archive, strategy: 'selective', ratio: 0.5 });
    const offloaded = r.plan.filter((x) => x.decision === 'offloaded');
    expect(offloaded.length).toBeGreaterThan(0);
    for (const o of offloaded) {
      expect(o.tokens).toBeGreaterThan(1000);
      const m = r.conversation.messages.find((x) => x.id === o.id)!;
      const key = /archive entry (offload-[0-9a-f]{64})\]$/.exec(messageText(m))?.[1];
      expect(key, messageText(m)).toBeDefined();
      expect(m.truncation).toMatchObject({ by: 'offload', archiveRef: key });
      expect(await archive.get(key!)).toBe(JSON.stringify(conv.messages[o.index]));
      expect(m.toolResult).toEqual(conv.messages[o.index]!.toolResult);
    }
    expect(validateApiShape(r.conversation.messages).ok).toBe(true);
    expect(await undoCompaction(r.archiveId, archive)).toEqual(conv);
    // A larger offloadTokens: the same results become previews instead.
    const none = await compactConversation(conv, {
      counter,
      archive: new MemoryArchive(),
      strategy: 'selective',
      ratio: 0.5,
      limits: { tools: { offloadTokens: 100_000 } },
    });
    expect(none.plan.some((x) => x.decision === 'offloaded')).toBe(false);
    // The dry run writes nothing.
    const dry = new MemoryArchive();
    planCompaction(conv, { counter, archive: dry, strategy: 'selective', ratio: 0.5 });
    expect(dry.size).toBe(0);
  });
  it('drops the skill prompt when truncating tool results is not enough, and never cuts an item twice', () => {
    const conv = agentRun();
    const { p, by } = decisionsOf(conv, 'selective', { ratio: 0.15 });
    expect(by('skill1')).toBe('dropped');
    const once = p.conversation;
    const again = planCompaction(once, { counter, strategy: 'selective', ratio: 0.5 });
    for (const m of once.messages) if (m.truncation) expect(again.plan.find((x) => x.id === m.id)!.decision).not.toBe('truncated');
  });
});

describe('masking', () => {
  it('replaces old tool outputs by a one-line placeholder naming the tool, size and archive entry; keeps the 3 most recent and every other message', () => {
    const conv = codingSession(200);
    const { p } = decisionsOf(conv, 'masking', { ratio: 0.9, archive: new MemoryArchive(true) });
    const results = p.plan.filter((x) => x.itemType === 'TOOL_RESULT');
    const read = results[0]!;
    expect(read.decision).toBe('masked');
    const rep = p.conversation.messages.find((m) => m.id === read.id)!;
    expect(messageText(rep)).toMatch(/^\[output of Read masked: [\d,]+ tokens; the full text is message r\d+ in this compaction's archive\]\n?$/);
    // Without an archive that outlives the compaction, the placeholder points nowhere.
    const dry = decisionsOf(conv, 'masking', { ratio: 0.9 }).p.conversation.messages.find((m) => m.id === read.id)!;
    expect(messageText(dry)).toMatch(/^\[output of Read masked: [\d,]+ tokens\]\n?$/);
    expect(results.slice(-3).every((x) => x.decision === 'kept')).toBe(true);
    for (const x of p.plan) if (x.itemType !== 'TOOL_RESULT') expect(x.decision).toBe('kept');
  });
});

describe('dedupe', () => {
  it('drops consecutive acknowledgements and merges a near-identical repeat into the later message', () => {
    const b = new ConversationBuilder().system('s').user('Hi, I am working on the signup form.').assistant('Hello! How can I help?');
    b.user('Please add input validation to the signup form so that empty emails are rejected with a clear message.');
    b.assistant('I will add validation.');
    b.user('ok').user('thanks');
    b.assistant('Validation added to src/signup.ts; empty emails now show "Email is required".');
    b.user('Please add input validation to the signup form so that empty emails are rejected with a clear error message.');
    b.assistant('It is already there, see src/signup.ts.');
    const conv = b.build('d');
    const { p } = decisionsOf(conv, 'dedupe', { ratio: 0.95 });
    const ok = p.plan.find((x) => messageText(conv.messages[x.index]!) === 'ok')!;
    expect(ok.decision).toBe('dropped');
    const first = p.plan.filter((x) => x.role === 'user')[1]!;
    expect(first.decision).toBe('dropped');
    expect(first.reason).toMatch(/merged into u\d+/);
    expect(p.plan.filter((x) => x.role === 'user').at(-1)!.decision).toBe('kept');
  });
});

describe('adaptive', () => {
  it('names the task type, its chain and the step that met the budget; escalates to emergency when nothing else fits', () => {
    const conv = longChat(40);
    const loose = planCompaction(conv, { counter, strategy: 'adaptive', ratio: 0.5 });
    expect(loose.plan[1]!.reason).toMatch(/\[adaptive (conversation|analysis|mixed|unknown|code): window → \S+ → \S+; \S+ met the budget\]/);
    const tight = planCompaction(conv, { counter, strategy: 'adaptive', ratio: 0.08 });
    const kept = tight.plan.filter((x) => x.decision === 'kept' && x.itemType !== 'SYSTEM_PROMPT');
    expect(kept.length).toBeLessThanOrEqual(3);
  });
  it('uses the room the chosen step leaves for the most recent turns, up to the target', () => {
    const conv = longChat(40);
    const window = planCompaction(conv, { counter, strategy: 'window', ratio: 0.6 });
    const adaptive = planCompaction(conv, { counter, strategy: 'adaptive', ratio: 0.6 });
    const keptOf = (p: typeof window) => p.plan.filter((x) => x.decision === 'kept').length;
    expect(keptOf(adaptive)).toBeGreaterThan(keptOf(window));
    expect(adaptive.tokensAfter).toBeLessThanOrEqual(adaptive.target * 1.1);
    expect(adaptive.plan.some((x) => x.reason.startsWith('recent, and the budget has room for it'))).toBe(true);
    // The kept part is a contiguous tail: nothing summarized after a kept turn.
    const lastSummarized = adaptive.plan.map((x) => x.decision).lastIndexOf('summarized');
    expect(adaptive.plan.slice(lastSummarized + 1).every((x) => x.decision === 'kept')).toBe(true);
  });
  it('honours a heavier level: heavy keeps 5 recent messages, emergency 3, without filling the room', () => {
    const conv = longChat(40);
    for (const [level, n] of [
      ['heavy', 5],
      ['emergency', 3],
    ] as const) {
      const p = planCompaction(conv, { counter, strategy: 'adaptive', level, ratio: 0.6 });
      expect(p.plan.filter((x) => x.decision === 'kept' && x.itemType !== 'SYSTEM_PROMPT')).toHaveLength(n);
      expect(p.plan[1]!.reason).toContain(`(${level})`);
    }
  });
  it('is the default strategy', () => {
    const conv = longChat(20);
    expect(planCompaction(conv, { counter }).strategy).toBe('adaptive');
  });
});

describe('truncation helpers', () => {
  it('caps a diff at 10% of the window by whole lines with a marker', () => {
    const diff = Array.from({ length: 400 }, (_, k) => `+ line ${k} of the change`).join('\n');
    const r = capDiff(diff, 10_000, counter);
    expect(counter.count(r.text)).toBeLessThanOrEqual(1_000 + 40);
    expect(r.text).toMatch(/\[… [\d,]+ more diff lines cut: a diff takes at most 10% of the context window\]$/);
    expect(r.text.startsWith('+ line 0 of the change\n+ line 1')).toBe(true);
  });
  it('cuts a long message at a sentence boundary', () => {
    const text = 'The first sentence is here. The second one follows it. '.repeat(50);
    const r = cutToTokens(text, 40, counter);
    expect(r.cut).toBe(true);
    expect(r.text).toMatch(/\. \[… [\d,]+ more characters\]$/);
    expect(counter.count(r.text)).toBeLessThanOrEqual(40);
  });
  it('cuts a tool output to the remaining budget, keeping its head and its tail', () => {
    const out = Array.from({ length: 300 }, (_, k) => `output line ${k}`).join('\n') + '\nERROR: final failure';
    const r = cutToolOutput(out, 200, counter);
    expect(counter.count(r.text)).toBeLessThanOrEqual(220);
    expect(r.text).toContain('output line 0');
    expect(r.text).toContain('ERROR: final failure');
    expect(r.text).toMatch(/\[… [\d,]+ lines of output cut to fit the budget\]/);
  });
});

describe('plainDecision', () => {
  it('gives the messages that share a decision and a reason one frozen object (a plan of 200,000 messages makes a handful)', () => {
    const a = plainDecision('summarized', 'older than the sliding window');
    expect(plainDecision('summarized', 'older than the sliding window')).toBe(a);
    expect(plainDecision('kept', 'older than the sliding window')).not.toBe(a);
    expect(plainDecision('summarized', 'recent round')).not.toBe(a);
    expect(a).toEqual({ decision: 'summarized', reason: 'older than the sliding window' });
    expect(Object.isFrozen(a)).toBe(true);
  });
});
