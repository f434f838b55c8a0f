// Scale: how count, compact and plan grow with the conversation, and what a growing live session
// costs. Every figure is measured in a fresh process (bench/lib/child.ts), so each has its own
// clean peak RSS, reading its file through the CLI's own reader:
//   - a real transcript (the largest shared aider history) repeated 1×, 4× and 16×;
//   - 20,000 and 200,000 generated short messages;
//   - a 50 MB aider history and a 50 MB Claude Code session made by repetition (fresh uuids);
//   - the live case: a Claude Code session of about a million tokens, one message appended, the
//     meter updated (LiveSessionMeter reading the appended bytes; the TokenLedger on its own) and
//     the compaction planned again with the warm cache, against a cold plan.
// The baseline of every ratio is one token count of the same conversation by the project's
// counter, in the same process (a fresh message cache and an empty piece memo, as the meter's
// first count). The growth exponent between two sizes is log(t₂/t₁) / log(n₂/n₁): 1 is linear.

import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTranscript } from '../../src/cli/readTranscript';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { CompactionCache } from '../../src/engine/compaction/cache';
import { compactConversation, planCompaction, type PlanOptions } from '../../src/engine/compactor';
import type { Conversation, Message } from '../../src/engine/conversation/model';
import { createPieceCounter } from '../../src/engine/tokens/encoders';
import { estimateCounter } from '../../src/engine/tokens/estimate';
import { TokenLedger } from '../../src/engine/tokens/ledger';
import { CachedTokenCounter } from '../../src/engine/tokens/messageCounter';
import { resolveModel } from '../../src/engine/tokens/modelRegistry';
import type { TextCounter } from '../../src/engine/tokens/tokenCounter';
import type { FoundSession } from '../../src/sessions/agentSession';
import { LiveSessionMeter } from '../../src/sessions/liveSessionMeter';
import { SessionCatalog } from '../../src/sessions/sessionCatalog';
import { runChild } from '../lib/child';
import { findTranscriptsDir, listTranscripts } from '../lib/corpus';
import { formatCount, formatMs, formatRatio, median } from '../lib/measure';
import { claudeUserLine, lastChainUuid, shortMessagesJson, writeRepeated } from '../lib/scaleInputs';
import type { BenchGoal, BenchGroup, BenchRow, BenchSection } from '../lib/section';

const SECTION = 'scale';
/** Fresh processes per figure for the smaller inputs (the median is reported). */
const REPS = 3;
const FIXED_NOW = '2026-01-01T00:00:00.000Z';
/** The live session's size, in tokens. */
const LIVE_TOKENS = 1_000_000;
/** Messages appended one at a time in the live case (the median is reported). */
const LIVE_APPENDS = 5;
/** The large files for the memory target. */
const LARGE_BYTES = 50 * 1000 * 1000;
/** How long one child may run: the 200,000-message compaction took minutes before this work. */
const CHILD_TIMEOUT_MS = 15 * 60 * 1000;

const GOALS = {
  compactOverCount: 3,
  growth: 1.1,
  shortMessagesMs: 10_000,
  rssOverFile: 8,
  rssFileMinBytes: 10 * 1000 * 1000,
  meterMs: 5,
  replanShare: 0.05,
};

type Op = 'count' | 'compact' | 'plan';

interface Measured {
  fileBytes: number;
  messages: number;
  tokens: number;
  importMs: number;
  /** One token count, cold: the baseline. */
  countMs: number;
  /** The operation measured (for `count`, the count itself). */
  opMs: number;
  /** Peak resident set of the whole process, and its RSS before the file was read. */
  peakRss: number;
  rssBefore: number;
}

function ms(t0: number): number {
  return performance.now() - t0;
}

/** A counter factory whose piece memo can be emptied, for the model the conversation names. */
async function counters(conv: Conversation): Promise<{ fresh: () => CachedTokenCounter; clear: () => void }> {
  const model = resolveModel(conv.meta.model);
  const piece = model.encoding === 'estimate' ? undefined : await createPieceCounter(model.encoding);
  const text: TextCounter = piece ?? estimateCounter;
  return { fresh: () => new CachedTokenCounter(text, model), clear: () => piece?.clearMemo() };
}

/** In a fresh process: read FILE as the CLI does, count it once (the baseline), then run OP. */
async function measureChild([file, op]: string[]): Promise<Measured> {
  // Load the default encoding first, so the RSS before reading holds the rank tables.
  await createPieceCounter(resolveModel(undefined).encoding as 'o200k_base');
  const rssBefore = process.memoryUsage().rss;
  let t0 = performance.now();
  const loaded = await loadTranscript(file!, { maxBytes: 256 * 1024 * 1024 });
  const importMs = ms(t0);
  const conv = loaded.conversation;
  const { fresh, clear } = await counters(conv);
  clear();
  t0 = performance.now();
  const tokens = fresh().countMessages(conv.messages);
  const countMs = ms(t0);
  let opMs = countMs;
  if (op === 'compact') {
    clear();
    t0 = performance.now();
    await compactConversation(conv, { counter: fresh(), archive: new MemoryArchive(), now: FIXED_NOW });
    opMs = ms(t0);
  } else if (op === 'plan') {
    clear();
    t0 = performance.now();
    planCompaction(conv, { counter: fresh(), now: FIXED_NOW });
    opMs = ms(t0);
  }
  return {
    fileBytes: loaded.bytes,
    messages: conv.messages.length,
    tokens,
    importMs,
    countMs,
    opMs,
    peakRss: process.resourceUsage().maxRSS * 1024,
    rssBefore,
  };
}

