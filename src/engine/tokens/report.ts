// The token report behind every surface that shows a conversation's size (the meter, the Sessions
// view, `ctxc count`, the MCP and Copilot tools): our count of the messages, and — when the agent
// recorded what the API counted (conversation.meta.reportedUsage) — that figure plus our count of
// what came after it (calibration.ts), which is the best estimate of the next request; a session
// we wrote back into an agent that has not answered yet builds on what it inherited instead.

import type { InheritedFigures } from '../conversation/inherited';
import type { Message, ReportedUsage } from '../conversation/model';
import { applyBasis, basisOf, percentOf, type BasisSource } from './calibration';
import { REPLY_PRIMING, type CachedTokenCounter } from './messageCounter';
import { TOKEN_CATEGORIES, type CountMethod, type TokenCategory } from './tokenCounter';

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

/** The report of `messages`; with `meta` (the conversation's: its reported usage, what it inherited)
 *  the total builds on it. */
export function tokenReport(messages: readonly Message[], counter: CachedTokenCounter, meta?: BasisSource): TokenReport {
  const byCategory = Object.fromEntries(TOKEN_CATEGORIES.map((c) => [c, 0])) as Record<TokenCategory, number>;
  const perMessage: number[] = [];
  let total = 0;
  for (const m of messages) {
    const t = counter.countMessageByCategory(m);
    perMessage.push(t.total);
    total += t.total;
    for (const [c, n] of Object.entries(t.byCategory)) byCategory[c as TokenCategory] += n ?? 0;
  }
  if (messages.length > 0) {
    // Reply priming belongs to no message; bill it to the assistant that will answer.
    total += REPLY_PRIMING;
    byCategory.assistant += REPLY_PRIMING;
  }
  const report = assembleReport(counter, perMessage, byCategory, total);
  return meta ? applyBasis(report, messages, basisOf(messages, meta, counter), counter.model.matched === 'override') : report;
}

/** The report of a conversation as its agent sends it. */
export function conversationReport(conversation: { messages: readonly Message[]; meta: BasisSource }, counter: CachedTokenCounter): TokenReport {
  return tokenReport(conversation.messages, counter, conversation.meta);
}

/** A report from counts already made (tokenReport above, or the TokenLedger's running totals). */
export function assembleReport(counter: CachedTokenCounter, perMessage: number[], byCategory: Record<TokenCategory, number>, total: number): TokenReport {
  const window = counter.model.contextWindow;
  return {
    total,
    window,
    outputReserve: counter.model.outputReserve,
    percent: percentOf(total, window),
    exact: counter.method === 'exact',
    method: counter.method,
    model: counter.model.id,
    encoding: counter.encoding,
    byCategory,
    messageCount: perMessage.length,
    perMessage,
    counted: total,
    overhead: 0,
  };
}
