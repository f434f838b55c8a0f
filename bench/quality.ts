// `npm run bench:quality`: how much of what matters survives compaction at ratio 0.1, on every
// shared public transcript (each LongMemEval instance as its own conversation — all of them: the
// file holds three), for the engine and for two naive baselines on the same token budget.
//
// What is expected comes from the RAW files (bench/quality/rawFacts.ts: the benchmark's own JSON
// walks and regexes, never the importers' output or src/engine/analyze), so the benchmark can
// disagree with the engine. What counts as retained is looked for in the WHOLE output — the
// exported Markdown of the result conversation, summary and kept messages alike:
//
//   user request  its first 80 characters, whitespace-normalized, appear (case-insensitive)
//   file path     "parent/basename" appears (basename alone for a bare name)
//   error         its signature "Type: first 40 chars of the message" appears (a Claude Code
//                 result flagged is_error with no typed line: its first 40 characters, without
//                 the printing program's "rm: " prefix)
//   answer        ≥ 75% of its key terms (names, numbers, rare words of the LongMemEval answer
//                 that occur in the conversation) appear as whole words; answers are paraphrases,
//                 so their full text is rarely in the conversation at all
//
// Baselines (bench/quality/baselines.ts) get the tokens the engine's default strategy actually
// used (never less than the target), so a result over its target is not an unfair advantage:
//   truncation     the most recent whole messages that fit
//   first+recent   the first user message, then the most recent whole messages that fit
//
// Then, for the first strategy, per conversation and in total: the size of the output against
// its target (at the ratio, and at the emergency level with a budget of 10% and 5% of the
// original), the share of "fixed" claims backed by evidence and the share of Pending Tasks
// still open at the end of the conversation (bench/quality/precision.ts).
//
// Then the summary contract (bench/quality/contract.ts): all eight headings in every summary, three
// chained compactions keeping what the first kept, no standing rule cut, the ledger's rules and
// plan statuses carried, no untrue claim — on the shared transcripts and on agent sessions the
// bench writes itself (bench/quality/agentStories.ts: a Codex IDE rollout, a Claude Code session
// and a Cline task per story, read back by the bench's own agentFacts.ts).
//
// Then the meter against what the API counted (bench/quality/meter.ts): on every transcript that
// records the usage of its requests, our count of the file (the meter before it used the agents'
// records) and the meter as it is (the previous reported figure plus what came after it), each set
// against the figure the API reported for the next request.
//
// Options:
//   --ratio R          target size as a share of the original (default 0.1)
//   --strategy NAME    a strategy column (repeatable; default: every listStrategies() entry)
//   --lost N           print up to N lost facts per conversation and kind for the first strategy
//   --only TEXT        only transcripts whose path contains TEXT
//   --dump DIR         write each output (engine per strategy, baselines) as Markdown into DIR

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryArchive } from '../src/engine/archive/memoryArchive';
import { compactConversation, summaryTextOf } from '../src/engine/compactor';
import { exportMarkdown } from '../src/engine/conversation/exporters/markdown';
import { importTranscript } from '../src/engine/conversation/importers/detect';
import type { Conversation } from '../src/engine/conversation/model';
import { listStrategies } from '../src/engine/strategies/registry';
import { createTokenCounter, type CachedTokenCounter } from '../src/engine/tokens/messageCounter';
import { findTranscriptsDir, listTranscripts } from './lib/corpus';
import { BASELINES, baselineConversation } from './quality/baselines';
import { meterFixtures, meterRow, meterTable, METER_HEADER, type MeterRow } from './quality/meter';
import { expectedFacts, expectedFactsOfText, type BenchFormat, type ExpectedFacts } from './quality/rawFacts';
import { agentFiles } from './quality/agentFiles';
import { story } from './quality/agentStories';
import { chainOutputs } from './quality/chains';
import { EMERGENCY_SHARES, sizeTable, sizeVerdicts, table } from './quality/sizeTable';
import { CONTRACT_HEADER, contractRow, contractVerdicts, tally, type ContractRun } from './quality/contract';
import { scorePrecision, type PrecisionScore } from './quality/precision';
import { FACT_KINDS, FACT_LABELS, indexOutput, scoreFacts, type FactKind, type KindScore } from './quality/retention';

