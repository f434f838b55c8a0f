// The token report behind every surface that shows a conversation's size (the meter, the Sessions
// view, `ctxc count`, the MCP and Copilot tools): our count of the messages, and — when the agent
// recorded what the API counted (conversation.meta.reportedUsage) — that figure plus our count of
// what came after it (calibration.ts), which is the best estimate of the next request; a session
// we wrote back into an agent that has not answered yet builds on what it inherited instead.

import type { Message } from '../conversation/model';
import { applyBasis, basisOf, percentOf, type BasisSource } from './calibration';
import { REPLY_PRIMING, type CachedTokenCounter } from './messageCounter';
import type { TokenReport } from './reportTypes';
import { TOKEN_CATEGORIES, type TokenCategory } from './tokenCounter';

export type { ReportedBasis, TokenReport } from './reportTypes';

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
