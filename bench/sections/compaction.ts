// Compaction speed (src/engine/compactor.ts): what "Compact Conversation" costs against one
// tokenization pass over the same conversation — the work the token meter already does — on
// the largest shared transcripts (each LongMemEval instance counts as one conversation). The
// goal: compaction within 2× one token count on the largest. Also the cost of planCompaction,
// the synchronous dry run behind the confirmation's "estimated after".
//
// Both sides start equally cold: a fresh message cache (a new CachedTokenCounter) and an empty
// piece memo (PieceCounter.clearMemo) before every run. A second compaction row starts from a
// counter that has already counted the conversation, as in the extension, where the meter has.
// Settings are COMPACTION_DEFAULTS (no budget, no ratio), as the command runs them; the
// archive is in memory, so its hashing is included and no disk time is.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { compactConversation, planCompaction } from '../../src/engine/compactor';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import type { Conversation } from '../../src/engine/conversation/model';
import { createPieceCounter } from '../../src/engine/tokens/encoders';
import { CachedTokenCounter } from '../../src/engine/tokens/messageCounter';
import { resolveModel } from '../../src/engine/tokens/modelRegistry';
import { findTranscriptsDir, listTranscripts, utf8Length } from '../lib/corpus';
import { formatCount, formatMs, formatRatio, measure, median, type Measurement } from '../lib/measure';
import type { BenchGoal, BenchGroup, BenchRow, BenchSection } from '../lib/section';

/** How many of the largest conversations (by tokens) are timed. */
const LARGEST = 4;
/** Timed runs per measurement (the median is reported), after one warm-up run. */
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

function phaseRow(label: string, ms: number, countMs: number, note: string): BenchRow {
  return { label, median: formatMs(ms), ratio: `${formatRatio(ms / countMs)} the token count`, note: `median over the cold runs; ${note}` };
}

export async function run(): Promise<BenchSection> {
  const model = resolveModel(undefined);
  if (model.encoding === 'estimate') throw new Error(`the default model ${model.id} has no exact encoding to time`);
  const piece = await createPieceCounter(model.encoding);
  const fresh = () => new CachedTokenCounter(piece, model);

  const dir = findTranscriptsDir();
  const candidates: Candidate[] = [];
  for (const rel of listTranscripts(dir)) {
    const full = join(dir, rel);
    const text = readFileSync(full, 'utf8');
    for (let i = 0; i < instanceCount(rel, text); i++) {
      const conv = importTranscript(text, { sourcePath: full, ...(rel.startsWith('longmemeval/') ? { instance: i } : {}) }).conversation;
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
    const coldCount = await measure(() => fresh().countMessages(messages), { before: () => piece.clearMemo(), reps: REPS });
    // Phase boundaries from onProgress: analyze → plan (strategy, sections, validation) → archive → done.
    const phaseRuns: Record<string, number>[] = [];
    const coldCompact = await measure(
      () => {
        const t0 = performance.now();
        const marks: Record<string, number> = {};
        phaseRuns.push(marks);
        return compactConversation(c.conv, {
          counter: fresh(),
          archive: new MemoryArchive(),
          now: FIXED_NOW,
          onProgress: (p) => {
            marks[p.phase] ??= performance.now() - t0;
          },
        });
      },
      { before: () => piece.clearMemo(), reps: REPS },
    );
    const timed = phaseRuns.slice(-REPS);
    const phaseMs = (from: string, to: string) => median(timed.map((m) => (m[to] ?? Number.NaN) - (m[from] ?? Number.NaN)));
    let warm = fresh();
    const warmUp = () => {
      warm = fresh();
      warm.countMessages(messages);
    };
    const warmCompact = await measure(() => compactConversation(c.conv, { counter: warm, archive: new MemoryArchive(), now: FIXED_NOW }), { before: warmUp, reps: REPS });
    const warmCount = await measure(() => fresh().countMessages(messages), { reps: REPS });
    const plan = await measure(() => planCompaction(c.conv, { counter: warm, now: FIXED_NOW }), { before: warmUp, reps: REPS });

    const result = await compactConversation(c.conv, { counter: fresh(), archive: new MemoryArchive(), now: FIXED_NOW });
    const ratio = coldCompact.median / coldCount.median;
    groups.push({
      title: `${c.name}: ${formatCount(c.tokens)} tokens, ${(c.bytes / 1e6).toFixed(2)} MB, ${formatCount(messages.length)} messages → ${formatCount(result.tokensAfter)} tokens`,
      rows: [
        row('token count, cold (baseline)', coldCount, undefined, 'fresh message cache, empty piece memo'),
        row('compactConversation, cold', coldCompact, `${formatRatio(ratio)} the token count`, 'fresh counter, empty piece memo'),
        row('token count, warm piece memo', warmCount, `${formatRatio(warmCount.median / coldCount.median)} the cold count`, 'fresh message cache'),
        row('compactConversation, counter already warm', warmCompact, `${formatRatio(warmCompact.median / coldCount.median)} the token count`, 'the meter has counted every message'),
        row('planCompaction (confirmation estimate), warm', plan, `${formatRatio(plan.median / coldCount.median)} the token count`, 'no archive write'),
        phaseRow('  of the cold compaction: analyze + count', phaseMs('analyze', 'plan'), coldCount.median, 'analyzeConversation, token counts'),
        phaseRow('  of the cold compaction: plan, sections, validate', phaseMs('plan', 'archive'), coldCount.median, 'strategy, 8 builders, fitting, loss detector, ratio controller'),
        phaseRow('  of the cold compaction: archive + assemble', phaseMs('archive', 'done'), coldCount.median, 'canonical JSON + SHA-256 of the original'),
      ],
    });
    if (index === 0) {
      goals.push({
        goal: `compaction ≤ ${GOAL_RATIO}× one token count on the largest transcript`,
        met: ratio <= GOAL_RATIO,
        measured: `${formatRatio(ratio)} (${formatMs(coldCompact.median)} vs ${formatMs(coldCount.median)}, ${c.name})`,
      });
    }
  }
  notes.push(
    `${candidates.length} conversations considered, the ${chosen.length} largest by tokens timed; ${model.id} (${model.encoding}); COMPACTION_DEFAULTS; ${REPS} runs each after 1 warm-up`,
  );
  return { title: 'compaction (compactConversation and planCompaction vs one token count)', groups, goals, notes };
}