/** The ratio the targets are stated at. */
const DEFAULT_RATIO = 0.1;
/** Targets at ratio 0.1 (the issue): shares retained by the default strategy, and for answers
 *  a multiple of what truncation keeps. */
const TARGETS: Record<FactKind, { share?: number; timesTruncation?: number }> = {
  userRequests: { share: 0.97 },
  files: { share: 0.97 },
  errors: { share: 0.9 },
  answers: { timesTruncation: 3 },
};
/** A fixed clock: the stats timestamp does not matter here, and runs stay comparable. */
const FIXED_NOW = '2026-01-01T00:00:00.000Z';

interface Options {
  ratio: number;
  strategies: string[];
  lost: number;
  only: string | undefined;
  dump: string | undefined;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Options {
  const known = listStrategies().map((s) => s.name);
  const opts: Options = { ratio: DEFAULT_RATIO, strategies: [], lost: 0, only: undefined, dump: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a}: expected a value`);
      return v;
    };
    if (a === '--ratio') {
      opts.ratio = Number(value());
      if (!(opts.ratio > 0 && opts.ratio <= 1)) throw new UsageError(`--ratio: expected a number in (0, 1], got ${argv[i]}`);
    } else if (a === '--strategy') {
      const s = value();
      if (!known.includes(s)) throw new UsageError(`--strategy: unknown strategy '${s}'; expected one of: ${known.join(', ')}`);
      opts.strategies.push(s);
    } else if (a === '--lost') {
      opts.lost = Number(value());
      if (!Number.isInteger(opts.lost) || opts.lost < 0) throw new UsageError(`--lost: expected a whole number, got ${argv[i]}`);
    } else if (a === '--only') {
      opts.only = value();
    } else if (a === '--dump') {
      opts.dump = value();
    } else {
      throw new UsageError(`unknown option ${a}; expected --ratio R, --strategy NAME, --lost N, --only TEXT, --dump DIR`);
    }
  }
  if (opts.strategies.length === 0) opts.strategies = known;
  return opts;
}

type Scores = Record<FactKind, KindScore>;

/** Strategies that threw, printed after the table. */
const failures: string[] = [];

interface ConversationRun {
  facts: ExpectedFacts;
  tokensBefore: number;
  target: number;
  /** Result tokens per strategy. */
  after: Record<string, number>;
  baselineBudget: number;
  /** Scores per column (strategy names, then baselines). */
  scores: Record<string, Scores>;
  /** The first strategy's summary against the original (precision.ts). */
  precision: PrecisionScore;
  /** The first strategy at the emergency level, per budget share: tokens after and the target. */
  emergency: { share: number; after: number; target: number }[];
  /** The summary contract's reading of the first strategy's outputs and chain. */
  contract: ContractRun;
}

/** The output as scored; with --dump, also written to DIR/<conversation>.<column>.md. */
function output(facts: ExpectedFacts, column: string, markdown: string, opts: Options): string {
  if (opts.dump) {
    mkdirSync(opts.dump, { recursive: true });
    writeFileSync(join(opts.dump, `${facts.name}.${column.replace(/[^\w-]+/g, '_')}.md`), markdown);
  }
  return markdown;
}

async function runConversation(facts: ExpectedFacts, text: string, fullPath: string, opts: Options, counter: CachedTokenCounter): Promise<ConversationRun> {
  const outputs: string[] = [];
  const imported = importTranscript(text, { sourcePath: fullPath, wholeFile: true, ...(facts.instance !== undefined ? { instance: facts.instance } : {}) });
  const conv: Conversation = imported.conversation;
  const scores: Record<string, Scores> = {};
  const after: Record<string, number> = {};
  let precision = scorePrecision(conv, undefined);
  let tokensBefore = 0;
  let target = 0;
  for (const strategy of opts.strategies) {
    let result;
    try {
      result = await compactConversation(conv, { counter, archive: new MemoryArchive(), ratio: opts.ratio, strategy, now: FIXED_NOW });
    } catch (e) {
      // One failing strategy must not hide the others: it scores nothing on this conversation.
      failures.push(`${strategy} failed on ${facts.name}: ${e instanceof Error ? e.message : String(e)}`);
      after[strategy] = Number.NaN;
      scores[strategy] = scoreFacts(facts, indexOutput(''));
      continue;
    }
    tokensBefore = result.tokensBefore;
    target = result.target ?? Math.round(opts.ratio * result.tokensBefore);
    after[strategy] = result.tokensAfter;
    if (strategy === opts.strategies[0]) precision = scorePrecision(conv, summaryTextOf(result.conversation));
    const md = output(facts, strategy, exportMarkdown(result.conversation), opts);
    if (strategy === opts.strategies[0]) outputs.push(md);
    scores[strategy] = scoreFacts(facts, indexOutput(md));
  }
  if (!tokensBefore) tokensBefore = counter.countMessages(conv.messages);
  if (!target) target = Math.round(opts.ratio * tokensBefore);
  const firstAfter = after[opts.strategies[0]!] ?? 0;
  const baselineBudget = Math.max(target, Number.isNaN(firstAfter) ? 0 : firstAfter);
  for (const b of BASELINES) {
    scores[b] = scoreFacts(facts, indexOutput(output(facts, b, exportMarkdown(baselineConversation(conv, b, baselineBudget, counter)), opts)));
  }
  const emergency: ConversationRun['emergency'] = [];
  for (const share of EMERGENCY_SHARES) {
    const budget = Math.max(1, Math.round(share * tokensBefore));
    try {
      const r = await compactConversation(conv, {
        counter,
        archive: new MemoryArchive(),
        budget,
        level: 'emergency',
        strategy: opts.strategies[0],
        now: FIXED_NOW,
      });
      emergency.push({ share, after: r.tokensAfter, target: r.target ?? budget });
      outputs.push(exportMarkdown(r.conversation));
    } catch (e) {
      failures.push(`${opts.strategies[0]} at the emergency level failed on ${facts.name}: ${e instanceof Error ? e.message : String(e)}`);
      emergency.push({ share, after: Number.NaN, target: budget });
    }
  }
  const chain = await chainOutputs(conv, opts.ratio, opts.strategies[0]!, counter, FIXED_NOW).catch((e: unknown) => {
    failures.push(`${opts.strategies[0]} failed on a chain of ${facts.name}: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  });
  const contract: ContractRun = {
    facts,
    outputs,
    chain,
    declined: /doesn't want to proceed with this tool use|denied this operation|rejected by user/.test(text),
    otherSessionTitles: facts.format === 'claude-code' && text.includes('"type":"summary"'),
  };
  return { facts, tokensBefore, target, after, baselineBudget, scores, precision, emergency, contract };
}

