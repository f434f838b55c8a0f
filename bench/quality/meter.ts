// The meter against what the API counted, for `npm run bench:quality`. Every transcript that records
// the usage of its requests (Claude Code `message.usage`, aider `> Tokens: N sent`, Cline's
// ui_messages.json beside api_conversation_history.json) is read here with parsers of the
// benchmark's own, not the importers'. For each request after the first, two figures are set
// against the one the API reported:
//
//   before  our count of the file up to that request — every line, every chat session — which is
//           what the meter showed before it used the agents' records;
//   after   the meter as it was just before that request: the previous reported figure plus our
//           count of what came after it (calibration.ts), over the messages the agent sends; our
//           count when that figure is below our count of the messages it covered (implausible).
//
// The error is (figure − reported) / reported; the table gives it for the last request and the
// median |error| over all requests.

import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import type { Conversation, ReportedUsage } from '../../src/engine/conversation/model';
import { basisOf } from '../../src/engine/tokens/calibration';
import { TokenLedger } from '../../src/engine/tokens/ledger';
import type { CachedTokenCounter } from '../../src/engine/tokens/messageCounter';

interface Recorded {
  tokens: number;
  /** The figure was printed rounded: the true one is within ± this many tokens. */
  rounding?: number;
  /** The index of the message that answered the request, in a conversation as read. */
  answer: (c: Conversation) => number;
}

export interface MeterRow {
  name: string;
  requests: number;
  reported: number;
  before: number;
  after: number;
  /** Median |error| over every request after the first. */
  medianBefore: number;
  medianAfter: number;
  maxAfter: number;
}

function lastIndex<T>(list: readonly T[], test: (x: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i]!)) return i;
  return -1;
}

function claudeRecords(text: string): Recorded[] {
  const out: Recorded[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    let v: { type?: string; isSidechain?: boolean; message?: { id?: string; model?: string; usage?: Record<string, number> } };
    try {
      v = JSON.parse(l);
    } catch {
      return;
    }
    const u = v.message?.usage;
    if (v.type !== 'assistant' || v.isSidechain || !u || v.message?.model === '<synthetic>') return;
    const id = v.message?.id ?? `line ${i}`;
    if (seen.has(id)) return;
    seen.add(id);
    const line = i + 1;
    const tokens = (u['input_tokens'] ?? 0) + (u['cache_creation_input_tokens'] ?? 0) + (u['cache_read_input_tokens'] ?? 0);
    if (tokens > 0) out.push({ tokens, answer: (c) => c.messages.findIndex((m) => m.source?.line === line) });
  });
  return out;
}

function aiderRecords(text: string): Recorded[] {
  const lines = text.split(/\r?\n/);
  const start = lastIndex(lines, (l) => l.startsWith('# aider chat started at '));
  const out: Recorded[] = [];
  for (let i = Math.max(0, start); i < lines.length; i++) {
    const m = /^> Tokens: ([\d.,]+)(k?) sent/.exec(lines[i]!);
    if (!m) continue;
    const line = i + 1;
    const decimals = (m[1]!.split('.')[1] ?? '').length;
    out.push({
      tokens: Math.round(Number(m[1]!.replace(/,/g, '')) * (m[2] ? 1000 : 1)),
      ...(m[2] ? { rounding: 500 / 10 ** decimals } : {}),
      answer: (c) => lastIndex(c.messages, (x) => x.role === 'assistant' && (x.source?.line ?? Infinity) <= line),
    });
  }
  return out;
}

function clineRecords(path: string): Recorded[] {
  const ui = join(dirname(path), 'ui_messages.json');
  if (basename(path) !== 'api_conversation_history.json' || !existsSync(ui)) return [];
  const out: Recorded[] = [];
  for (const m of JSON.parse(readFileSync(ui, 'utf8')) as { say?: string; text?: string; conversationHistoryIndex?: number }[]) {
    if (m.say !== 'api_req_started' || m.text === undefined || m.conversationHistoryIndex === undefined) continue;
    const info = JSON.parse(m.text) as Record<string, number>;
    const tokens = (info['tokensIn'] ?? 0) + (info['cacheWrites'] ?? 0) + (info['cacheReads'] ?? 0);
    const after = m.conversationHistoryIndex;
    if (tokens > 0) out.push({ tokens, answer: (c) => c.messages.findIndex((x) => x.role === 'assistant' && (x.source?.index ?? -Infinity) > after) });
  }
  return out;
}