interface LiveFigures {
  tokens: number;
  messages: number;
  fileBytes: number;
  /** The meter's first read of the whole file. */
  meterColdMs: number;
  /** LiveSessionMeter.update() after one appended line, each time. */
  meterAppendMs: number[];
  /** TokenLedger.append of one message. */
  ledgerAppendMs: number[];
  countMs: number;
  coldPlanMs: number;
  /** planCompaction after one appended message, with the cache of the plans before. */
  warmPlanMs: number[];
}

function appended(k: number): Message {
  return {
    id: `bench-append-${k}`,
    role: 'user',
    itemType: 'USER_MESSAGE',
    content: [{ type: 'text', text: `Please also check item ${k} of the list and tell me what changed since the last run.` }],
  };
}

/** In a fresh process: the live case on the session FILE (a Claude Code JSONL it appends to). */
async function liveChild([file]: string[]): Promise<LiveFigures> {
  const st = statSync(file!);
  const found: FoundSession = { agent: 'claude-code', id: 'bench-live', file: file!, size: st.size, mtimeMs: st.mtimeMs, format: 'claude-code' };
  const catalog = new SessionCatalog();
  const meter = new LiveSessionMeter(found, catalog.counterFor);
  let t0 = performance.now();
  const first = await meter.update();
  const meterColdMs = ms(t0);
  let parent = lastChainUuid(file!);
  const meterAppendMs: number[] = [];
  let tokens = first.session.tokens;
  for (let k = 0; k < LIVE_APPENDS; k++) {
    const { line, uuid } = claudeUserLine(parent, `Please also check item ${k} of the list and tell me what changed since the last run.`);
    appendFileSync(file!, `${line}\n`);
    parent = uuid;
    t0 = performance.now();
    const u = await meter.update();
    meterAppendMs.push(ms(t0));
    if (!u.changed || u.session.tokens <= tokens) throw new Error(`live meter: the appended line did not change the count (${tokens} → ${u.session.tokens})`);
    tokens = u.session.tokens;
  }

  const conv = (await loadTranscript(file!, { maxBytes: 256 * 1024 * 1024 })).conversation;
  const { fresh, clear } = await counters(conv);
  clear();
  t0 = performance.now();
  fresh().countMessages(conv.messages);
  const countMs = ms(t0);

  const ledger = new TokenLedger(fresh(), conv.messages);
  const ledgerAppendMs: number[] = [];
  for (let k = 0; k < LIVE_APPENDS; k++) {
    t0 = performance.now();
    ledger.append(appended(k));
    ledgerAppendMs.push(ms(t0));
  }

  clear();
  t0 = performance.now();
  planCompaction(conv, { counter: fresh(), cache: new CompactionCache(), now: FIXED_NOW } as PlanOptions);
  const coldPlanMs = ms(t0);

  const counter = fresh();
  const cache = new CompactionCache();
  const opts = { counter, cache, now: FIXED_NOW } as PlanOptions;
  planCompaction(conv, opts);
  let current = conv;
  const warmPlanMs: number[] = [];
  for (let k = 0; k < LIVE_APPENDS; k++) {
    current = { ...current, messages: [...current.messages, appended(k)] };
    t0 = performance.now();
    planCompaction(current, opts);
    warmPlanMs.push(ms(t0));
  }
  return {
    tokens,
    messages: conv.messages.length,
    fileBytes: statSync(file!).size,
    meterColdMs,
    meterAppendMs,
    ledgerAppendMs,
    countMs,
    coldPlanMs,
    warmPlanMs,
  };
}

export const child = { measure: measureChild, live: liveChild };

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const exponent = (a: number, b: number, na: number, nb: number) => Math.log(b / a) / Math.log(nb / na);

interface Input {
  label: string;
  file: string;
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
      inputs.push({ label: `${aider.split('/').pop()} ×${copies}`, file, size: copies, reps: REPS, ops: ['count', 'compact', 'plan'] });
    }
    for (const n of [20_000, 200_000]) {
      const file = at(`short-${n}.json`);
      writeFileSync(file, shortMessagesJson(n));
      inputs.push({ label: `${formatCount(n)} short messages`, file, size: n, reps: n > 20_000 ? 1 : REPS, ops: ['count', 'compact', 'plan'] });
    }
    const bigAider = at('large.aider.chat.history.md');
    writeRepeated(aider, bigAider, { minBytes: LARGE_BYTES });
    inputs.push({ label: `aider history of ${mb(statSync(bigAider).size)}`, file: bigAider, size: 1, reps: 1, ops: ['count', 'compact'] });
    const bigClaude = at('large-claude-code.jsonl');
    writeRepeated(claude, bigClaude, { minBytes: LARGE_BYTES });
    inputs.push({ label: `Claude Code session of ${mb(statSync(bigClaude).size)}`, file: bigClaude, size: 1, reps: 1, ops: ['count', 'compact'] });

    const results = inputs.map(measureInput);
    const groups: BenchGroup[] = results.map((r) => ({ title: r.input.label, rows: inputRows(r) }));
    const goals: BenchGoal[] = [];
    const notes: string[] = [];

    // ≤ 3× one token count, for every input.
    for (const r of results) {
      const c = r.runs.compact;
      if (!c) continue;
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
    const short = results.find((r) => r.input === inputs[4]);
    if (short?.runs.compact) {
      const t = med(short.runs.compact, (m) => m.opMs);
      goals.push({
        goal: `200,000 short messages compacted in under ${GOALS.shortMessagesMs / 1000} s`,
        met: t < GOALS.shortMessagesMs,
        measured: `${formatMs(t)} (one token count: ${formatMs(med(short.runs.compact, (m) => m.countMs))})`,
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
          measured: `${mb(rss)}, ${formatRatio(rss / runs[0]!.fileBytes)} the file of ${mb(runs[0]!.fileBytes)}`,
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
