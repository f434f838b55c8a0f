// The compactor on small hand-made conversations: what is kept, what is summarized, the budget,
// undo, cancellation, inspector edits, re-compaction and LLM summaries held to the facts.

import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import {
  COMPACTION_DEFAULTS,
  CompactionInputError,
  compactConversation,
  planCompaction,
  summaryTextOf,
  undoCompaction,
  type CompactOptions,
} from '../../../src/engine/compactor';
import { CompactionCache } from '../../../src/engine/compaction/cache';
import { validateApiShape } from '../../../src/engine/conversation/apiShape';
import { messageText, type Conversation } from '../../../src/engine/conversation/model';
import { PerformanceMonitor } from '../../../src/engine/performanceMonitor';
import { SECTION_NAMES } from '../../../src/engine/sections';
import { parseSummary } from '../../../src/engine/segments/parseSummary';
import type { Summarizer } from '../../../src/engine/summarizer';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import type { CachedTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { ConversationBuilder, codingSession } from '../../helpers/compactorFixtures';
import { warningText } from '../../../src/engine/warnings';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await createTokenCounter('gpt-4o');
});

const NOW = '2025-01-01T00:00:00.000Z';
// These tests describe the compactor around the 'summary' strategy (recent rounds kept, the
// rest summarized); the default strategy ('adaptive') is tested in strategies.test.ts.
function opts(extra: Partial<CompactOptions> = {}): CompactOptions {
  return { counter, archive: new MemoryArchive(), now: NOW, strategy: 'summary', ...extra };
}

/** A longer session: rounds with tool work, a pinned note and a system prompt. */
function longSession(rounds = 6, outputLines = 20): Conversation {
  const b = new ConversationBuilder().system('You are a careful agent.');
  for (let r = 0; r < rounds; r++) {
    b.user(`Round ${r}: update src/part${r}.ts so that the parser handles case ${r}.${r === 1 ? ' <pin>Never touch the public API.</pin>' : ''}`);
    b.thinking(`I should look at src/part${r}.ts first.`);
    b.tool('Read', { file_path: `src/part${r}.ts` }, `export const part${r} = ${r};\n`.repeat(outputLines));
    b.tool('Edit', { file_path: `src/part${r}.ts`, old_string: `${r}`, new_string: `${r + 1}` }, 'ok');
    b.assistant(`Updated src/part${r}.ts to handle case ${r}.`);
  }
  return b.build('long');
}

