// Analyze + prioritize speed (src/engine/analyze): analyzeConversation runs on every compaction
// and for the inspector timeline, so it must stay well under a second on a 1 MB transcript.
// Measured on a ~1 MB conversation built from the shared transcripts (bench/lib/corpus.ts), and
// on 4× that to show it scales linearly; the baseline from the same run is a full token count
// of the same messages with the project's counter (a fresh message cache each run).

import { analyzeConversation } from '../../src/engine/analyze/analyzeConversation';
import type { Message } from '../../src/engine/conversation/model';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { conversationFrom, findTranscriptsDir, mixedCorpus, utf8Length } from '../lib/corpus';
import { formatCount, formatMBps, formatMs, formatRatio, measure, megabytesPerSecond, type Measurement } from '../lib/measure';
import type { BenchGoal, BenchRow, BenchSection } from '../lib/section';

/** The transcript size the goal is stated for. */
const CONVERSATION_BYTES = 1_000_000;
/** The larger conversation, to check that time grows linearly with size. */
const SCALE = 4;
/** The goal: well under a second on 1 MB. */
const GOAL_MS = 1000;

function messageBytes(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) for (const p of m.content) if (p.type === 'text') n += utf8Length(p.text);
  return n;
}

function conversationOf(texts: readonly string[], bytes: number): Message[] {
  let total = 0;
  return conversationFrom(texts, (ms) => {
    const last = ms[ms.length - 1];
    if (last) for (const p of last.content) if (p.type === 'text') total += utf8Length(p.text);
    return total >= bytes;
  });
}

function row(label: string, m: Measurement, bytes: number, ratio?: string, note?: string): BenchRow {
  const out: BenchRow = { label, median: formatMs(m.median), note: [`${formatMBps(megabytesPerSecond(bytes, m.median))}`, note].filter(Boolean).join('; ') };
  if (ratio) out.ratio = ratio;
  return out;
}

export async function run(): Promise<BenchSection> {
  const dir = findTranscriptsDir();
  const corpus = mixedCorpus(dir, CONVERSATION_BYTES * SCALE * 1.1);
  const small = conversationOf(corpus.texts, CONVERSATION_BYTES);
  const large = conversationOf(corpus.texts, CONVERSATION_BYTES * SCALE);
  const smallBytes = messageBytes(small);
  const largeBytes = messageBytes(large);

  const counter = await createTokenCounter();
  const countSmall = await measure(async () => (await createTokenCounter()).countMessages(small), { reps: 5 });
  const plain = await measure(() => analyzeConversation(small), { warmup: 2, reps: 5 });
  const focused = await measure(() => analyzeConversation(small, { focus: 'focus on the failing tests' }), { reps: 5 });
  const big = await measure(() => analyzeConversation(large), { reps: 3 });

  const a = analyzeConversation(small);
  const dup = a.messages.filter((m) => m.nearDuplicateOf !== undefined).length;
  const links = a.messages.reduce((n, m) => n + m.referencedBy.length, 0);
  const goals: BenchGoal[] = [
    {
      goal: `analyzeConversation on a 1 MB transcript well under ${formatMs(GOAL_MS)}`,
      met: plain.median < GOAL_MS / 2,
      measured: `${formatMs(plain.median)} for ${(smallBytes / 1e6).toFixed(2)} MB (${formatCount(small.length)} messages)`,
    },
  ];
  return {
    title: 'analyze (classification, importance, relevance, refs, key events, task type)',
    groups: [
      {
        title: `one conversation of ${(smallBytes / 1e6).toFixed(2)} MB, ${formatCount(small.length)} messages`,
        rows: [
          row('token count, fresh message cache (baseline)', countSmall, smallBytes, undefined, `${counter.encoding}`),
          row('analyzeConversation', plain, smallBytes, `${formatRatio(plain.median / countSmall.median)} the token count`),
          row('analyzeConversation, free-text focus', focused, smallBytes, `${formatRatio(focused.median / plain.median)} without focus`),
        ],
      },
      {
        title: `${SCALE}× the size: ${(largeBytes / 1e6).toFixed(2)} MB, ${formatCount(large.length)} messages`,
        rows: [
          row(
            'analyzeConversation',
            big,
            largeBytes,
            `${formatRatio(big.median / plain.median)} the 1 MB time`,
            `linear would be ${formatRatio(largeBytes / smallBytes)}`,
          ),
        ],
      },
    ],
    goals,
    notes: [
      `on the 1 MB conversation: ${dup} near-duplicates, ${links} cross-reference links, task type ${a.taskType} (${a.taskTypeEvidence.confidence})`,
      'messages alternate user / assistant / tool text from the transcripts (bench/lib/corpus.ts conversationFrom), so tool structure is not exercised',
    ],
  };
}
