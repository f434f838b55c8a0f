// Calibration against what the API counted. An agent that records the usage of its requests
// (conversation.meta.reportedUsage) says what the model really read for one of them: every message
// before that request's answer, plus what the transcript does not show — the agent's system prompt
// and tool definitions — and counted by the model's own tokenizer. The difference between that
// figure and our count of the same messages is the overhead; kept per session, it is added to our
// count of the messages as they are now, so the estimate stays right between two reports:
//
//   total = counted + overhead = reported + counted since the answer
//
// A figure below our own count of the messages it covered (beyond the rounding its source prints,
// and, when our count stands in for another tokenizer, beyond PROXY_TOLERANCE of it: Claude's and
// Gemini's tokenizers cut the same text into a few percent more or fewer pieces than o200k)
// cannot be what was sent: it is flagged implausible and not trusted (the total is our count), so
// no category is ever negative and no share over 100%. With no trusted figure, a session we wrote
// back into an agent uses the overhead it inherited from its original (inherited.ts); else the
// overhead is 0 and the total is our count.

import type { InheritedFigures } from '../conversation/inherited';
import type { ConversationMeta, Message, ReportedUsage } from '../conversation/model';
import { REPLY_PRIMING, type CachedTokenCounter } from './messageCounter';
import type { TokenReport } from './reportTypes';
import type { CountMethod } from './tokenCounter';

/** How far below our count a figure may be when our count is a proxy or an estimate (a share of it):
 *  a tokenizer difference, not a figure for other messages. */
export const PROXY_TOLERANCE = 0.05;

export interface Calibration {
  usage: ReportedUsage;
  /** Our count of the messages the reported request held, reply priming included. */
  countedAsOf: number;
  /** usage.tokens − countedAsOf; 0 when the figure is below our count. */
  overhead: number;
  /** The figure is below our count of the same messages by more than its printed rounding. */
  implausible?: true;
}

/** What a report builds on besides our count of the messages. */
export interface ReportBasis {
  calibration?: Calibration;
  inherited?: InheritedFigures;
}

/** Where a conversation says what its agent sends besides its messages. */
export type BasisSource = Pick<ConversationMeta, 'reportedUsage' | 'inherited'>;

/** The calibration of a session from the messages the usage was reported on; undefined when its
 *  answer is not among them. Counts come from the counter's caches, so calibrating a conversation
 *  already counted encodes nothing; `countAt` gives them from counts already at hand instead (a
 *  TokenLedger of the same messages: TokenLedger.tokensAt). */
export function calibrate(
  messages: readonly Message[],
  usage: ReportedUsage | undefined,
  counter: CachedTokenCounter,
  countAt: (index: number) => number = (i) => counter.countMessage(messages[i]!),
): Calibration | undefined {
  return usage ? calibrateWith(messages, usage, counter.method, countAt) : undefined;
}

/** The calibration of `usage` from counts at hand (`countAt`: our count, by `method`, of the
 *  message at an index; a report's perMessage); undefined when its answer is not among `messages`. */
export function calibrateWith(
  messages: readonly Pick<Message, 'id'>[],
  usage: ReportedUsage,
  method: CountMethod,
  countAt: (index: number) => number,
): Calibration | undefined {
  const k = messages.findIndex((m) => m.id === usage.atMessageId);
  if (k < 0) return undefined;
  let countedAsOf = REPLY_PRIMING;
  for (let i = 0; i < k; i++) countedAsOf += countAt(i);
  const raw = usage.tokens - countedAsOf;
  if (raw >= 0) return { usage, countedAsOf, overhead: raw };
  const slack = (usage.rounding ?? 0) + (method === 'exact' ? 0 : Math.ceil(countedAsOf * PROXY_TOLERANCE));
  return raw + slack >= 0 ? { usage, countedAsOf, overhead: 0 } : { usage, countedAsOf, overhead: 0, implausible: true };
}

/** The basis of a conversation's report: the calibration of its reported usage and what it
 *  inherited. `countAt` as for calibrate. */
export function basisOf(
  messages: readonly Message[],
  meta: BasisSource | undefined,
  counter: CachedTokenCounter,
  countAt?: (index: number) => number,
): ReportBasis {
  const calibration = meta?.reportedUsage ? calibrate(messages, meta.reportedUsage, counter, countAt) : undefined;
  return { ...(calibration ? { calibration } : {}), ...(meta?.inherited ? { inherited: meta.inherited } : {}) };
}

/** total / window × 100, one decimal. */
export function percentOf(total: number, window: number): number {
  return window > 0 ? Math.round((total / window) * 1000) / 10 : 0;
}

/** Whether a calibration was made from this usage (a new report needs a new calibration). */
export function sameUsage(a: ReportedUsage | undefined, b: ReportedUsage | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.tokens === b.tokens && a.atMessageId === b.atMessageId && a.source === b.source);
}

/** The window a report is against: the user's override, else the one the agent states (Codex's
 *  model_context_window, or the one its original stated), else the model's. */
function windowOf(report: TokenReport, basis: ReportBasis, overridden: boolean): number {
  if (overridden) return report.window;
  return basis.calibration?.usage.contextWindow ?? basis.inherited?.window ?? report.window;
}

/** The report of `messages` (our count, perMessage aligned with them) on its basis: a trusted
 *  calibration's overhead, else the inherited one, joins the total and the `unseen` category. */
export function applyBasis(report: TokenReport, messages: readonly Pick<Message, 'id'>[], basis: ReportBasis | undefined, overridden = false): TokenReport {
  if (!basis || (!basis.calibration && !basis.inherited)) return report;
  const cal = basis.calibration;
  const window = windowOf(report, basis, overridden);
  const trusted = cal && !cal.implausible ? cal : undefined;
  const overhead = trusted ? trusted.overhead : (basis.inherited?.overhead ?? 0);
  let countedSince: number | undefined;
  if (trusted) {
    const k = messages.findIndex((m) => m.id === trusted.usage.atMessageId);
    if (k >= 0) {
      countedSince = 0;
      for (let i = k; i < report.perMessage.length; i++) countedSince += report.perMessage[i]!;
    }
  }
  const total = report.counted + overhead;
  return {
    ...report,
    total,
    window,
    percent: percentOf(total, window),
    byCategory: { ...report.byCategory, unseen: report.byCategory.unseen + overhead },
    overhead,
    ...(trusted ? { reported: { usage: trusted.usage, countedAsOf: trusted.countedAsOf, ...(countedSince !== undefined ? { countedSince } : {}) } } : {}),
    ...(!trusted && basis.inherited ? { inherited: basis.inherited } : {}),
    ...(cal?.implausible ? { implausible: { usage: cal.usage, countedAsOf: cal.countedAsOf } } : {}),
  };
}
