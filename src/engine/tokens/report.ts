// The token report behind the status bar and `ctxc count`.

import type { Message } from '../conversation/model';
import { REPLY_PRIMING, type CachedTokenCounter } from './messageCounter';
import { TOKEN_CATEGORIES, type CountMethod, type TokenCategory } from './tokenCounter';

export interface TokenReport {
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
  byCategory: Record<TokenCategory, number>;
  messageCount: number;
  /** Tokens per message, in message order (overhead included). */
  perMessage: number[];
}

export function tokenReport(messages: readonly Message[], counter: CachedTokenCounter): TokenReport {
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
  return assembleReport(counter, perMessage, byCategory, total);
}

/** A report from counts already made (tokenReport above, or the TokenLedger's running totals). */
export function assembleReport(
  counter: CachedTokenCounter,
  perMessage: number[],
  byCategory: Record<TokenCategory, number>,
  total: number,
): TokenReport {
  const window = counter.model.contextWindow;
  return {
    total,
    window,
    outputReserve: counter.model.outputReserve,
    percent: window > 0 ? Math.round((total / window) * 1000) / 10 : 0,
    exact: counter.method === 'exact',
    method: counter.method,
    model: counter.model.id,
    encoding: counter.encoding,
    byCategory,
    messageCount: perMessage.length,
    perMessage,
  };
}
