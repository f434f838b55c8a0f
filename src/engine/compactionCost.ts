// What compacting costs, for agents that cache the prompt: the request after a compaction cannot
// read the compacted messages from the cache — they are new text — so it writes them to the cache
// again (the system prompt and tools before them stay cached), where without the compaction it
// would have read the old messages from the cache. Every later request then sends fewer tokens.
// Compacting pays off after the requests whose savings cover that first request's extra cost.
// From the compaction's figures (figures.ts: the file's part before and after) and the model's
// prices (tokens/modelPrices.ts); without prices, the token figures alone.

import type { CompactionFigures } from './figures';
import type { ModelPrice } from './tokens/modelPrices';

export interface CompactionCost {
  /** Tokens written to the cache again at the next request: the messages after compaction. */
  rewritten: number;
  /** What that request would have read from the cache without compacting: the messages before. */
  wouldRead: number;
  /** Tokens fewer on each later request. */
  savedPerRequest: number;
  /** With prices: US dollars. */
  dollars?: {
    /** What the next request costs more (negative: less) than without compacting. */
    extraAtNext: number;
    /** What each later request costs less. */
    savedPerRequest: number;
  };
  /** Later requests after which compacting has paid for itself (0: at once); undefined without
   *  prices, or when it saves nothing. */
  paysOffAfter?: number;
  price?: ModelPrice;
}

const PER_MILLION = 1_000_000;

export function compactionCost(figures: Pick<CompactionFigures, 'before' | 'after'>, price?: ModelPrice): CompactionCost {
  const rewritten = figures.after.inFile;
  const wouldRead = figures.before.inFile;
  const savedPerRequest = Math.max(0, figures.before.total - figures.after.total);
  const cost: CompactionCost = { rewritten, wouldRead, savedPerRequest };
  if (!price) return cost;
  const extraAtNext = (rewritten * price.cacheWrite - wouldRead * price.cacheRead) / PER_MILLION;
  const savedDollars = (savedPerRequest * price.cacheRead) / PER_MILLION;
  cost.price = price;
  cost.dollars = { extraAtNext, savedPerRequest: savedDollars };
  if (extraAtNext <= 0) cost.paysOffAfter = 0;
  else if (savedDollars > 0) cost.paysOffAfter = Math.ceil(extraAtNext / savedDollars);
  return cost;
}