/** The agent sessions the bench writes (agentStories.ts): three stories, each as each agent's file. */
function agentSources(): { rel: string; text: string; format: BenchFormat }[] {
  return agentFiles([story('team-settings', 11, 14), story('invoices-windows', 23, 18, true), story('member-sync', 37, 26)]);
}

// ── Tables ────────────────────────────────────────────────────────────────────────────────

function pct(s: KindScore | undefined): string {
  if (!s || s.expected === 0) return '—';
  return `${((100 * s.retained) / s.expected).toFixed(1)}%`;
}

function share(s: KindScore): number {
  return s.expected ? s.retained / s.expected : Number.NaN;
}

function times(a: KindScore, b: KindScore): string {
  if (a.expected === 0) return '—';
  const x = share(a);
  const y = share(b);
  if (y === 0) return x === 0 ? '1.00×' : '∞';
  return `${(x / y).toFixed(2)}×`;
}

function sum(runs: readonly ConversationRun[], column: string, kind: FactKind): KindScore {
  const out: KindScore = { expected: 0, retained: 0, lost: [] };
  for (const r of runs) {
    const s = r.scores[column]![kind];
    out.expected += s.expected;
    out.retained += s.retained;
  }
  return out;
}

function groupRows(label: string, runs: readonly ConversationRun[], columns: readonly string[], first: string): string[][] {
  const rows: string[][] = [];
  for (const kind of FACT_KINDS) {
    const base = sum(runs, first, kind);
    if (base.expected === 0) continue;
    const cells = columns.map((c) => pct(sum(runs, c, kind)));
    rows.push([
      rows.length === 0 ? label : '',
      FACT_LABELS[kind],
      String(base.expected),
      ...cells,
      times(base, sum(runs, 'truncation', kind)),
      times(base, sum(runs, 'first+recent', kind)),
    ]);
  }
  return rows;
}

