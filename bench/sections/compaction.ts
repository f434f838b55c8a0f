// Compaction speed (src/engine/compactor.ts): what "Compact Conversation" costs against one
// tokenization pass over the same conversation — the work the token meter already does — on
// the largest shared transcripts (each LongMemEval instance counts as one conversation). The
// goal: compaction within 2× one token count on the largest. Also the cost of planCompaction,
// the synchronous dry run behind the confirmation's "estimated after".
//
// Both sides start equally cold: a fresh message cache (a new CachedTokenCounter) and an empty
// piece memo (PieceCounter.clearMemo) before every run. Each repetition times the count and
// the compactions back to back and ratios are medians of the per-repetition ratios, so load
// from other processes on a shared machine moves both sides of a ratio together. A second compaction row starts from a
// counter that has already counted the conversation, as in the extension, where the meter has.
// Settings are COMPACTION_DEFAULTS (no budget, no ratio), as the command runs them; the
// archive is in memory, so its hashing is included and no disk time is.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { compactConversation, planCompaction } from '../../src/engine/compactor';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import type { Conversation } from '../../src/engine/conversation/model';
import { createPieceCounter, loadRankFile } from '../../src/engine/tokens/encoders';
import { CachedTokenCounter } from '../../src/engine/tokens/messageCounter';
import { resolveModel } from '../../src/engine/tokens/modelRegistry';
import { nodeSha256 } from '../../src/files/nodeSha256';
import { findTranscriptsDir, listTranscripts, utf8Length } from '../lib/corpus';
import { collectGarbage, formatCount, formatMs, formatRatio, median, summarize, type Measurement } from '../lib/measure';
import type { BenchGoal, BenchGroup, BenchRow, BenchSection } from '../lib/section';

/** How many of the largest conversations (by tokens) are timed. */
const LARGEST = 4;
/** Timed repetitions (medians are reported), after one untimed warm-up repetition. */
const REPS = 7;
/** The goal: compaction within this multiple of one token count, on the largest conversation. */
const GOAL_RATIO = 2;
/** A fixed clock for stats.timestamp. */
const FIXED_NOW = '2026-01-01T00:00:00.000Z';

interface Candidate {
  name: string;
  conv: Conversation;
  tokens: number;
  bytes: number;
}

function conversationBytes(conv: Conversation): number {
  let n = 0;
  for (const m of conv.messages) {
    for (const p of m.content) if (p.type !== 'image') n += utf8Length(p.text);
    for (const c of m.toolCalls ?? []) n += utf8Length(c.name) + utf8Length(c.arguments);
  }
  return n;
}

/** LongMemEval files hold a list of instances; every other transcript is one conversation. */
function instanceCount(rel: string, text: string): number {
  if (!rel.startsWith('longmemeval/')) return 1;
  const v: unknown = JSON.parse(text);
  return Array.isArray(v) ? v.length : 1;
}

function row(label: string, m: Measurement, ratio?: string, note?: string): BenchRow {
  const out: BenchRow = { label, median: formatMs(m.median), note: [`${m.samples.length} runs, min ${formatMs(m.min)}`, note].filter(Boolean).join('; ') };
  if (ratio) out.ratio = ratio;
  return out;
}

function phaseRow(label: string, ms: number, ratio: number, note: string): BenchRow {
  return { label, median: formatMs(ms), ratio: `${formatRatio(ratio)} the token count`, note: `median over the cold runs; ${note}` };
}

/** One pass of plain js-tiktoken over what the counter counts (text parts, tool call names
 *  and arguments): the reference tokenizer, for scale. */
function jsTiktokenPass(encode: (t: string) => number, conv: Conversation): number {
  let n = 0;
  for (const m of conv.messages) {
    for (const p of m.content) if (p.type !== 'image') n += encode(p.text);
    for (const c of m.toolCalls ?? []) n += encode(c.name) + encode(c.arguments);
  }
  return n;
}

