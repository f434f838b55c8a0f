// Model ids → tokenizer, context window and output reserve. First match wins; patterns are
// matched against the lower-cased id with any provider prefix ("openai/", "anthropic.") removed.

import type { CountMethod, EncodingName } from './tokenCounter';

export interface ModelInfo {
  /** The id that was asked for (or the default). */
  id: string;
  family: string;
  encoding: EncodingName | 'estimate';
  method: CountMethod;
  contextWindow: number;
  /** Tokens reserved for the reply; the usable input window is contextWindow − outputReserve. */
  outputReserve: number;
  /** Which rule matched: a family name, 'override' or 'fallback'. */
  matched: string;
}

interface Rule {
  family: string;
  pattern: RegExp;
  encoding: EncodingName | 'estimate';
  method: CountMethod;
  contextWindow: number;
  outputReserve: number;
}

// Windows as published by each vendor for the listed families.
const RULES: Rule[] = [
  { family: 'gpt-5', pattern: /^gpt-5/, encoding: 'o200k_base', method: 'exact', contextWindow: 400_000, outputReserve: 128_000 },
  { family: 'gpt-4.1', pattern: /^gpt-4\.1/, encoding: 'o200k_base', method: 'exact', contextWindow: 1_047_576, outputReserve: 32_768 },
  { family: 'gpt-4o', pattern: /^(gpt-4o|chatgpt-4o)/, encoding: 'o200k_base', method: 'exact', contextWindow: 128_000, outputReserve: 16_384 },
  { family: 'o-series', pattern: /^o[134](-|$)/, encoding: 'o200k_base', method: 'exact', contextWindow: 200_000, outputReserve: 100_000 },
  { family: 'gpt-4-turbo', pattern: /^gpt-4-(turbo|\d{4}-preview|vision)/, encoding: 'cl100k_base', method: 'exact', contextWindow: 128_000, outputReserve: 4_096 },
  { family: 'gpt-4-32k', pattern: /^gpt-4-32k/, encoding: 'cl100k_base', method: 'exact', contextWindow: 32_768, outputReserve: 4_096 },
  { family: 'gpt-4', pattern: /^gpt-4(-\d{4})?$/, encoding: 'cl100k_base', method: 'exact', contextWindow: 8_192, outputReserve: 2_048 },
  { family: 'gpt-3.5', pattern: /^gpt-3\.5|^gpt-35/, encoding: 'cl100k_base', method: 'exact', contextWindow: 16_385, outputReserve: 4_096 },
  { family: 'claude', pattern: /^claude/, encoding: 'o200k_base', method: 'proxy', contextWindow: 200_000, outputReserve: 32_000 },
  { family: 'gemini', pattern: /^gemini/, encoding: 'o200k_base', method: 'proxy', contextWindow: 1_048_576, outputReserve: 65_536 },
  { family: 'deepseek', pattern: /^deepseek/, encoding: 'o200k_base', method: 'proxy', contextWindow: 128_000, outputReserve: 8_192 },
  { family: 'qwen', pattern: /^qwen|^qwq/, encoding: 'o200k_base', method: 'proxy', contextWindow: 131_072, outputReserve: 8_192 },
  { family: 'llama', pattern: /llama/, encoding: 'o200k_base', method: 'proxy', contextWindow: 128_000, outputReserve: 4_096 },
];

export const DEFAULT_MODEL = 'gpt-4o';

/** Unknown ids: a CJK-aware estimate against a conservative window. */
const FALLBACK: Omit<ModelInfo, 'id'> = {
  family: 'unknown',
  encoding: 'estimate',
  method: 'estimate',
  contextWindow: 128_000,
  outputReserve: 4_096,
  matched: 'fallback',
};

export interface ModelOverride {
  contextWindow?: number;
  outputReserve?: number;
}

export function normalizeModelId(id: string): string {
  let s = id.trim().toLowerCase();
  s = s.replace(/^(openai|anthropic|google|azure|openrouter|deepseek|meta|qwen|bedrock|vertex)[/.:]/, '');
  s = s.replace(/^[a-z0-9-]+\//, '');
  s = s.replace(/^(us|eu|apac)\.anthropic\./, '').replace(/^anthropic\./, '');
  return s;
}

export function resolveModel(id: string | undefined, override?: ModelOverride): ModelInfo {
  const asked = id && id.trim() ? id.trim() : DEFAULT_MODEL;
  const norm = normalizeModelId(asked);
  const rule = RULES.find((r) => r.pattern.test(norm));
  const base: ModelInfo = rule
    ? { id: asked, family: rule.family, encoding: rule.encoding, method: rule.method, contextWindow: rule.contextWindow, outputReserve: rule.outputReserve, matched: rule.family }
    : { id: asked, ...FALLBACK };
  if (override && (override.contextWindow || override.outputReserve !== undefined)) {
    return {
      ...base,
      contextWindow: override.contextWindow ?? base.contextWindow,
      outputReserve: override.outputReserve ?? base.outputReserve,
      matched: 'override',
    };
  }
  return base;
}