function targetVerdicts(runs: readonly ConversationRun[], strategy: string): string[] {
  const out: string[] = [];
  for (const kind of FACT_KINDS) {
    const s = sum(runs, strategy, kind);
    if (s.expected === 0) continue;
    const t = TARGETS[kind];
    if (t.share !== undefined) {
      const met = share(s) >= t.share;
      out.push(`  ${met ? 'met    ' : 'NOT MET'}  ${FACT_LABELS[kind]} ≥ ${(100 * t.share).toFixed(0)}%: ${pct(s)} (${s.retained}/${s.expected})`);
    } else if (t.timesTruncation !== undefined) {
      const trunc = sum(runs, 'truncation', kind);
      const ratio = share(trunc) === 0 ? (share(s) > 0 ? Infinity : 0) : share(s) / share(trunc);
      out.push(
        `  ${ratio >= t.timesTruncation ? 'met    ' : 'NOT MET'}  ${FACT_LABELS[kind]} ≥ ${t.timesTruncation}× truncation: ${times(s, trunc)} (${pct(s)} vs ${pct(trunc)})`,
      );
    }
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  let opts: Options;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`bench:quality: ${e.message}`);
      return 64;
    }
    throw e;
  }
  const dir = findTranscriptsDir();
  const files = listTranscripts(dir).filter((f) => !opts.only || f.includes(opts.only));
  const counter = await createTokenCounter();
  console.log(`bench:quality — ratio ${opts.ratio}, model ${counter.model.id}, strategies: ${opts.strategies.join(', ')}; transcripts from ${dir}`);
  const runs: ConversationRun[] = [];
  const first = opts.strategies[0]!;
  const sources = [
    ...files.map((rel) => ({ rel, full: join(dir, rel), text: readFileSync(join(dir, rel), 'utf8'), facts: expectedFacts(join(dir, rel), rel) })),
    ...agentSources()
      .filter((a) => !opts.only || a.rel.includes(opts.only))
      .map((a) => ({ rel: a.rel, full: a.rel, text: a.text, facts: expectedFactsOfText(a.text, a.rel, a.format) })),
  ];
  for (const { full, text, facts: all } of sources) {
    for (const facts of all) {
      const run = await runConversation(facts, text, full, opts, counter);
      runs.push(run);
      const afters = opts.strategies.map((s) => `${s} ${run.after[s]}`).join(', ');
      console.log(`  ${facts.name}: ${run.tokensBefore} tokens → target ${run.target}; ${afters}; baselines ${run.baselineBudget}`);
      if (opts.lost > 0) {
        for (const c of run.precision.unbacked.slice(0, opts.lost)) console.log(`      fixed without evidence: ${JSON.stringify(c.slice(0, 140))}`);
        for (const c of run.precision.notOpen.slice(0, opts.lost)) console.log(`      pending, not open: ${JSON.stringify(c.slice(0, 140))}`);
        for (const kind of FACT_KINDS) {
          const lost = run.scores[first]![kind].lost;
          for (const l of lost.slice(0, opts.lost)) console.log(`      lost ${FACT_LABELS[kind]}: ${JSON.stringify(l.replace(/\s+/g, ' ').slice(0, 140))}`);
          if (lost.length > opts.lost) console.log(`      … ${lost.length - opts.lost} more lost ${FACT_LABELS[kind]}`);
        }
      }
    }
  }
  const columns = [...opts.strategies, ...BASELINES];
  const header = ['format', 'facts', 'n', ...columns, `${first}/trunc`, `${first}/first+recent`];
  const formats = [...new Set(runs.map((r) => r.facts.format))];
  const rows: string[][] = [];
  for (const f of formats) {
    const group = runs.filter((r) => r.facts.format === f);
    rows.push(...groupRows(`${f} (${group.length})`, group, columns, first));
  }
  rows.push(...groupRows(`overall (${runs.length})`, runs, columns, first));
  console.log(`\nretention at ratio ${opts.ratio} (share of expected facts found in the whole output)\n`);
  console.log(table(header, rows));
  if (failures.length) console.log(`\nfailures (scored as nothing retained):\n${failures.map((f) => `  ${f}`).join('\n')}`);
  console.log(
    `\nsize and precision (${first}): tokens after / target at ratio ${opts.ratio} and at the emergency level; "fixed" claims backed by evidence; Pending Tasks still open at the end\n`,
  );
  console.log(sizeTable(runs, first));
  for (const s of opts.strategies) {
    console.log(`\ntargets (${s}, over all conversations)`);
    console.log(targetVerdicts(runs, s).join('\n'));
    if (s === first) console.log(sizeVerdicts(runs, first, opts.ratio).join('\n'));
  }
  contractSection(runs, formats, first, opts);
  await meterSection(dir, files);
  return 0;
}

