// The model registry decides which tokenizer counts, how big the window is and whether the
// count may be called exact; a wrong row shows the user a wrong gauge.

import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MODEL,
  FALLBACK_CONTEXT_WINDOW,
  listModelFamilies,
  MODEL_FAMILIES,
  normalizeModelId,
  resolveModel,
} from '../../../src/engine/tokens/modelRegistry';

describe('resolveModel: representative ids', () => {
  const cases: [id: string, family: string, encoding: string, method: string, window: number][] = [
    ['gpt-5', 'gpt-5', 'o200k_base', 'exact', 400_000],
    ['gpt-5-mini', 'gpt-5', 'o200k_base', 'exact', 400_000],
    ['gpt-5-nano-2025-08-07', 'gpt-5', 'o200k_base', 'exact', 400_000],
    ['gpt-5-chat-latest', 'gpt-5-chat', 'o200k_base', 'exact', 128_000],
    ['gpt-4.1-mini', 'gpt-4.1', 'o200k_base', 'exact', 1_047_576],
    ['gpt-4o', 'gpt-4o', 'o200k_base', 'exact', 128_000],
    ['gpt-4o-mini', 'gpt-4o', 'o200k_base', 'exact', 128_000],
    ['openai/gpt-4o', 'gpt-4o', 'o200k_base', 'exact', 128_000],
    ['openai:gpt-4o', 'gpt-4o', 'o200k_base', 'exact', 128_000],
    ['ft:gpt-4o-mini-2024-07-18:acme::abc123', 'gpt-4o', 'o200k_base', 'exact', 128_000],
    ['o1', 'o-series', 'o200k_base', 'exact', 200_000],
    ['o1-mini', 'o1-mini', 'o200k_base', 'exact', 128_000],
    ['o3-mini', 'o-series', 'o200k_base', 'exact', 200_000],
    ['o4-mini', 'o-series', 'o200k_base', 'exact', 200_000],
    ['gpt-4-turbo', 'gpt-4-turbo', 'cl100k_base', 'exact', 128_000],
    ['gpt-4', 'gpt-4', 'cl100k_base', 'exact', 8_192],
    ['gpt-4-0613', 'gpt-4', 'cl100k_base', 'exact', 8_192],
    ['gpt-3.5-turbo', 'gpt-3.5', 'cl100k_base', 'exact', 16_385],
    ['anthropic/claude-sonnet-4', 'claude-4', 'o200k_base', 'proxy', 200_000],
    ['claude-sonnet-4-20250514', 'claude-4', 'o200k_base', 'proxy', 200_000],
    ['claude-opus-4-1-20250805', 'claude-4.1', 'o200k_base', 'proxy', 200_000],
    ['claude-sonnet-4-5', 'claude-4.5', 'o200k_base', 'proxy', 200_000],
    ['claude-haiku-4-5-20251001', 'claude-4.5', 'o200k_base', 'proxy', 200_000],
    ['claude-3-7-sonnet-20250219', 'claude-3.7', 'o200k_base', 'proxy', 200_000],
    ['claude-3.5-sonnet', 'claude-3.5', 'o200k_base', 'proxy', 200_000],
    ['us.anthropic.claude-3-5-sonnet-20241022-v2:0', 'claude-3.5', 'o200k_base', 'proxy', 200_000],
    ['claude-3-5-sonnet-v2@20241022', 'claude-3.5', 'o200k_base', 'proxy', 200_000],
    ['anthropic.claude-3-haiku-20240307-v1:0', 'claude-3', 'o200k_base', 'proxy', 200_000],
    ['gemini-2.5-pro', 'gemini-2.5+', 'o200k_base', 'proxy', 1_048_576],
    ['models/gemini-2.0-flash-001', 'gemini-2.0', 'o200k_base', 'proxy', 1_048_576],
    ['gemini-1.5-flash', 'gemini-1.5', 'o200k_base', 'proxy', 1_048_576],
    ['deepseek-chat', 'deepseek', 'o200k_base', 'proxy', 131_072],
    ['deepseek-reasoner', 'deepseek-reasoner', 'o200k_base', 'proxy', 131_072],
    ['deepseek-ai/DeepSeek-R1', 'deepseek-reasoner', 'o200k_base', 'proxy', 131_072],
    ['deepseek-v3', 'deepseek', 'o200k_base', 'proxy', 131_072],
    ['qwen2.5-coder:32b', 'qwen', 'o200k_base', 'proxy', 131_072],
    ['qwen:14b', 'qwen', 'o200k_base', 'proxy', 131_072],
    ['Qwen/Qwen3-Coder-480B-A35B-Instruct', 'qwen3-coder', 'o200k_base', 'proxy', 262_144],
    ['qwq-32b', 'qwen', 'o200k_base', 'proxy', 131_072],
    ['llama3.1:70b', 'llama-3.x', 'o200k_base', 'proxy', 131_072],
    ['llama3:8b', 'llama-3', 'o200k_base', 'proxy', 8_192],
    ['llama-3-70b', 'llama-3', 'o200k_base', 'proxy', 8_192],
    ['meta-llama/Llama-3.3-70B-Instruct', 'llama-3.x', 'o200k_base', 'proxy', 131_072],
    ['meta.llama3-1-70b-instruct-v1:0', 'llama-3.x', 'o200k_base', 'proxy', 131_072],
    ['llama4:scout', 'llama-4', 'o200k_base', 'proxy', 1_048_576],
    ['mistral-large-latest', 'mistral', 'o200k_base', 'proxy', 131_072],
    ['mistral:7b', 'mistral-7b', 'o200k_base', 'proxy', 32_768],
  ];
  for (const [id, family, encoding, method, window] of cases) {
    it(`${id} → ${family} (${encoding}, ${method}, ${window})`, () => {
      const m = resolveModel(id);
      expect(m).toMatchObject({ id, family, encoding, method, contextWindow: window, matched: family });
      expect(m.outputReserve).toBeGreaterThan(0);
      expect(m.outputReserve).toBeLessThan(m.contextWindow);
    });
  }

  it('1M-context variants are not assumed: Claude Sonnet 4 stays at 200k', () => {
    expect(resolveModel('claude-sonnet-4-5[1m]').contextWindow).toBe(200_000);
    expect(resolveModel('claude-sonnet-4', { maxContextTokens: 1_000_000 }).contextWindow).toBe(1_000_000);
  });
});

