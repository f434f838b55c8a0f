// Token counting speed: our memoized per-piece BPE against raw js-tiktoken and gpt-tokenizer
// on the same text in the same run — (a) throughput on a ~2 MB mixed corpus, (b) cold start
// to the first count, (c) recounting after one appended 1 KB message vs a full recount of a
// 200k-token conversation. Counts are checked to be identical while they are timed.

import type { Message } from '../../src/engine/conversation/model';
import { createPieceCounter, loadEncoding, loadRankFile } from '../../src/engine/tokens/encoders';
import { TokenLedger } from '../../src/engine/tokens/ledger';
import { CachedTokenCounter } from '../../src/engine/tokens/messageCounter';
import { resolveModel } from '../../src/engine/tokens/modelRegistry';
import { tokenReport } from '../../src/engine/tokens/report';
import type { EncodingName } from '../../src/engine/tokens/tokenCounter';
import { runChild } from '../lib/child';
import { findTranscriptsDir, mixedCorpus, utf8Length } from '../lib/corpus';
import { formatCount, formatMBps, formatMs, formatRatio, measure, megabytesPerSecond, speedup, summarize, type Measurement } from '../lib/measure';
import type { BenchGoal, BenchRow, BenchSection } from '../lib/section';

/** The corpus size TOKENS.md measured with. */
const CORPUS_BYTES = 2_000_000;
/** The conversation the append is measured against. */
const CONVERSATION_TOKENS = 200_000;
/** The appended message. */
const APPEND_BYTES = 1_024;
/** Fresh processes per cold-start figure (each takes up to ~1.5 s for js-tiktoken o200k). */
const COLD_START_RUNS = 3;
/** Goals from the issue. */
const THROUGHPUT_GOAL = 1.0;
const APPEND_GOAL = 100;

const SECTION = 'tokens';

type Implementation = 'ours' | 'js-tiktoken' | 'gpt-tokenizer';

interface GptTokenizer {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
  clearMergeCache(): void;
}

/** Special-token strings count as ordinary text everywhere (TOKENS.md). */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

async function loadGptTokenizer(encoding: EncodingName): Promise<GptTokenizer> {
  switch (encoding) {
    case 'o200k_base':
      return await import('gpt-tokenizer/encoding/o200k_base');
    case 'cl100k_base':
      return await import('gpt-tokenizer/encoding/cl100k_base');
  }
}

async function loadJsTiktoken(encoding: EncodingName) {
  const { Tiktoken } = await import('js-tiktoken/lite');
  return new Tiktoken(await loadRankFile(encoding));
}

const FIRST_TEXT =
  'Please compact this conversation. The failing test is test/ledger.test.ts:42 — ' +
  'TypeError: Cannot read properties of undefined (reading "length"). 请先看看这个错误。\n' +
  'function count(text: string): number {\n  return encode(text, [], []).length;\n}\n';

/** Runs in a fresh process: milliseconds from nothing loaded to the first count done. */
async function coldStart([impl, encoding]: string[]): Promise<{ ms: number; tokens: number }> {
  const enc = encoding as EncodingName;
  const t0 = performance.now();
  let tokens: number;
  if (impl === 'ours') tokens = (await loadEncoding(enc)).count(FIRST_TEXT);
  else if (impl === 'js-tiktoken') tokens = (await loadJsTiktoken(enc)).encode(FIRST_TEXT, [], []).length;
  else if (impl === 'gpt-tokenizer') tokens = (await loadGptTokenizer(enc)).countTokens(FIRST_TEXT, AS_TEXT);
  else throw new Error(`cold start: unknown implementation "${impl}"`);
  return { ms: performance.now() - t0, tokens };
}

export const child = { coldStart };

function countEach(texts: readonly string[], count: (t: string) => number): number[] {
  const out = new Array<number>(texts.length);
  for (let i = 0; i < texts.length; i++) out[i] = count(texts[i]!);
  return out;
}