export async function run(): Promise<BenchSection> {
  const model = resolveModel(undefined);
  if (model.encoding === 'estimate') throw new Error(`the default model ${model.id} has no exact encoding to time`);
  const piece = await createPieceCounter(model.encoding);
  const { Tiktoken } = await import('js-tiktoken/lite');
  const jsTiktoken = new Tiktoken(await loadRankFile(model.encoding));
  const jsEncode = (t: string) => jsTiktoken.encode(t, [], []).length;
  const fresh = () => new CachedTokenCounter(piece, model);

  const dir = findTranscriptsDir();
  const candidates: Candidate[] = [];
  for (const rel of listTranscripts(dir)) {
    const full = join(dir, rel);
    const text = readFileSync(full, 'utf8');
    for (let i = 0; i < instanceCount(rel, text); i++) {
      const conv = importTranscript(text, { sourcePath: full, wholeFile: true, ...(rel.startsWith('longmemeval/') ? { instance: i } : {}) }).conversation;
      const name = rel.startsWith('longmemeval/') ? `${rel}#${i}` : rel;
      candidates.push({ name, conv, tokens: fresh().countMessages(conv.messages), bytes: conversationBytes(conv) });
    }
  }
  const chosen = candidates.sort((a, b) => b.tokens - a.tokens || a.name.localeCompare(b.name)).slice(0, LARGEST);

  const groups: BenchGroup[] = [];
  const goals: BenchGoal[] = [];
  const notes: string[] = [];
  for (const [index, c] of chosen.entries()) {
    const messages = c.conv.messages;
    // The machine is shared: every repetition times all five runs back to back, and each ratio
    // is taken within its repetition (then the median), so a burst of load hits both sides.
    const samples = {
      coldCount: [] as number[],
      coldCompact: [] as number[],
      warmCount: [] as number[],
      warmCompact: [] as number[],
      plan: [] as number[],
      jsPass: [] as number[],
    };
    const ratios = { coldCompact: [] as number[], warmCount: [] as number[], warmCompact: [] as number[], plan: [] as number[], jsPass: [] as number[] };
    /** compactConversation (cold) over one js-tiktoken pass, per repetition. */
    const overJs: number[] = [];
    /** Phase boundaries of the cold compaction (onProgress): analyze → plan → archive → done. */
    const phaseRuns: Record<string, number>[] = [];
    const time = async (fn: () => unknown): Promise<number> => {
      const t0 = performance.now();
      await fn();
      return performance.now() - t0;
    };
    for (let rep = 0; rep < REPS + 1; rep++) {
      collectGarbage();
      piece.clearMemo();
      const coldCount = await time(() => fresh().countMessages(messages));
      const warmCount = await time(() => fresh().countMessages(messages));
      piece.clearMemo();
      const marks: Record<string, number> = {};
      const t0 = performance.now();
      const coldCompact = await time(() =>
        compactConversation(c.conv, {
          counter: fresh(),
          archive: new MemoryArchive(),
          hasher: nodeSha256,
          now: FIXED_NOW,
          onProgress: (p) => void (marks[p.phase] ??= performance.now() - t0),
        }),
      );
      const warm = fresh();
      warm.countMessages(messages);
      const warmCompact = await time(() => compactConversation(c.conv, { counter: warm, archive: new MemoryArchive(), hasher: nodeSha256, now: FIXED_NOW }));
      const plan = await time(() => planCompaction(c.conv, { counter: warm, now: FIXED_NOW }));
      const jsPass = await time(() => jsTiktokenPass(jsEncode, c.conv));
      if (rep === 0) continue; // warm-up: the JIT compiles what is timed
      phaseRuns.push(marks);
      overJs.push(coldCompact / jsPass);
      const got = { coldCount, coldCompact, warmCount, warmCompact, plan, jsPass };
      for (const k of Object.keys(samples) as (keyof typeof samples)[]) samples[k].push(got[k]);
      for (const k of Object.keys(ratios) as (keyof typeof ratios)[]) ratios[k].push(got[k] / coldCount);
    }
    const m = (k: keyof typeof samples): Measurement => summarize(samples[k]);
    const r = (k: keyof typeof ratios): number => median(ratios[k]);
    const phaseMs = (from: string, to: string) => median(phaseRuns.map((x) => (x[to] ?? Number.NaN) - (x[from] ?? Number.NaN)));
    const phaseRatio = (from: string, to: string) => median(phaseRuns.map((x, i) => ((x[to] ?? Number.NaN) - (x[from] ?? Number.NaN)) / samples.coldCount[i]!));

    const result = await compactConversation(c.conv, { counter: fresh(), archive: new MemoryArchive(), now: FIXED_NOW });
    const ratio = r('coldCompact');
    groups.push({
      title: `${c.name}: ${formatCount(c.tokens)} tokens, ${(c.bytes / 1e6).toFixed(2)} MB, ${formatCount(messages.length)} messages → ${formatCount(result.tokensAfter)} tokens`,
      rows: [
        row('token count, cold (baseline)', m('coldCount'), undefined, 'fresh message cache, empty piece memo'),
        row('compactConversation, cold', m('coldCompact'), `${formatRatio(ratio)} the token count`, 'fresh counter, empty piece memo'),
        row('token count, warm piece memo', m('warmCount'), `${formatRatio(r('warmCount'))} the cold count`, 'fresh message cache'),
        row(
          'compactConversation, counter already warm',
          m('warmCompact'),
          `${formatRatio(r('warmCompact'))} the token count`,
          'the meter has counted every message',
        ),
        row('planCompaction (confirmation estimate), warm', m('plan'), `${formatRatio(r('plan'))} the token count`, 'no archive write'),
        row(
          'one js-tiktoken pass, for scale',
          m('jsPass'),
          `${formatRatio(r('jsPass'))} the token count`,
          `encode(text, [], []) per part; the cold compaction is ${formatRatio(median(overJs))} this`,
        ),
        phaseRow('  of the cold compaction: analyze + count', phaseMs('analyze', 'plan'), phaseRatio('analyze', 'plan'), 'analyzeConversation, token counts'),
        phaseRow(
          '  of the cold compaction: plan, sections, validate',
          phaseMs('plan', 'archive'),
          phaseRatio('plan', 'archive'),
          'strategy, 8 builders, fitting, loss detector, ratio controller',
        ),
        phaseRow(
          '  of the cold compaction: archive + assemble',
          phaseMs('archive', 'done'),
          phaseRatio('archive', 'done'),
          'canonical JSON + SHA-256 of the original',
        ),
      ],
    });
    if (index === 0) {
      goals.push({
        goal: `compaction ≤ ${GOAL_RATIO}× one token count on the largest transcript`,
        met: ratio <= GOAL_RATIO,
        measured: `${formatRatio(ratio)} (median of per-repetition ratios; ${formatMs(m('coldCompact').median)} vs ${formatMs(m('coldCount').median)}, ${c.name})`,
      });
    }
  }
  notes.push(
    `${candidates.length} conversations considered, the ${chosen.length} largest by tokens timed; ${model.id} (${model.encoding}); COMPACTION_DEFAULTS; ${REPS} runs each after 1 warm-up`,
  );
  return { title: 'compaction (compactConversation and planCompaction vs one token count)', groups, goals, notes };
}