describe('resolveModel: fallback, default and override', () => {
  it('an unknown id is an estimate against a 128k window', () => {
    for (const id of ['my-private-model', 'azure-deployment-7', '<synthetic>']) {
      const m = resolveModel(id);
      expect(m).toMatchObject({ id, family: 'unknown', encoding: 'estimate', method: 'estimate', contextWindow: FALLBACK_CONTEXT_WINDOW, matched: 'fallback' });
    }
    expect(FALLBACK_CONTEXT_WINDOW).toBe(128_000);
  });

  it('no id means the default model', () => {
    expect(resolveModel(undefined).id).toBe(DEFAULT_MODEL);
    expect(resolveModel('  ').family).toBe(resolveModel(DEFAULT_MODEL).family);
  });

  it('maxContextTokens replaces the window; 0 means "from the model"', () => {
    const m = resolveModel('gpt-4o', { maxContextTokens: 64_000 });
    expect(m).toMatchObject({ contextWindow: 64_000, matched: 'override', encoding: 'o200k_base', method: 'exact' });
    expect(resolveModel('gpt-4o', { maxContextTokens: 0 })).toEqual(resolveModel('gpt-4o'));
    expect(resolveModel('gpt-4o', { maxContextTokens: Number.NaN, contextWindow: -5 })).toEqual(resolveModel('gpt-4o'));
    expect(resolveModel('gpt-4o', { contextWindow: 50_000 }).contextWindow).toBe(50_000);
  });

  it('an override keeps the counting method of an unknown model (still an estimate)', () => {
    expect(resolveModel('my-model', { maxContextTokens: 32_000 })).toMatchObject({ method: 'estimate', contextWindow: 32_000 });
  });

  it('the output reserve can be overridden but never exceeds half the window', () => {
    expect(resolveModel('gpt-4o', { outputReserve: 1_000 }).outputReserve).toBe(1_000);
    expect(resolveModel('gpt-5', { maxContextTokens: 100_000 }).outputReserve).toBe(50_000);
    expect(resolveModel('gpt-4o', { outputReserve: 0 }).outputReserve).toBe(0);
  });
});

describe('registry table', () => {
  it('every documented example resolves to its own row', () => {
    const wrong: string[] = [];
    for (const f of MODEL_FAMILIES) {
      for (const id of f.examples) {
        const got = resolveModel(id).family;
        if (got !== f.family) wrong.push(`${id}: expected ${f.family}, got ${got}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('only OpenAI models are exact; everything else is an o200k proxy', () => {
    for (const f of MODEL_FAMILIES) {
      if (f.provider === 'openai') expect(f.method, f.family).toBe('exact');
      else expect([f.method, f.encoding], f.family).toEqual(['proxy', 'o200k_base']);
    }
  });

  it('families are unique and the list for docs carries no regexes', () => {
    const names = MODEL_FAMILIES.map((f) => f.family);
    expect(new Set(names).size).toBe(names.length);
    const list = listModelFamilies();
    expect(list).toHaveLength(MODEL_FAMILIES.length);
    expect(JSON.parse(JSON.stringify(list))).toEqual(list);
    expect(list.find((e) => e.family === 'claude-4')?.note).toMatch(/1M/);
  });

  it('normalizes provider prefixes, paths and Bedrock names', () => {
    expect(normalizeModelId(' OpenAI/GPT-4o ')).toBe('gpt-4o');
    expect(normalizeModelId('openrouter/anthropic/claude-3.5-sonnet')).toBe('claude-3.5-sonnet');
    expect(normalizeModelId('accounts/fireworks/models/llama-v3p1-70b-instruct')).toBe('llama-v3p1-70b-instruct');
    expect(normalizeModelId('eu.anthropic.claude-3-7-sonnet-20250219-v1:0')).toBe('claude-3-7-sonnet-20250219-v1:0');
  });
});