function sum(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

function sameCounts(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function throughputRow(label: string, m: Measurement, bytes: number, ratio?: string, note?: string): BenchRow {
  const row: BenchRow = { label, median: formatMBps(megabytesPerSecond(bytes, m.median)) };
  if (ratio) row.ratio = ratio;
  row.note = `${formatMs(m.median)} per pass, ${m.samples.length} runs${note ? `; ${note}` : ''}`;
  return row;
}

function timeRow(label: string, m: Measurement, ratio?: string, note?: string): BenchRow {
  const row: BenchRow = { label, median: formatMs(m.median) };
  if (ratio) row.ratio = ratio;
  row.note = `${m.samples.length} runs, min ${formatMs(m.min)}${note ? `; ${note}` : ''}`;
  return row;
}

export async function run(): Promise<BenchSection> {
  const notes: string[] = [];
  const goals: BenchGoal[] = [];
  const corpus = mixedCorpus(findTranscriptsDir(), CORPUS_BYTES);
  const texts = corpus.texts;
  const bytes = corpus.bytes;
  notes.push(
    `corpus: ${formatCount(texts.length)} texts, ${(bytes / 1e6).toFixed(2)} MB (${corpus.parts.map((p) => `${p.kind} ${(p.bytes / 1e6).toFixed(2)} MB`).join(', ')})`,
  );

  // ── (a) throughput, o200k_base, one count per message text ──
  const ours = await createPieceCounter('o200k_base');
  const oursCount = (t: string) => ours.count(t);
  const gpt = await loadGptTokenizer('o200k_base');
  const gptCount = (t: string) => gpt.countTokens(t, AS_TEXT);
  let t0 = performance.now();
  const js = await loadJsTiktoken('o200k_base');
  notes.push(`js-tiktoken o200k constructor (not in the figures): ${formatMs(performance.now() - t0)}`);
  const jsCount = (t: string) => js.encode(t, [], []).length;

  let jsCounts: number[] = [];
  const jsT = await measure(() => (jsCounts = countEach(texts, jsCount)), { warmup: 0, reps: 3 });
  let gptCounts: number[] = [];
  const gptCold = await measure(() => (gptCounts = countEach(texts, gptCount)), { before: () => gpt.clearMergeCache(), reps: 5 });
  const gptWarm = await measure(() => countEach(texts, gptCount), { reps: 5 });
  let oursColdCounts: number[] = [];
  const oursCold = await measure(() => (oursColdCounts = countEach(texts, oursCount)), { before: () => ours.clearMemo(), reps: 5 });
  let oursWarmCounts: number[] = [];
  const oursWarm = await measure(() => (oursWarmCounts = countEach(texts, oursCount)), { reps: 5 });
  const identical = sameCounts(jsCounts, gptCounts) && sameCounts(jsCounts, oursColdCounts) && sameCounts(jsCounts, oursWarmCounts);

  const coldRatio = speedup(gptCold.median, oursCold.median);
  const warmRatio = speedup(gptWarm.median, oursWarm.median);
  const perMessage: BenchRow[] = [
    throughputRow('js-tiktoken encode().length', jsT, bytes),
    throughputRow('gpt-tokenizer countTokens, cold cache', gptCold, bytes, undefined, 'clearMergeCache() before each run'),
    throughputRow('gpt-tokenizer countTokens, warm cache', gptWarm, bytes),
    throughputRow(
      'ours, cold memo',
      oursCold,
      bytes,
      `${formatRatio(coldRatio)} gpt-tokenizer, ${formatRatio(speedup(jsT.median, oursCold.median))} js-tiktoken`,
      'clearMemo() before each run',
    ),
    throughputRow(
      'ours, warm memo',
      oursWarm,
      bytes,
      `${formatRatio(warmRatio)} gpt-tokenizer, ${formatRatio(speedup(jsT.median, oursWarm.median))} js-tiktoken`,
    ),
  ];
  notes.push(
    `identical counts (o200k, per text, js-tiktoken = gpt-tokenizer = ours cold = ours warm): ${identical ? 'yes' : 'NO'} — ${formatCount(sum(jsCounts))} tokens in ${formatCount(texts.length)} texts`,
  );

  // The same corpus as one string (one long document rather than many messages).
  const joined = texts.join('\n\n');
  const joinedBytes = utf8Length(joined);
  let oursJoined = 0;
  const oursJoinedCold = await measure(() => (oursJoined = ours.count(joined)), { before: () => ours.clearMemo(), reps: 5 });
  let gptJoined = 0;
  const gptJoinedCold = await measure(() => (gptJoined = gpt.countTokens(joined, AS_TEXT)), { before: () => gpt.clearMergeCache(), reps: 5 });
  t0 = performance.now();
  const jsJoined = js.encode(joined, [], []).length;
  const jsJoinedOnce = summarize([performance.now() - t0]);
  const joinedIdentical = oursJoined === gptJoined && oursJoined === jsJoined;
  const oneString: BenchRow[] = [
    throughputRow('js-tiktoken encode().length', jsJoinedOnce, joinedBytes, undefined, 'one run: the identity check'),
    throughputRow('gpt-tokenizer countTokens, cold cache', gptJoinedCold, joinedBytes),
    throughputRow(
      'ours, cold memo',
      oursJoinedCold,
      joinedBytes,
      `${formatRatio(speedup(gptJoinedCold.median, oursJoinedCold.median))} gpt-tokenizer, ${formatRatio(speedup(jsJoinedOnce.median, oursJoinedCold.median))} js-tiktoken`,
    ),
  ];
  notes.push(
    `identical counts (o200k, one ${(joinedBytes / 1e6).toFixed(2)} MB string): ${joinedIdentical ? 'yes' : 'NO'} — ${formatCount(oursJoined)} tokens`,
  );

  // cl100k_base: ours against gpt-tokenizer (js-tiktoken's cl100k exactness is in the tests).
  const oursCl = await createPieceCounter('cl100k_base');
  const gptCl = await loadGptTokenizer('cl100k_base');
  let oursClCounts: number[] = [];
  const oursClCold = await measure(() => (oursClCounts = countEach(texts, (t) => oursCl.count(t))), { before: () => oursCl.clearMemo(), reps: 5 });
  let gptClCounts: number[] = [];
  const gptClCold = await measure(() => (gptClCounts = countEach(texts, (t) => gptCl.countTokens(t, AS_TEXT))), {
    before: () => gptCl.clearMergeCache(),
    reps: 5,
  });
  const clRatio = speedup(gptClCold.median, oursClCold.median);
  const cl100k: BenchRow[] = [
    throughputRow('gpt-tokenizer countTokens, cold cache', gptClCold, bytes),
    throughputRow('ours, cold memo', oursClCold, bytes, `${formatRatio(clRatio)} gpt-tokenizer`),
  ];
  notes.push(
    `identical counts (cl100k, per text, gpt-tokenizer = ours): ${sameCounts(oursClCounts, gptClCounts) ? 'yes' : 'NO'} — ${formatCount(sum(oursClCounts))} tokens`,
  );

  goals.push({
    goal: `counting throughput ≥ ${THROUGHPUT_GOAL.toFixed(1)}× gpt-tokenizer on the same text`,
    met: coldRatio >= THROUGHPUT_GOAL && warmRatio >= THROUGHPUT_GOAL && clRatio >= THROUGHPUT_GOAL,
    measured: `o200k ${formatRatio(coldRatio)} cold, ${formatRatio(warmRatio)} warm; cl100k ${formatRatio(clRatio)} cold`,
  });
  goals.push({
    goal: 'counts identical to js-tiktoken encode(text, [], []).length',
    met: identical && joinedIdentical,
    measured: identical && joinedIdentical ? `all ${formatCount(texts.length)} texts and the joined string` : 'counts differ',
  });

  // ── (b) cold start to the first count, each in a fresh process ──
  const coldRows: BenchRow[] = [];
  const coldMedians: Record<string, number> = {};
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    const firstCounts = new Set<number>();
    for (const impl of ['ours', 'js-tiktoken', 'gpt-tokenizer'] as Implementation[]) {
      const samples: number[] = [];
      for (let i = 0; i < COLD_START_RUNS; i++) {
        const r = runChild<{ ms: number; tokens: number }>(SECTION, 'coldStart', [impl, encoding]);
        samples.push(r.ms);
        firstCounts.add(r.tokens);
      }
      const m = summarize(samples);
      coldMedians[`${impl}/${encoding}`] = m.median;
      const ratio = impl === 'ours' ? undefined : `ours ${formatRatio(speedup(m.median, coldMedians[`ours/${encoding}`]!))} faster`;
      coldRows.push(timeRow(`${encoding}, ${impl}`, m, ratio, 'fresh process: import ranks, build, count 1 text'));
    }
    if (firstCounts.size !== 1) notes.push(`cold start ${encoding}: the first counts differ (${[...firstCounts].join(', ')})`);
  }

  // ── (c) one appended 1 KB message vs a full recount of a 200k-token conversation ──
  const model = resolveModel('gpt-4o');
  const sizing = new CachedTokenCounter(ours, model);
  const conversation: Message[] = [];
  const roles: [Message['role'], Message['itemType']][] = [
    ['user', 'USER_MESSAGE'],
    ['assistant', 'ASSISTANT_MESSAGE'],
    ['tool', 'TOOL_RESULT'],
  ];
  let next = 0;
  let conversationTokens = 0;
  while (conversationTokens < CONVERSATION_TOKENS && next < texts.length) {
    const [role, itemType] = roles[next % roles.length]!;
    const m: Message = { id: `c${next}`, role, itemType, content: [{ type: 'text', text: texts[next]! }] };
    conversation.push(m);
    conversationTokens += sizing.countMessage(m);
    next++;
  }
  conversationTokens += 3;
  const conversationBytes = conversation.reduce((a, m) => a + utf8Length((m.content[0] as { text: string }).text), 0);
  let appendSource = texts.slice(next).join('\n');
  let appended = 0;
  /** A new ~1 KB user message, different every time (so no cache can answer it). */
  const newMessage = (): Message => {
    if (appendSource.length < APPEND_BYTES * 2) appendSource = texts.join('\n');
    const start = (appended * 7919) % (appendSource.length - APPEND_BYTES);
    let text = `[${appended}] ` + appendSource.slice(start, start + APPEND_BYTES);
    while (utf8Length(text) > APPEND_BYTES) text = text.slice(0, -8);
    appended++;
    return { id: `new${appended}`, role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text }] };
  };
  const conversationTexts = conversation.map((m) => (m.content[0] as { text: string }).text);

  const fullJs = await measure(() => sum(countEach(conversationTexts, jsCount)), { warmup: 0, reps: 3 });
  let freshCounter = new CachedTokenCounter(ours, model);
  const fullCold = await measure(() => tokenReport(conversation, freshCounter), {
    before: () => {
      ours.clearMemo();
      freshCounter = new CachedTokenCounter(ours, model);
    },
    reps: 5,
  });
  const fullWarm = await measure(() => tokenReport(conversation, freshCounter), {
    before: () => {
      freshCounter = new CachedTokenCounter(ours, model);
    },
    reps: 5,
  });
  const ledgerCounter = new CachedTokenCounter(ours, model);
  const ledger = new TokenLedger(ledgerCounter, conversation);
  let pending = newMessage();
  const appendOurs = await measure(
    () => {
      ledger.append(pending);
      return ledger.report();
    },
    { before: () => (pending = newMessage()), warmup: 5, reps: 51 },
  );
  let pendingText = '';
  const appendJs = await measure(() => js.encode(pendingText, [], []).length, {
    before: () => (pendingText = (newMessage().content[0] as { text: string }).text),
    warmup: 5,
    reps: 51,
  });
  let reimported: Message[] = [];
  const resync = await measure(
    () => {
      ledger.sync(reimported);
      return ledger.report();
    },
    {
      before: () => {
        reimported = [...structuredClone(conversation), newMessage()];
        ledger.sync(conversation);
      },
      warmup: 1,
      reps: 7,
    },
  );
  const appendRatio = speedup(fullCold.median, appendOurs.median);
  const appendRows: BenchRow[] = [
    timeRow('full recount, js-tiktoken', fullJs),
    timeRow(
      'full recount, ours, cold memo',
      fullCold,
      `${formatRatio(speedup(fullJs.median, fullCold.median))} faster than js-tiktoken`,
      'tokenReport with a fresh counter',
    ),
    timeRow('full recount, ours, warm memo', fullWarm, undefined, 'fresh message cache, warm piece memo'),
    timeRow('append 1 KB, js-tiktoken encode of it', appendJs),
    timeRow(
      'append 1 KB + report, ours (TokenLedger)',
      appendOurs,
      `${formatRatio(appendRatio)} vs full recount (ours cold), ${formatRatio(speedup(fullJs.median, appendOurs.median))} vs js-tiktoken`,
    ),
    timeRow(
      're-import (copies) + 1 KB + sync + report, ours',
      resync,
      `${formatRatio(speedup(fullCold.median, resync.median))} vs full recount (ours cold)`,
      'every message a new object, compared by content',
    ),
  ];
  notes.push(
    `conversation: ${formatCount(conversation.length)} messages, ${formatCount(conversationTokens)} tokens (o200k), ${(conversationBytes / 1e6).toFixed(2)} MB; appended messages ${APPEND_BYTES} bytes`,
  );
  goals.push({
    goal: `recount after appending one 1 KB message ≥ ${APPEND_GOAL}× cheaper than a full recount`,
    met: appendRatio >= APPEND_GOAL,
    measured: `${formatMs(appendOurs.median)} vs ${formatMs(fullCold.median)} = ${formatRatio(appendRatio)}`,
  });

  return {
    title: 'tokens: exact counting speed (o200k_base unless noted; medians)',
    groups: [
      { title: `(a) throughput, one count per text (${(bytes / 1e6).toFixed(2)} MB mixed corpus)`, rows: perMessage },
      { title: `(a) throughput, the corpus as one ${(joinedBytes / 1e6).toFixed(2)} MB string`, rows: oneString },
      { title: '(a) throughput, cl100k_base, one count per text', rows: cl100k },
      { title: `(b) cold start to the first count (${COLD_START_RUNS} fresh processes each)`, rows: coldRows },
      { title: `(c) a ${formatCount(conversationTokens)}-token conversation: full recount vs one appended ${APPEND_BYTES}-byte message`, rows: appendRows },
    ],
    goals,
    notes,
  };
}
