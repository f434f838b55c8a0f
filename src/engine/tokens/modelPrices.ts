// What a model's input costs, for the inspector's "what compacting costs": the base input price,
// the price of writing the prompt cache and of reading it, in US dollars per million tokens. A small
// table, dated: prices change, and a figure computed from them says when they were read and where.
// Anthropic charges a premium to write the cache (its 5-minute cache) and a tenth of the input
// price to read it; OpenAI caches by itself, with no premium to write and a discount to read. A model
// the table does not hold has no price: the cost is then said in tokens only.
//
// Ids are matched as the model registry reads them (provider prefixes, Bedrock and Vertex spellings:
// modelIdCandidates), most specific rule first.

import { modelIdCandidates } from './modelRegistry';

/** When the prices below were read from the vendors' pricing pages. */
export const PRICES_READ_ON = '2026-11-27';

export const PRICE_SOURCES = {
  anthropic: 'https://platform.claude.com/docs/en/about-claude/pricing',
  openai: 'https://platform.openai.com/docs/pricing',
} as const;

export interface ModelPrice {
  /** The family the prices are listed for, as the vendor names it. */
  family: string;
  vendor: keyof typeof PRICE_SOURCES;
  /** US dollars per million input tokens. */
  input: number;
  /** Writing the prompt cache (Anthropic's 5-minute cache; OpenAI: the input price). */
  cacheWrite: number;
  /** Reading the prompt cache (a cache hit). */
  cacheRead: number;
  /** Where and when the prices were read. */
  source: string;
  readOn: string;
}

type PriceRow = Omit<ModelPrice, 'source' | 'readOn'> & { pattern: RegExp };

function anthropic(family: string, pattern: RegExp, input: number, cacheWrite: number, cacheRead: number): PriceRow {
  return { family, vendor: 'anthropic', pattern, input, cacheWrite, cacheRead };
}

function openai(family: string, pattern: RegExp, input: number, cacheRead: number): PriceRow {
  return { family, vendor: 'openai', pattern, input, cacheWrite: input, cacheRead };
}

const PRICES: readonly PriceRow[] = [
  anthropic('Claude Opus 4.5–4.8', /^claude-(?:opus-4[-.][5-8]|4[-.][5-8]-opus)(?![-.]?\d(?!\d{7}))/, 5, 6.25, 0.5),
  anthropic('Claude Opus 4 / 4.1', /^claude-(?:opus-4(?:[-.]1)?|4(?:[-.]1)?-opus)(?![-.]?\d(?!\d{7}))/, 15, 18.75, 1.5),
  anthropic('Claude Sonnet 3.7–4.6', /^claude-(?:sonnet-(?:4(?:[-.][5-6])?|3[-.]7)|(?:4(?:[-.][5-6])?|3[-.]7)-sonnet)(?![-.]?\d(?!\d{7}))/, 3, 3.75, 0.3),
  anthropic('Claude Haiku 4.5', /^claude-(?:haiku-4[-.]5|4[-.]5-haiku)/, 1, 1.25, 0.1),
  anthropic('Claude Haiku 3.5', /^claude-(?:3[-.]5-haiku|haiku-3[-.]5)/, 0.8, 1, 0.08),
  anthropic('Claude Haiku 3', /^claude-3-haiku/, 0.25, 0.3, 0.03),
  openai('GPT-5 nano', /^gpt-5-nano/, 0.05, 0.005),
  openai('GPT-5 mini', /^gpt-5-mini/, 0.25, 0.025),
  openai('GPT-5', /^gpt-5(?:-\d{4}-\d\d-\d\d|-codex)?$/, 1.25, 0.125),
  openai('GPT-4.1 nano', /^gpt-4\.1-nano/, 0.1, 0.025),
  openai('GPT-4.1 mini', /^gpt-4\.1-mini/, 0.4, 0.1),
  openai('GPT-4.1', /^gpt-4\.1(?:-\d{4}-\d\d-\d\d)?$/, 2, 0.5),
  openai('GPT-4o mini', /^gpt-4o-mini/, 0.15, 0.075),
  openai('GPT-4o', /^gpt-4o(?:-\d{4}-\d\d-\d\d)?$/, 2.5, 1.25),
  openai('o4-mini', /^o4-mini/, 1.1, 0.275),
  openai('o3', /^o3(?:-\d{4}-\d\d-\d\d)?$/, 2, 0.5),
];

/** The prices of `model`, or undefined when the table does not list it. */
export function modelPrice(model: string | undefined): ModelPrice | undefined {
  if (!model?.trim()) return undefined;
  for (const id of modelIdCandidates(model)) {
    const row = PRICES.find((r) => r.pattern.test(id));
    if (row) {
      const { pattern: _pattern, ...price } = row;
      return { ...price, source: PRICE_SOURCES[row.vendor], readOn: PRICES_READ_ON };
    }
  }
  return undefined;
}
