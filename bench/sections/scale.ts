// Scale: how count, compact and plan grow with the conversation, and what a growing live session
// costs. Every figure is measured in a fresh process (bench/lib/scaleChildren.ts), so each has
// its own clean peak RSS, reading its file through the CLI's own reader:
//   - a real transcript (the largest shared aider history) repeated 1×, 4× and 16×;
//   - 20,000 and 200,000 generated short messages, and 200,000 messages of two more shapes:
//     requests that each name an item and a file, and tool-call rounds (bench/lib/scaleInputs.ts);
//   - a 50 MB aider history and a 50 MB Claude Code session made by repetition (fresh uuids);
//   - the live case: a Claude Code session of about a million tokens, one message appended, the
//     meter updated (LiveSessionMeter reading the appended bytes; the TokenLedger on its own) and
//     the compaction planned again with the warm cache, against a cold plan.
// The baseline of every ratio is one token count of the same conversation by the project's
// counter, in the same process (a fresh message cache and an empty piece memo, as the meter's
// first count). The growth exponent between two sizes is log(t₂/t₁) / log(n₂/n₁): 1 is linear.
// Peak RSS is the whole process's; the notes also give it above the process before the file was
// read (the code and the rank tables, about 85 MB).

import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChild } from '../lib/child';
import { findTranscriptsDir, listTranscripts } from '../lib/corpus';
import { formatCount, formatMs, formatRatio, median } from '../lib/measure';
import { itemFileMessagesJson, shortMessagesJson, toolRoundsJson, writeRepeated } from '../lib/scaleInputs';
import { scaleChildren, type LiveFigures, type Measured, type Op } from '../lib/scaleChildren';
import type { BenchGoal, BenchGroup, BenchRow, BenchSection } from '../lib/section';

const SECTION = 'scale';
/** Fresh processes per figure for the smaller inputs (the median is reported). */
const REPS = 3;
/** The live session's size, in tokens. */
const LIVE_TOKENS = 1_000_000;
/** The large files for the memory target. */
const LARGE_BYTES = 50 * 1000 * 1000;
/** Messages of each generated conversation the time and memory goals are stated for. */
const GENERATED = 200_000;
/** How long one child may run: the 200,000-message compaction took minutes before this work. */
const CHILD_TIMEOUT_MS = 15 * 60 * 1000;

const GOALS = {
  compactOverCount: 3,
  growth: 1.1,
  generatedMs: 10_000,
  rssOverFile: 8,
  rssFileMinBytes: 10 * 1000 * 1000,
  meterMs: 5,
  replanShare: 0.05,
};

export const child = scaleChildren;

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const exponent = (a: number, b: number, na: number, nb: number) => Math.log(b / a) / Math.log(nb / na);

interface Input {
  label: string;
  file: string;
  /** A shared real transcript (repeated), or a generated conversation. */
  real: boolean;
  /** Relative size (copies, or messages) for growth exponents. */
  size: number;
  reps: number;
  ops: Op[];
}

interface InputResult {
  input: Input;
  /** Per op, the runs. */
  runs: Partial<Record<Op, Measured[]>>;
  error?: string;
}

function med(runs: readonly Measured[] | undefined, pick: (m: Measured) => number): number {
  return runs && runs.length > 0 ? median(runs.map(pick)) : Number.NaN;
}

function measureInput(input: Input): InputResult {
  const out: InputResult = { input, runs: {} };
  try {
    for (const op of input.ops) {
      const runs: Measured[] = [];
      for (let r = 0; r < input.reps; r++) runs.push(runChild<Measured>(SECTION, 'measure', [input.file, op], CHILD_TIMEOUT_MS));
      out.runs[op] = runs;
    }
  } catch (e) {
    out.error = e instanceof Error ? e.message : String(e);
  }
  return out;
}

/** Peak RSS above the process's RSS before the file was read (the rank tables, the code). */
const rssGrowth = (m: Measured) => m.peakRss - m.rssBefore;