describe('what is kept and what is summarized', () => {
  it('keeps the system prompt, pinned messages and the last two rounds verbatim; one summary with all eight headings', async () => {
    const conv = longSession();
    const r = await compactConversation(conv, opts({ budget: 100_000 }));
    const out = r.conversation.messages;
    expect(out[0]).toBe(conv.messages[0]);
    const summaries = out.filter((m) => m.itemType === 'COMPACTION_SUMMARY');
    expect(summaries).toHaveLength(1);
    const md = messageText(summaries[0]!);
    for (const name of SECTION_NAMES) expect(md).toContain(`\n## ${name}\n`);
    expect(md).toContain('## Compression Metadata');
    const pinned = conv.messages.find((m) => messageText(m).includes('<pin>'))!;
    expect(out).toContain(pinned);
    const lastRounds = conv.messages.slice(conv.messages.findIndex((m) => messageText(m).startsWith('Round 4')));
    // Verbatim, except that a tool output's 20 identical lines collapse to one line and a count
    // (recorded on the message; the archive keeps the original).
    const tail = out.slice(out.length - lastRounds.length);
    expect(tail.map((m) => m.id)).toEqual(lastRounds.map((m) => m.id));
    tail.forEach((m, k) => {
      if (m.truncation?.by === 'collapse') expect(messageText(m)).toContain('… 19 more identical lines');
      else expect(m).toEqual(lastRounds[k]);
    });
    expect(tail.filter((m) => m.truncation?.by === 'collapse')).toHaveLength(2);
    expect(validateApiShape(out).ok).toBe(true);
    const plan = new Map(r.plan.map((p) => [p.id, p]));
    expect(plan.get(pinned.id)!.decision).toBe('kept');
    expect(plan.get(pinned.id)!.reason).toBe('pinned');
    expect(plan.get(conv.messages[2]!.id)!.decision).toBe('summarized');
    expect(r.stats.summarized_count).toBe(r.plan.filter((p) => p.decision === 'summarized').length);
    expect(r.stats.system_prompt_preserved).toBe(true);
    expect(r.stats.ratio).toMatch(/^\d+\.\dx$/);
    expect(r.stats.timestamp).toBe(NOW);
    expect(r.conversation.meta.compactions).toBe(1);
    expect(r.compactionCount).toBe(1);
  });

  it('never mutates the input', async () => {
    const conv = longSession();
    const before = JSON.stringify(conv);
    await compactConversation(conv, opts({ ratio: 0.2 }));
    expect(JSON.stringify(conv)).toBe(before);
  });

  it('keeps fewer whole rounds when two do not fit, and says so', async () => {
    const conv = longSession();
    const full = counter.countMessages(conv.messages);
    const r = await compactConversation(conv, opts({ budget: Math.floor(full * 0.35) }));
    expect(r.warnings.map(warningText).join('\n')).toMatch(
      /kept the last 1 round instead of 2|kept the latest request and only the last \d+ messages of the most recent round/,
    );
    expect(validateApiShape(r.conversation.messages).ok).toBe(true);
  });

  it('never splits the last round from its request: the request stays verbatim, then the last tool blocks with their thinking', async () => {
    const b = new ConversationBuilder().user('Do the whole migration.');
    for (let i = 0; i < 30; i++) {
      b.thinking(`Step ${i}: next I migrate table t${i}.`);
      b.tool('Bash', { command: `migrate t${i}` }, `migrated t${i}\n`.repeat(30));
    }
    const conv = b.build();
    const r = await compactConversation(conv, opts({ ratio: 0.2 }));
    const out = r.conversation.messages;
    expect(validateApiShape(out).ok).toBe(true);
    const kept = out.filter((m) => m.itemType !== 'COMPACTION_SUMMARY');
    expect(kept[0]).toBe(conv.messages[0]);
    expect(kept[1]!.itemType).toBe('THINKING');
    expect(r.warnings.map(warningText).join('\n')).toMatch(
      /kept the latest request and only the last \d+ messages of the most recent round: the round takes [\d,]+ tokens/,
    );
    expect(r.tokensAfter).toBeLessThanOrEqual(Math.round(counter.countMessages(conv.messages) * 0.2 * 1.1));
  });

  it('respects the budget within 10% when it is achievable', async () => {
    const conv = longSession(12, 80);
    const full = counter.countMessages(conv.messages);
    let checked = 0;
    for (const ratio of [0.15, 0.3, 0.5]) {
      const r = await compactConversation(conv, opts({ ratio }));
      expect(r.target).toBe(Math.round(full * ratio));
      if (r.minimumTokens! <= r.target!) {
        checked++;
        expect(r.tokensAfter).toBeLessThanOrEqual(Math.ceil(r.target! * 1.1));
      } else {
        expect(r.warnings.map(warningText).join('\n')).toMatch(/over the target|would not make/);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(2);
  });

  it('compacts nothing when everything is recent, and says so', async () => {
    const conv = new ConversationBuilder().user('hi').assistant('hello').user('how are you').assistant('fine').build();
    const r = await compactConversation(conv, opts({ budget: 10_000 }));
    expect(r.conversation.messages).toEqual(conv.messages);
    // A code with its figures; the words are made where it is shown.
    expect(r.warnings).toEqual([{ code: 'nothingToCompact' }]);
    expect(r.warnings.map(warningText).join('\n')).toMatch(/nothing to compact/);
    expect(r.compactionCount).toBe(0);
  });

  it('leaves a conversation alone when a summary would be larger than what it replaces', async () => {
    const conv = new ConversationBuilder().user('hi').assistant('hello').user('and?').assistant('yes').user('ok').assistant('bye').build();
    const r = await compactConversation(conv, opts({ keepRecentRounds: 1 }));
    expect(r.conversation.messages).toEqual(conv.messages);
    expect(r.tokensAfter).toBe(r.tokensBefore);
    expect(r.warnings[0]).toEqual({ code: 'notSmaller', after: expect.any(Number), before: r.tokensBefore });
    expect(r.warnings.map(warningText).join('\n')).toMatch(/would not make this conversation smaller/);
    expect(r.plan.every((p) => p.decision === 'kept')).toBe(true);
  });
});

describe('plan, undo and cancel', () => {
  it('planCompaction predicts exactly what compactConversation produces, without writing the archive', async () => {
    const conv = longSession();
    const archive = new MemoryArchive();
    const preview = planCompaction(conv, { counter, ratio: 0.25, now: NOW, strategy: 'summary' });
    expect(archive.size).toBe(0);
    const r = await compactConversation(conv, opts({ archive, ratio: 0.25 }));
    expect(r.tokensAfter).toBe(preview.tokensAfter);
    expect(r.plan).toEqual(preview.plan);
    expect(r.summary.sections).toEqual(preview.summary.sections);
    expect(archive.size).toBe(1);
  });

  it('undo restores the original byte for byte', async () => {
    const conv = longSession();
    const archive = new MemoryArchive();
    const r = await compactConversation(conv, opts({ archive, ratio: 0.25 }));
    const back = await undoCompaction(r.archiveId, archive);
    expect(JSON.stringify(back)).toBe(JSON.stringify(conv));
    expect(r.conversation.messages.find((m) => m.itemType === 'COMPACTION_SUMMARY')!.source?.extra?.archiveId).toBe(r.archiveId);
  });

  it('rejects with an AbortError and writes nothing when cancelled', async () => {
    const conv = longSession();
    const archive = new MemoryArchive();
    const ctl = new AbortController();
    ctl.abort();
    await expect(compactConversation(conv, opts({ archive, signal: ctl.signal }))).rejects.toMatchObject({ name: 'AbortError' });
    expect(archive.size).toBe(0);
    const ctl2 = new AbortController();
    const phases: string[] = [];
    const p = compactConversation(
      conv,
      opts({
        archive,
        signal: ctl2.signal,
        onProgress: (x) => {
          phases.push(x.phase);
          if (x.phase === 'plan') ctl2.abort();
        },
      }),
    );
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(archive.size).toBe(0);
    expect(phases).toContain('plan');
  });

  it('reports each phase once and in order, the plan when the analysis is done, also for a plan its cache kept', async () => {
    const conv = longSession();
    const cache = new CompactionCache();
    const run = async () => {
      const phases: string[] = [];
      await compactConversation(conv, opts({ cache, onProgress: (x) => void phases.push(x.phase) }));
      return phases;
    };
    expect(await run()).toEqual(['analyze', 'plan', 'archive', 'assemble', 'done']);
    expect(await run()).toEqual(['analyze', 'plan', 'archive', 'assemble', 'done']);
    expect(cache.stats.reusedPlans).toBe(1);
  });

  it('is deterministic: the same input and settings give the same bytes', async () => {
    const a = await compactConversation(longSession(), opts({ ratio: 0.3 }));
    const b = await compactConversation(longSession(), opts({ ratio: 0.3 }));
    expect(JSON.stringify(a.conversation)).toBe(JSON.stringify(b.conversation));
    expect(JSON.stringify(a.stats)).toBe(JSON.stringify(b.stats));
  });

  it('names bad input precisely', async () => {
    const conv = longSession();
    await expect(compactConversation(conv, opts({ ratio: 1.5 }))).rejects.toThrow(/ratio: expected a number in \(0, 1\]/);
    await expect(compactConversation(conv, opts({ ratio: 0.5, budget: 10 }))).rejects.toThrow(CompactionInputError);
    await expect(compactConversation(conv, opts({ keepRecentRounds: -1 }))).rejects.toThrow(/keepRecentRounds/);
    const broken = { ...conv, messages: [conv.messages[0]!, { ...conv.messages[1]!, content: 'text' as never }] };
    await expect(compactConversation(broken, opts())).rejects.toThrow('conversation.messages[1] (id u2): expected content to be an array of parts');
    await expect(compactConversation(conv, opts({ strategy: 'nope' }))).rejects.toThrow(/unknown strategy 'nope'/);
  });

  it('records each compaction in the performance monitor', async () => {
    const monitor = new PerformanceMonitor();
    let t = 0;
    await compactConversation(longSession(), opts({ ratio: 0.3, monitor, clock: () => (t += 5) }));
    const m = monitor.metrics();
    expect(m.totalCompressions).toBe(1);
    expect(m.avgCompressionTimeMs).toBe(5);
    expect(m.avgCompressionRatio).toBeGreaterThan(0);
    expect(m.avgCompressionRatio).toBeLessThan(1);
  });
});

describe('inspector edits', () => {
  it('uses edited section text, keeps restored messages verbatim, honours pin and unpin', async () => {
    const conv = longSession();
    const restoredId = conv.messages[3]!.id; // a tool call in round 0: its block comes along
    const pinnedNote = conv.messages.find((m) => messageText(m).includes('<pin>'))!;
    const r = await compactConversation(
      conv,
      opts({
        ratio: 0.3,
        edits: { sections: { 'Problem Solving': '- We chose the simple parser.' }, restore: [restoredId], unpin: [pinnedNote.id], pin: [conv.messages[1]!.id] },
      }),
    );
    const md = summaryTextOf(r.conversation)!;
    expect(parseSummary(md).sections['Problem Solving']).toBe('- We chose the simple parser.');
    const ids = r.conversation.messages.map((m) => m.id);
    expect(ids).toContain(restoredId);
    expect(ids).toContain(conv.messages[4]!.id); // the result of the restored call
    expect(ids).toContain(conv.messages[1]!.id);
    expect(r.plan.find((p) => p.id === pinnedNote.id)!.decision).toBe('summarized');
    expect(validateApiShape(r.conversation.messages).ok).toBe(true);
  });
});

describe('re-compaction', () => {
  it('merges section by section: all user messages only grow, files keep their latest state, the count goes up', async () => {
    let conv = longSession();
    const firstUsers = conv.messages.filter((m) => m.itemType === 'USER_MESSAGE').map((m) => messageText(m).slice(0, 60));
    const r1 = await compactConversation(conv, opts({ ratio: 0.3 }));
    conv = r1.conversation;
    const b = new ConversationBuilder();
    b.user('Round 6: now delete src/part0.ts, it is obsolete.');
    b.tool('Bash', { command: 'rm src/part0.ts' }, '');
    b.assistant('Deleted.');
    b.user('Round 7: run the tests.');
    b.tool('Bash', { command: 'npm test' }, 'ok');
    b.user('Round 8: done for today.');
    conv = {
      ...conv,
      messages: [
        ...conv.messages,
        ...b.messages.map((m) => ({
          ...m,
          id: `n-${m.id}`,
          ...(m.toolCalls ? { toolCalls: m.toolCalls.map((c) => ({ ...c, id: `n-${c.id}` })) } : {}),
          ...(m.toolResult ? { toolResult: { ...m.toolResult, toolCallId: `n-${m.toolResult.toolCallId}` } } : {}),
        })),
      ],
    };
    // A target the merged required content fits: a tighter one escalates to the emergency level,
    // whose cut may leave entries out (reported, see segmentsDegrade.test.ts).
    const r2 = await compactConversation(conv, opts({ ratio: 0.8 }));
    expect(r2.compactionCount).toBe(2);
    expect(r2.conversation.meta.compactions).toBe(2);
    const md = summaryTextOf(r2.conversation)!;
    expect(md.match(/## Primary Request and Intent/g)).toHaveLength(1);
    const users = parseSummary(md).sections['All user messages'];
    const whole = r2.conversation.messages.map((m) => messageText(m)).join('\n');
    for (const u of firstUsers) expect(whole).toContain(u);
    expect(users).toContain('Round 6: now delete src/part0.ts');
    const files = parseSummary(md).sections['Files and Code Sections'];
    expect(files.match(/`src\/part0\.ts`/g)).toHaveLength(1);
    expect(files).toMatch(/`src\/part0\.ts` — deleted/);
    expect(validateApiShape(r2.conversation.messages).ok).toBe(true);
  });

  it('warns after five compactions that quality may degrade', async () => {
    let conv = longSession();
    let last;
    for (let i = 0; i < 6; i++) {
      last = await compactConversation(conv, opts({ keepRecentRounds: 1 }));
      const n = i + 10;
      conv = {
        ...last.conversation,
        messages: [
          ...last.conversation.messages,
          { id: `x${n}`, role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text: `More work ${n}` }] },
          { id: `y${n}`, role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: [{ type: 'text', text: 'ok' }] },
        ],
      };
    }
    expect(last!.compactionCount).toBe(6);
    expect(last!.warnings.map(warningText).join('\n')).toMatch(/compacted 6 times; summary quality may degrade/);
  });
});

describe('LLM summaries', () => {
  const dropping: Summarizer = {
    name: 'fake-llm',
    model: 'fake-1',
    async summarize(req) {
      const sections = { ...req.extractive };
      sections['All user messages'] = '- (the user asked for several things)';
      sections['Files and Code Sections'] = '';
      return { sections, durationMs: 7, usage: { inputTokens: 100, outputTokens: 20 } };
    },
  };

  it('merges back the facts an LLM dropped and reports them', async () => {
    const conv = codingSession(200);
    const r = await compactConversation(conv, opts({ summarizer: dropping, keepRecentRounds: 1 }));
    expect(r.summarizer).toMatchObject({ name: 'fake-llm', model: 'fake-1', inputTokens: 100, outputTokens: 20 });
    const md = summaryTextOf(r.conversation)!;
    expect(md).toContain('Please fix the failing login test in src/auth/login.ts.');
    expect(parseSummary(md).sections['Files and Code Sections']).toContain('`src/auth/login.ts`');
    expect(r.loss.mergedBack.map((f) => f.kind)).toEqual(expect.arrayContaining(['userMessage', 'filePath']));
    expect(r.loss.retentionByKind.userMessage).toBe(1);
  });

  it('falls back to the extractive summary when the LLM fails, and says why', async () => {
    const failing: Summarizer = {
      name: 'broken',
      async summarize() {
        throw new Error('HTTP 500');
      },
    };
    const r = await compactConversation(codingSession(200), opts({ summarizer: failing, keepRecentRounds: 1 }));
    expect(r.summarizer.name).toBe('extractive');
    expect(r.summarizer.fallbackReason).toMatch(/HTTP 500/);
    expect(r.warnings.map(warningText).join('\n')).toMatch(/broken summarizer failed/);
  });

  it('rejects with an AbortError when cancelled during the LLM call, writing nothing', async () => {
    const ctl = new AbortController();
    const slow: Summarizer = {
      name: 'slow',
      async summarize() {
        ctl.abort();
        const e = new Error('aborted');
        e.name = 'AbortError';
        throw e;
      },
    };
    const archive = new MemoryArchive();
    await expect(compactConversation(codingSession(200), opts({ archive, summarizer: slow, signal: ctl.signal, keepRecentRounds: 1 }))).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(archive.size).toBe(0);
  });
});

describe('defaults', () => {
  it('exports one defaults object the CLI and the extension share', () => {
    expect(COMPACTION_DEFAULTS).toMatchObject({ keepRecentRounds: 2, strategy: 'adaptive', level: 'normal' });
    expect(COMPACTION_DEFAULTS.summaryMaxTokens).toBeGreaterThanOrEqual(2000);
    expect(COMPACTION_DEFAULTS.summaryMaxTokens).toBeLessThanOrEqual(4000);
  });
});