/** The summary contract (contract.ts), per format and overall, and its targets. */
function contractSection(runs: readonly ConversationRun[], formats: readonly string[], first: string, opts: Options): void {
  const rows = formats.map((f) => {
    const group = runs.filter((r) => r.facts.format === f);
    return contractRow(`${f} (${group.length})`, tally(group.map((r) => r.contract)));
  });
  const all = tally(runs.map((r) => r.contract));
  rows.push(contractRow(`overall (${runs.length})`, all));
  console.log(`\nthe summary contract (${first}; at ratio ${opts.ratio} and the emergency level, and ${'three'} chained compactions)\n`);
  console.log(table(CONTRACT_HEADER, rows));
  if (opts.lost > 0) for (const x of [...all.cutExamples, ...all.untrue].slice(0, opts.lost * 3)) console.log(`      ${x}`);
  console.log(`\ntargets (${first}, the summary contract)`);
  console.log(contractVerdicts(all).join('\n'));
}

/** The meter's error against the usage the agents recorded, before and after using it. */
async function meterSection(dir: string, files: readonly string[]): Promise<void> {
  const counters = new Map<string, Promise<CachedTokenCounter>>();
  const counterFor = (model: string | undefined) => {
    const k = model ?? '';
    if (!counters.has(k)) counters.set(k, createTokenCounter(model));
    return counters.get(k)!;
  };
  const rows: MeterRow[] = [];
  const sources = [...files.map((rel) => ({ name: rel, path: join(dir, rel) })), ...meterFixtures(join(__dirname, '..', '..'))];
  for (const { name, path } of sources) {
    const row = await meterRow(name, path, counterFor).catch(() => undefined);
    if (row) rows.push(row);
  }
  console.log('\nthe meter against what the API counted (each request from the one before; the last one shown)\n');
  console.log(table(METER_HEADER, meterTable(rows)));
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`bench:quality: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