function inputRows(r: InputResult): BenchRow[] {
  const rows: BenchRow[] = [];
  const any = Object.values(r.runs).find((x) => x && x.length > 0)?.[0];
  if (r.error) rows.push({ label: 'failed', median: 'n/a', note: r.error.slice(0, 300) });
  if (!any) return rows;
  const count = r.runs.count;
  const baseline = med(r.runs.compact ?? count, (m) => m.countMs);
  rows.push({
    label: 'one token count (baseline)',
    median: formatMs(baseline),
    note: `${formatCount(any.tokens)} tokens, ${formatCount(any.messages)} messages, file ${mb(any.fileBytes)}; import ${formatMs(med(count ?? r.runs.compact, (m) => m.importMs))}`,
  });
  for (const op of ['count', 'compact', 'plan'] as Op[]) {
    const runs = r.runs[op];
    if (!runs) continue;
    const t = med(runs, (m) => m.opMs);
    const ratio = median(runs.map((m) => m.opMs / m.countMs));
    const rss = med(runs, (m) => m.peakRss);
    rows.push({
      label: op === 'count' ? 'count (import + count), peak RSS' : op === 'compact' ? 'compactConversation' : 'planCompaction',
      median: op === 'count' ? mb(rss) : formatMs(t),
      ...(op !== 'count' ? { ratio: `${formatRatio(ratio)} the count` } : {}),
      note: `${runs.length} run${runs.length === 1 ? '' : 's'}; peak RSS ${mb(rss)} (${formatRatio(rss / any.fileBytes)} the file; ${mb(med(runs, rssGrowth))} above the idle process)`,
    });
  }
  return rows;
}

