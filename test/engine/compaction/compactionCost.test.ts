// What compacting costs: the messages after compaction written to the prompt cache again at the
// next request (where it would have read the old ones), against the tokens saved on each later
// request, priced from the dated model table; and the table itself (ids as the agents spell them,
// an unknown model has no price).
import { describe, expect, it } from 'vitest';
import { compactionCost } from '../../../src/engine/compactionCost';
import { compactionFigures } from '../../../src/engine/figures';
import { modelPrice, PRICES_READ_ON } from '../../../src/engine/tokens/modelPrices';

describe('model prices', () => {
  it('reads the agents’ model ids, with the date and source of the prices', () => {
    expect(modelPrice('claude-opus-4-20250514')).toMatchObject({ family: 'Claude Opus 4 / 4.1', input: 15, cacheWrite: 18.75, cacheRead: 1.5 });
    expect(modelPrice('claude-opus-4-1-20250805')!.family).toBe('Claude Opus 4 / 4.1');
    expect(modelPrice('claude-opus-4-5')!.input).toBe(5);
    expect(modelPrice('claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, cacheWrite: 3.75, cacheRead: 0.3 });
    expect(modelPrice('us.anthropic.claude-3-7-sonnet-20250219-v1:0')!.family).toBe('Claude Sonnet 3.7–4.6');
    expect(modelPrice('anthropic/claude-haiku-4.5')!.input).toBe(1);
    expect(modelPrice('claude-3-5-haiku-20241022')!.input).toBe(0.8);
    expect(modelPrice('gpt-4o-2024-11-20')).toMatchObject({ family: 'GPT-4o', input: 2.5, cacheWrite: 2.5, cacheRead: 1.25 });
    expect(modelPrice('gpt-4o-mini')!.family).toBe('GPT-4o mini');
    expect(modelPrice('openai/gpt-5')!.cacheRead).toBe(0.125);
    expect(modelPrice('gpt-5-mini')!.family).toBe('GPT-5 mini');
    expect(modelPrice('claude-sonnet-4-5')).toMatchObject({ readOn: PRICES_READ_ON, source: 'https://platform.claude.com/docs/en/about-claude/pricing' });
    for (const unknown of ['qwen3-coder:30b', 'gemini-2.5-pro', 'my-model', '', undefined]) expect(modelPrice(unknown)).toBeUndefined();
  });
});

describe('what compacting costs', () => {
  // kiliman's compaction: 41,078 → 11,984 in the file, 28,744 of each not in the file.
  const figures = compactionFigures({ overhead: 28_744, window: 200_000 }, { tokensBefore: 41_078, tokensAfter: 11_984 });

  it('in tokens: the messages after compaction are written again; each later request sends the difference fewer', () => {
    const c = compactionCost(figures);
    expect(c).toEqual({ rewritten: 11_984, wouldRead: 41_078, savedPerRequest: 29_094 });
  });

  it('priced: the next request pays the cache write instead of the cache read, and the savings repay it after a few requests', () => {
    const c = compactionCost(figures, modelPrice('claude-sonnet-4-5'));
    // 11,984 × $3.75 − 41,078 × $0.30 per million = $0.0326; each later request 29,094 × $0.30 = $0.0087.
    expect(c.dollars!.extraAtNext).toBeCloseTo((11_984 * 3.75 - 41_078 * 0.3) / 1e6, 10);
    expect(c.dollars!.savedPerRequest).toBeCloseTo((29_094 * 0.3) / 1e6, 10);
    expect(c.paysOffAfter).toBe(4);
    // OpenAI has no write premium: cheaper at once.
    expect(compactionCost(figures, modelPrice('gpt-4o')).paysOffAfter).toBe(0);
  });

  it('a compaction that saves nothing never pays off, and says so', () => {
    const none = compactionFigures({ overhead: 0, window: 200_000 }, { tokensBefore: 1_000, tokensAfter: 1_000 });
    const c = compactionCost(none, modelPrice('claude-sonnet-4-5'));
    expect(c.savedPerRequest).toBe(0);
    expect(c.paysOffAfter).toBeUndefined();
  });
});
