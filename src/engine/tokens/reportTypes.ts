// The shape of a token report (report.ts makes it, calibration.ts builds it on reported usage).

import type { InheritedFigures } from '../conversation/inherited';
import type { ReportedUsage } from '../conversation/model';
import type { CountMethod, TokenCategory } from './tokenCounter';

export interface TokenReport {
  /** The best estimate of the next request: `counted` plus `overhead`. */
  total: number;
  /** The model's context window (input + output). */
  window: number;
  outputReserve: number;
  /** total / window × 100, one decimal. */
  percent: number;
  /** True only when the model's own tokenizer counted. */
  exact: boolean;
  method: CountMethod;
  model: string;
  encoding: string;
  /** Tokens by category, none negative; they add up to `total` (`unseen` holds the overhead). */
  byCategory: Record<TokenCategory, number>;
  messageCount: number;
  /** Tokens per message, in message order (overhead included). */
  perMessage: number[];
  /** Our own count of the messages, reply priming included. */
  counted: number;
  /** What the agent sends that the messages do not show (system prompt, tool definitions) plus our
   *  tokenizer's error, from the usage it reported (or, for a session we wrote that has not answered
   *  yet, what its original measured); never negative. 0 without either. */
  overhead: number;
  /** The reported usage the total builds on. */
  reported?: ReportedBasis;
  /** The figures a session we wrote took over from its original, when the overhead comes from them. */
  inherited?: InheritedFigures;
  /** A reported usage below our count of the messages it covered: shown, not used. */
  implausible?: { usage: ReportedUsage; countedAsOf: number };
}

export interface ReportedBasis {
  usage: ReportedUsage;
  /** Our count of the messages that request held (those before its answer), reply priming included. */
  countedAsOf: number;
  /** Our count of the messages from its answer on. Undefined when the answer is no longer among the
   *  messages (a compacted view): the total is then our count plus the overhead. */
  countedSince?: number;
}