export async function run(): Promise<BenchSection> {
  const dir = findTranscriptsDir();
  const tmp = mkdtempSync(join(tmpdir(), 'ctxc-bench-scale-'));
  try {
    const aiderFiles = listTranscripts(dir).filter((f) => f.startsWith('aider/'));
    const claudeFiles = listTranscripts(dir).filter((f) => f.startsWith('claude-code/'));
    const largest = (files: string[]) => files.map((f) => join(dir, f)).sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
    const aider = largest(aiderFiles);
    const claude = largest(claudeFiles);
    const at = (name: string) => join(tmp, name);

    const inputs: Input[] = [];
    for (const copies of [1, 4, 16]) {
      const file = at(`real-${copies}x.aider.chat.history.md`);
      writeRepeated(aider, file, { copies });
      inputs.push({ label: `${aider.split('/').pop()} ×${copies}`, file, real: true, size: copies, reps: REPS, ops: ['count', 'compact', 'plan'] });
    }
    for (const n of [20_000, GENERATED]) {
      const file = at(`short-${n}.json`);
      writeFileSync(file, shortMessagesJson(n));
      inputs.push({ label: `${formatCount(n)} short messages`, file, real: false, size: n, reps: n < GENERATED ? REPS : 1, ops: ['count', 'compact', 'plan'] });
    }
    // Two more shapes, so that the goals hold for more than one generator.
    const shapes: [label: string, make: (n: number) => string][] = [
      ['requests naming an item and a file', itemFileMessagesJson],
      ['tool-call rounds', toolRoundsJson],
    ];
    for (const [label, make] of shapes) {
      const file = at(`${label.replace(/\W+/g, '-')}.json`);
      writeFileSync(file, make(GENERATED));
      inputs.push({ label: `${formatCount(GENERATED)} messages: ${label}`, file, real: false, size: GENERATED, reps: 1, ops: ['count', 'compact'] });
    }
    const bigAider = at('large.aider.chat.history.md');
    writeRepeated(aider, bigAider, { minBytes: LARGE_BYTES });
    inputs.push({ label: `aider history of ${mb(statSync(bigAider).size)}`, file: bigAider, real: true, size: 1, reps: 1, ops: ['count', 'compact'] });
    const bigClaude = at('large-claude-code.jsonl');
    writeRepeated(claude, bigClaude, { minBytes: LARGE_BYTES });
    inputs.push({ label: `Claude Code session of ${mb(statSync(bigClaude).size)}`, file: bigClaude, real: true, size: 1, reps: 1, ops: ['count', 'compact'] });

    const results = inputs.map(measureInput);
    const groups: BenchGroup[] = results.map((r) => ({ title: r.input.label, rows: inputRows(r) }));
    const goals: BenchGoal[] = [];
    const notes: string[] = [];

    // ≤ 3× one token count, on the real transcripts (the generated ones have a time goal).
    for (const r of results) {
      const c = r.runs.compact;
      if (!c || !r.input.real) continue;
      const ratio = median(c.map((m) => m.opMs / m.countMs));
      goals.push({
        goal: `compaction ≤ ${GOALS.compactOverCount}× one token count: ${r.input.label}`,
        met: ratio <= GOALS.compactOverCount,
        measured: `${formatRatio(ratio)} (${formatMs(med(c, (m) => m.opMs))} vs the count's ${formatMs(med(c, (m) => m.countMs))})`,
      });
    }
    // Growth between the 4× and 16× copies, and between 20,000 and 200,000 messages.
    const growthRows: BenchRow[] = [];
    const pairs: [Input, Input][] = [
      [inputs[1]!, inputs[2]!],
      [inputs[3]!, inputs[4]!],
    ];
    for (const [a, b] of pairs) {
      const ra = results.find((r) => r.input === a)!.runs;
      const rb = results.find((r) => r.input === b)!.runs;
      for (const op of ['count', 'compact', 'plan'] as Op[]) {
        if (!ra[op] || !rb[op]) continue;
        const time = exponent(
          med(ra[op], (m) => m.opMs),
          med(rb[op], (m) => m.opMs),
          a.size,
          b.size,
        );
        const mem = exponent(med(ra[op], rssGrowth), med(rb[op], rssGrowth), a.size, b.size);
        const base = exponent(
          med(ra[op], (m) => m.countMs),
          med(rb[op], (m) => m.countMs),
          a.size,
          b.size,
        );
        growthRows.push({
          label: `${op}: ${a.label} → ${b.label}`,
          median: `time ${time.toFixed(2)}`,
          ratio: `memory ${mem.toFixed(2)}`,
          note: `the token count's own time exponent: ${base.toFixed(2)}`,
        });
        if (op === 'compact' && a === inputs[1]) {
          goals.push({
            goal: `growth exponent of compact time ≤ ${GOALS.growth} (×4 → ×16)`,
            met: time <= GOALS.growth,
            measured: `${time.toFixed(2)} (the token count's: ${base.toFixed(2)})`,
          });
          goals.push({
            goal: `growth exponent of compact memory ≤ ${GOALS.growth} (×4 → ×16)`,
            met: mem <= GOALS.growth,
            measured: `${mem.toFixed(2)} (peak RSS above the idle process)`,
          });
        }
      }
    }
    groups.push({ title: 'growth exponents, log(t₂/t₁) / log(n₂/n₁) (1 = linear)', rows: growthRows });
    // Every generated conversation of 200,000 messages, whatever its shape.
    for (const r of results) {
      const c = r.runs.compact;
      if (!c || r.input.real || r.input.size !== GENERATED) continue;
      const t = med(c, (m) => m.opMs);
      goals.push({
        goal: `${r.input.label}: compacted in under ${GOALS.generatedMs / 1000} s`,
        met: t < GOALS.generatedMs,
        measured: `${formatMs(t)} (one token count: ${formatMs(med(c, (m) => m.countMs))})`,
      });
    }
    for (const r of results) {
      const c = r.runs.compact ?? r.runs.count;
      if (!c || c[0]!.fileBytes <= GOALS.rssFileMinBytes) continue;
      for (const op of ['count', 'compact'] as Op[]) {
        const runs = r.runs[op];
        if (!runs) continue;
        const rss = med(runs, (m) => m.peakRss);
        goals.push({
          goal: `peak RSS ≤ ${GOALS.rssOverFile}× the file (${op}): ${r.input.label}`,
          met: rss <= GOALS.rssOverFile * runs[0]!.fileBytes,
          measured: `${mb(rss)}, ${formatRatio(rss / runs[0]!.fileBytes)} the file of ${mb(runs[0]!.fileBytes)} (${formatRatio(med(runs, rssGrowth) / runs[0]!.fileBytes)} above the idle process)`,
        });
      }
    }

    // The live case.
    const live = at('live-session.jsonl');
    const probe = at('probe.jsonl');
    writeRepeated(claude, probe, { copies: 1 });
    const perCopy = runChild<Measured>(SECTION, 'measure', [probe, 'count'], CHILD_TIMEOUT_MS).tokens;
    writeRepeated(claude, live, { copies: Math.max(1, Math.ceil(LIVE_TOKENS / perCopy)) });
    try {
      const f = runChild<LiveFigures>(SECTION, 'live', [live], CHILD_TIMEOUT_MS);
      const meter = median(f.meterAppendMs);
      const ledger = median(f.ledgerAppendMs);
      const warm = median(f.warmPlanMs);
      groups.push({
        title: `live session: ${formatCount(f.tokens)} tokens, ${formatCount(f.messages)} messages, ${mb(f.fileBytes)} of Claude Code JSONL; one message appended`,
        rows: [
          { label: 'one token count (baseline)', median: formatMs(f.countMs), note: 'fresh message cache, empty piece memo' },
          {
            label: 'meter, first read of the file',
            median: formatMs(f.meterColdMs),
            ratio: `${formatRatio(f.meterColdMs / f.countMs)} the count`,
            note: 'LiveSessionMeter.update(): read, import, count',
          },
          {
            label: 'meter after one appended line',
            median: formatMs(meter),
            ratio: `${formatRatio(meter / f.countMs)} the count`,
            note: `LiveSessionMeter.update(); median of ${f.meterAppendMs.length}`,
          },
          {
            label: 'TokenLedger.append of one message',
            median: formatMs(ledger),
            ratio: `${formatRatio(ledger / f.countMs)} the count`,
            note: `median of ${f.ledgerAppendMs.length}`,
          },
          {
            label: 'planCompaction, cold',
            median: formatMs(f.coldPlanMs),
            ratio: `${formatRatio(f.coldPlanMs / f.countMs)} the count`,
            note: 'fresh counter and cache, empty piece memo',
          },
          {
            label: 'planCompaction after one appended message',
            median: formatMs(warm),
            ratio: `${(100 * (warm / f.coldPlanMs)).toFixed(1)}% of the cold plan`,
            note: `the cache of the plans before; median of ${f.warmPlanMs.length}`,
          },
        ],
      });
      goals.push({
        goal: `meter ≤ ${GOALS.meterMs} ms after one appended message (1M-token session)`,
        met: meter <= GOALS.meterMs,
        measured: `LiveSessionMeter ${formatMs(meter)}, TokenLedger ${formatMs(ledger)} (one token count: ${formatMs(f.countMs)})`,
      });
      goals.push({
        goal: `re-plan ≤ ${GOALS.replanShare * 100}% of a cold plan after one appended message`,
        met: warm <= GOALS.replanShare * f.coldPlanMs,
        measured: `${formatMs(warm)}, ${(100 * (warm / f.coldPlanMs)).toFixed(1)}% of ${formatMs(f.coldPlanMs)} (one token count: ${formatMs(f.countMs)})`,
      });
    } catch (e) {
      groups.push({ title: 'live session', rows: [{ label: 'failed', median: 'n/a', note: e instanceof Error ? e.message.slice(0, 300) : String(e) }] });
    }
    notes.push(
      `every figure from its own process (peak RSS = the process's maxRSS); ${REPS} processes per figure for the smaller inputs, 1 for the 200,000 messages and the large files; the real transcript is ${aider.split('/').pop()}`,
    );
    return { title: 'scale (count, compact and plan as the conversation grows; the live session)', groups, goals, notes };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