function records(path: string, text: string): Recorded[] {
  if (path.endsWith('.jsonl')) return claudeRecords(text);
  if (path.endsWith('.aider.chat.history.md')) return aiderRecords(text);
  return clineRecords(path);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : Number.NaN;
};

/** The row of one transcript, or undefined when it records no usage. */
export async function meterRow(
  name: string,
  path: string,
  counters: (model: string | undefined) => Promise<CachedTokenCounter>,
): Promise<MeterRow | undefined> {
  const text = readFileSync(path, 'utf8');
  const recs = records(path, text);
  if (recs.length < 2) return undefined;
  const live = importTranscript(text, { sourcePath: path }).conversation;
  const file = importTranscript(text, { sourcePath: `${path}#whole`, wholeFile: true }).conversation;
  const counter = await counters(live.meta.model);
  const ledger = new TokenLedger(counter);
  const errBefore: number[] = [];
  const errAfter: number[] = [];
  let last: { before: number; after: number; reported: number } | undefined;
  for (let k = 1; k < recs.length; k++) {
    const prev = recs[k - 1]!;
    const next = recs[k]!;
    const a = next.answer(live);
    const p = prev.answer(live);
    const w = next.answer(file);
    if (a <= 0 || p < 0 || w <= 0) continue;
    const before = counter.countMessages(file.messages.slice(0, w));
    const shown = live.messages.slice(0, a);
    ledger.sync(shown);
    const usage: ReportedUsage = {
      tokens: prev.tokens,
      source: 'anthropic',
      atMessageId: live.messages[p]!.id,
      parts: { input: prev.tokens },
      ...(prev.rounding ? { rounding: prev.rounding } : {}),
    };
    const after = ledger.report(basisOf(shown, { reportedUsage: usage }, counter)).total;
    errBefore.push(Math.abs(before - next.tokens) / next.tokens);
    errAfter.push(Math.abs(after - next.tokens) / next.tokens);
    last = { before, after, reported: next.tokens };
  }
  if (!last) return undefined;
  return {
    name,
    requests: errAfter.length + 1,
    reported: last.reported,
    before: last.before,
    after: last.after,
    medianBefore: median(errBefore),
    medianAfter: median(errAfter),
    maxAfter: Math.max(...errAfter),
  };
}

/** The transcripts the meter section reads: the shared ones, and the repository's fixtures of the
 *  formats the shared folder has none of (a Cline task, a multi-session aider history). */
export function meterFixtures(repoRoot: string): { name: string; path: string }[] {
  return [
    { name: 'fixture: cline-task', path: join(repoRoot, 'test', 'fixtures', 'cline-task', 'api_conversation_history.json') },
    { name: 'fixture: logscan aider (4 sessions)', path: join(repoRoot, 'test', 'fixtures', 'logscan.aider.chat.history.md') },
  ].filter((f) => existsSync(f.path));
}

function signed(figure: number, reported: number): string {
  const e = (figure - reported) / reported;
  return `${figure.toLocaleString('en-US')} (${e >= 0 ? '+' : '−'}${Math.abs(100 * e).toFixed(1)}%)`;
}

export function meterTable(rows: readonly MeterRow[]): string[][] {
  return rows.map((r) => [
    r.name,
    String(r.requests),
    r.reported.toLocaleString('en-US'),
    signed(r.before, r.reported),
    signed(r.after, r.reported),
    `${(100 * r.medianBefore).toFixed(1)}%`,
    `${(100 * r.medianAfter).toFixed(1)}%`,
    `${(100 * r.maxAfter).toFixed(1)}%`,
  ]);
}

export const METER_HEADER = [
  'transcript',
  'requests',
  'last reported',
  'before: file count',
  'after: meter',
  'median |err| before',
  'median |err| after',
  'max |err| after',
];
