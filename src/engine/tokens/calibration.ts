// Calibration against what the API counted. An agent that records the usage of its requests
// (conversation.meta.reportedUsage) says what the model really read for one of them: every message
// before that request's answer, plus what the transcript does not show — the agent's system prompt
// and tool definitions — and counted by the model's own tokenizer. The difference between that
// figure and our count of the same messages is the overhead; kept per session, it is added to our
// count of the messages as they are now, so the estimate stays right between two reports:
//
//   total = counted + overhead = reported + counted since the answer
//
// With no reported usage the overhead is 0 and the total is our count.

import type { Message, ReportedUsage } from '../conversation/model';
import { REPLY_PRIMING, type CachedTokenCounter } from './messageCounter';
import type { TokenReport } from './report';

export interface Calibration {
  usage: ReportedUsage;
  /** Our count of the messages the reported request held, reply priming included. */
  countedAsOf: number;
  /** usage.tokens − countedAsOf. */
  overhead: number;
}

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
  if (!usage) return undefined;
  const k = messages.findIndex((m) => m.id === usage.atMessageId);
  if (k < 0) return undefined;
  let countedAsOf = REPLY_PRIMING;
  for (let i = 0; i < k; i++) countedAsOf += countAt(i);
  return { usage, countedAsOf, overhead: usage.tokens - countedAsOf };
}

/** total / window × 100, one decimal. */
export function percentOf(total: number, window: number): number {
  return window > 0 ? Math.round((total / window) * 1000) / 10 : 0;
}

/** Whether a calibration was made from this usage (a new report needs a new calibration). */
export function sameUsage(a: ReportedUsage | undefined, b: ReportedUsage | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.tokens === b.tokens && a.atMessageId === b.atMessageId && a.source === b.source);
}

/** The report of `messages` (our count, perMessage aligned with them) with the calibration applied:
 *  the overhead joins the total and the `unseen` category. */
export function applyCalibration(report: TokenReport, messages: readonly Pick<Message, 'id'>[], cal: Calibration | undefined): TokenReport {
  if (!cal) return report;
  const k = messages.findIndex((m) => m.id === cal.usage.atMessageId);
  let countedSince: number | undefined;
  if (k >= 0) {
    countedSince = 0;
    for (let i = k; i < report.perMessage.length; i++) countedSince += report.perMessage[i]!;
  }
  const total = report.counted + cal.overhead;
  return {
    ...report,
    total,
    percent: percentOf(total, report.window),
    byCategory: { ...report.byCategory, unseen: report.byCategory.unseen + cal.overhead },
    overhead: cal.overhead,
    reported: { usage: cal.usage, countedAsOf: cal.countedAsOf, ...(countedSince !== undefined ? { countedSince } : {}) },
  };
}
