// Model ids → tokenizer, context window and output reserve.
//
// Ids arrive in many spellings: bare (`gpt-4o`), provider-prefixed (`openai/gpt-4o`,
// `anthropic/claude-3.5-sonnet`), Bedrock (`us.anthropic.claude-3-5-sonnet-20241022-v2:0`),
// Vertex (`claude-3-5-sonnet-v2@20241022`), Hugging Face (`Qwen/Qwen2.5-Coder-32B-Instruct`),
// Ollama tags (`qwen2.5-coder:32b`, `llama3.1:70b`). normalizeModelId() reduces them to the
// lower-cased model name; the first rule whose pattern matches it wins, so specific rules come
// before general ones.
//
// Counting method: 'exact' only where we ship the model's own tokenizer (OpenAI's o200k_base /
// cl100k_base models). Every other vendor's text is counted with o200k_base as a 'proxy' —
// modern BPE vocabularies land within a few percent of each other on code and English, far
// closer than character estimates (TOKENS.md) — and unknown ids get the CJK-aware 'estimate'
// against a conservative 128k window. Reports label proxies and estimates.
//
// Windows are the vendors' published context lengths for each family (input + output).
// outputReserve is the room kept for the reply: the vendor's maximum output where the API
// carves it out of the window (OpenAI GPT-5: 400k = 272k in + 128k out; o-series 100k),
// otherwise the output length clients request by default (Claude ≥ 3.7: 32k, as Claude Code
// asks). Larger variants that need an opt-in (Claude Sonnet 4/4.5's 1M-token beta, Gemini
// 1.5 Pro's 2M) are not assumed: set the window with the maxContextTokens override.

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

export type ModelProvider = 'openai' | 'anthropic' | 'google' | 'deepseek' | 'qwen' | 'meta' | 'mistral' | 'xai';

/** One row of the registry; also what docs and settings list (MODEL_FAMILIES). */
export interface ModelFamily {
  family: string;
  provider: ModelProvider;
  /** Ids this rule is meant for (documentation, and the registry's own tests). */
  examples: readonly string[];
  pattern: RegExp;
  encoding: EncodingName;
  method: Exclude<CountMethod, 'estimate'>;
  contextWindow: number;
  outputReserve: number;
  /** What the user may want to know, e.g. a larger window behind an opt-in. */
  note?: string;
}

/** OpenAI, tokenized exactly. */
function openai(
  family: string,
  pattern: RegExp,
  encoding: EncodingName,
  contextWindow: number,
  outputReserve: number,
  examples: string[],
  note?: string,
): ModelFamily {
  return { family, provider: 'openai', examples, pattern, encoding, method: 'exact', contextWindow, outputReserve, ...(note ? { note } : {}) };
}

/** Everyone else, counted with o200k_base as a proxy. */
function proxy(
  provider: ModelProvider,
  family: string,
  pattern: RegExp,
  contextWindow: number,
  outputReserve: number,
  examples: string[],
  note?: string,
): ModelFamily {
  return { family, provider, examples, pattern, encoding: 'o200k_base', method: 'proxy', contextWindow, outputReserve, ...(note ? { note } : {}) };
}

/** Claude ids name version and tier in either order, with '-' or '.' in the version:
 *  claude-3-5-sonnet, claude-3.5-sonnet, claude-sonnet-4-5, claude-opus-4.1. */
function claude(version: string, tiers = 'opus|sonnet|haiku'): RegExp {
  const v = version.replace('.', '[-.]');
  return new RegExp(`^claude-(?:${v}-(?:${tiers})|(?:${tiers})-${v})(?![-.]?\\d(?!\\d{7}))`);
}

export const MODEL_FAMILIES: readonly ModelFamily[] = [
  // ── OpenAI (o200k_base for GPT-4o and later, cl100k_base for GPT-4 and GPT-3.5) ──
  openai('gpt-5-chat', /^gpt-5(?:\.\d+)?-chat/, 'o200k_base', 128_000, 16_384, ['gpt-5-chat-latest', 'gpt-5.1-chat-latest']),
  openai('gpt-5', /^gpt-5/, 'o200k_base', 400_000, 128_000, ['gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-5-2025-08-07', 'gpt-5-codex', 'gpt-5.1']),
  openai('gpt-4.1', /^gpt-4\.1/, 'o200k_base', 1_047_576, 32_768, ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'gpt-4.1-2025-04-14']),
  openai('gpt-4.5', /^gpt-4\.5/, 'o200k_base', 128_000, 16_384, ['gpt-4.5-preview']),
  openai('gpt-4o', /^(?:chatgpt-)?gpt-4o|^chatgpt-4o/, 'o200k_base', 128_000, 16_384, ['gpt-4o', 'gpt-4o-mini', 'gpt-4o-2024-11-20', 'chatgpt-4o-latest']),
  openai('o1-mini', /^o1-mini/, 'o200k_base', 128_000, 65_536, ['o1-mini', 'o1-mini-2024-09-12']),
  openai('o1-preview', /^o1-preview/, 'o200k_base', 128_000, 32_768, ['o1-preview']),
  openai('o-series', /^o[134](?:-|$)/, 'o200k_base', 200_000, 100_000, ['o1', 'o1-pro', 'o3', 'o3-mini', 'o3-pro', 'o4-mini', 'o4-mini-2025-04-16']),
  openai('codex-mini', /^codex-mini/, 'o200k_base', 200_000, 100_000, ['codex-mini-latest']),
  openai(
    'gpt-oss',
    /^gpt-oss/,
    'o200k_base',
    131_072,
    32_768,
    ['gpt-oss-120b', 'gpt-oss-20b', 'gpt-oss:20b'],
    'o200k_harmony: o200k_base plus chat-format special tokens; ordinary text counts the same',
  ),
  openai('gpt-4-turbo', /^gpt-4-(?:turbo|\d{4}-preview|vision)/, 'cl100k_base', 128_000, 4_096, [
    'gpt-4-turbo',
    'gpt-4-turbo-2024-04-09',
    'gpt-4-1106-preview',
    'gpt-4-0125-preview',
  ]),
  openai('gpt-4-32k', /^gpt-4-32k/, 'cl100k_base', 32_768, 4_096, ['gpt-4-32k', 'gpt-4-32k-0613']),
  openai('gpt-4', /^gpt-4(?:-\d{4})?$/, 'cl100k_base', 8_192, 2_048, ['gpt-4', 'gpt-4-0613']),
  openai('gpt-3.5-instruct', /^gpt-3\.5-turbo-instruct/, 'cl100k_base', 4_096, 1_024, ['gpt-3.5-turbo-instruct']),
  openai('gpt-3.5', /^gpt-3\.5|^gpt-35/, 'cl100k_base', 16_385, 4_096, ['gpt-3.5-turbo', 'gpt-3.5-turbo-0125', 'gpt-35-turbo']),

  // ── Anthropic: 200k windows; proxy-counted ──
  proxy(
    'anthropic',
    'claude-4.5',
    claude('4.5'),
    200_000,
    32_000,
    ['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929', 'claude-haiku-4-5', 'claude-opus-4-5', 'anthropic/claude-sonnet-4.5'],
    'Sonnet 4.5: a 1M-token window in beta, by override only',
  ),
  proxy('anthropic', 'claude-4.1', claude('4.1'), 200_000, 32_000, ['claude-opus-4-1', 'claude-opus-4-1-20250805', 'anthropic/claude-opus-4.1']),
  proxy(
    'anthropic',
    'claude-4',
    claude('4'),
    200_000,
    32_000,
    ['claude-sonnet-4', 'claude-sonnet-4-20250514', 'claude-opus-4-20250514', 'claude-4-sonnet', 'anthropic/claude-sonnet-4'],
    'Sonnet 4: a 1M-token window in beta, by override only',
  ),
  proxy('anthropic', 'claude-3.7', claude('3.7', 'sonnet'), 200_000, 32_000, [
    'claude-3-7-sonnet-20250219',
    'claude-3.7-sonnet',
    'anthropic/claude-3.7-sonnet:thinking',
  ]),
  proxy('anthropic', 'claude-3.5', claude('3.5'), 200_000, 8_192, [
    'claude-3-5-sonnet-20241022',
    'claude-3-5-haiku-20241022',
    'claude-3.5-sonnet',
    'us.anthropic.claude-3-5-sonnet-20241022-v2:0',
    'claude-3-5-sonnet-v2@20241022',
  ]),
  proxy('anthropic', 'claude-3', claude('3'), 200_000, 4_096, [
    'claude-3-opus-20240229',
    'claude-3-sonnet-20240229',
    'claude-3-haiku-20240307',
    'anthropic.claude-3-haiku-20240307-v1:0',
  ]),
  proxy('anthropic', 'claude-2', /^claude-2\.1/, 200_000, 4_096, ['claude-2.1']),
  proxy('anthropic', 'claude-legacy', /^claude-(?:2|instant)/, 100_000, 4_096, ['claude-2.0', 'claude-instant-1.2']),
  proxy('anthropic', 'claude', /^claude/, 200_000, 32_000, ['claude-sonnet-latest', 'claude-opus-5'], 'later Claude models: 200k until listed'),

  // ── Google ──
  proxy('google', 'gemini-2.5+', /^gemini-(?:2\.5|[3-9])/, 1_048_576, 65_536, [
    'gemini-2.5-pro',
    'gemini-2.5-flash',
    'gemini-2.5-flash-lite',
    'gemini-3-pro-preview',
    'google/gemini-2.5-pro',
  ]),
  proxy('google', 'gemini-2.0', /^gemini-2\.0/, 1_048_576, 8_192, ['gemini-2.0-flash', 'gemini-2.0-flash-001', 'gemini-2.0-flash-lite']),
  proxy(
    'google',
    'gemini-1.5',
    /^gemini-1\.5/,
    1_048_576,
    8_192,
    ['gemini-1.5-pro', 'gemini-1.5-flash', 'gemini-1.5-flash-8b'],
    'Gemini 1.5 Pro: 2M tokens, by override',
  ),
  proxy('google', 'gemini-1.0', /^gemini-(?:1\.0-)?pro(?:$|-)/, 32_760, 8_192, ['gemini-1.0-pro', 'gemini-pro']),
  proxy('google', 'gemini', /^gemini/, 1_048_576, 8_192, ['gemini-exp-1206', 'gemini-flash-latest']),
  proxy('google', 'gemma-3', /^gemma-?3/, 131_072, 8_192, ['gemma3:27b', 'gemma-3-27b-it']),
  proxy('google', 'gemma', /^gemma/, 8_192, 2_048, ['gemma2:9b', 'gemma-2-9b-it']),

  // ── DeepSeek (API models 128k since V3; R1 and the reasoner answer at length) ──
  proxy('deepseek', 'deepseek-reasoner', /^deepseek-(?:reasoner|r1)/, 131_072, 32_768, [
    'deepseek-reasoner',
    'deepseek-r1',
    'deepseek-r1:14b',
    'deepseek-ai/deepseek-r1',
    'deepseek/deepseek-r1:free',
  ]),
  proxy('deepseek', 'deepseek-coder-v1', /^deepseek-coder(?!-v2)(?:$|[-:])/, 16_384, 4_096, ['deepseek-coder:6.7b', 'deepseek-coder-33b-instruct']),
  proxy('deepseek', 'deepseek', /^deepseek/, 131_072, 8_192, ['deepseek-chat', 'deepseek-v3', 'deepseek-v3.1', 'deepseek-v3.2-exp', 'deepseek-coder-v2']),

  // ── Qwen (published maxima; several reach them with YaRN scaling) ──
  proxy('qwen', 'qwen3-coder', /^qwen3-coder/, 262_144, 65_536, ['qwen3-coder:30b', 'qwen3-coder-480b-a35b-instruct', 'qwen/qwen3-coder']),
  proxy('qwen', 'qwen-long-context', /^qwen-(?:turbo|plus|flash)/, 1_000_000, 32_768, ['qwen-turbo', 'qwen-plus', 'qwen-flash']),
  proxy('qwen', 'qwen-max', /^qwen-max/, 32_768, 8_192, ['qwen-max']),
  proxy('qwen', 'qwen', /^(?:qwen|qwq)/, 131_072, 8_192, [
    'qwen2.5-coder:32b',
    'qwen2.5-72b-instruct',
    'qwen3:32b',
    'qwen3-235b-a22b',
    'qwq-32b',
    'Qwen/Qwen2.5-Coder-32B-Instruct',
  ]),

  // ── Meta Llama ──
  proxy(
    'meta',
    'llama-4',
    /^(?:meta-)?llama[-_]?4/,
    1_048_576,
    16_384,
    ['llama4:scout', 'llama-4-maverick-17b-128e-instruct', 'meta-llama/llama-4-scout'],
    'Scout advertises 10M tokens; providers serve far less',
  ),
  // 3.1–3.3 (a minor version, not a size such as the 70 of llama-3-70b) before 3.0.
  proxy('meta', 'llama-3.x', /^(?:meta-)?llama[-_]?3[._-]?[1-9](?![0-9]*b)/, 131_072, 4_096, [
    'llama3.1:70b',
    'llama3.2:3b',
    'llama3.3',
    'llama-3.3-70b-instruct',
    'meta-llama/Llama-3.1-8B-Instruct',
    'meta.llama3-1-70b-instruct-v1:0',
  ]),
  proxy('meta', 'llama-3', /^(?:meta-)?llama[-_]?3(?!\d)/, 8_192, 2_048, ['llama3:8b', 'meta-llama/Meta-Llama-3-8B-Instruct', 'llama-3-70b']),
  proxy('meta', 'code-llama', /^code-?llama/, 16_384, 4_096, ['codellama:13b', 'codellama-34b-instruct']),
  proxy('meta', 'llama-2', /^(?:meta-)?llama[-_]?2/, 4_096, 1_024, ['llama2', 'llama-2-70b-chat']),
  proxy('meta', 'llama', /llama/, 131_072, 4_096, ['llama-guard-4', 'tinyllama'], 'other Llama derivatives: assumed 128k'),

  // ── Mistral ──
  proxy('mistral', 'codestral', /^codestral/, 262_144, 8_192, ['codestral-latest', 'codestral-2501']),
  proxy('mistral', 'mixtral', /^mixtral/, 32_768, 4_096, ['mixtral-8x7b-instruct', 'mixtral:8x22b']),
  proxy('mistral', 'mistral-7b', /^mistral(?:-7b|:7b|$|:latest)/, 32_768, 4_096, ['mistral', 'mistral:7b', 'mistral-7b-instruct']),
  proxy('mistral', 'mistral', /^(?:mistral|ministral|magistral|devstral|pixtral)/, 131_072, 8_192, [
    'mistral-large-latest',
    'mistral-small-3.1',
    'mistral-medium-2505',
    'mistral-nemo',
    'devstral-small',
    'mistralai/mistral-large-2411',
  ]),

  // ── xAI ──
  proxy('xai', 'grok-4', /^grok-(?:4|code)/, 256_000, 16_384, ['grok-4', 'grok-code-fast-1', 'x-ai/grok-4']),
  proxy('xai', 'grok', /^grok/, 131_072, 8_192, ['grok-3', 'grok-3-mini']),
];

export const DEFAULT_MODEL = 'gpt-4o';

/** Unknown ids: a CJK-aware estimate against a conservative window. */
export const FALLBACK_CONTEXT_WINDOW = 128_000;
export const FALLBACK_OUTPUT_RESERVE = 4_096;

const FALLBACK: Omit<ModelInfo, 'id'> = {
  family: 'unknown',
  encoding: 'estimate',
  method: 'estimate',
  contextWindow: FALLBACK_CONTEXT_WINDOW,
  outputReserve: FALLBACK_OUTPUT_RESERVE,
  matched: 'fallback',
};

/** The user's settings. A missing, zero, negative or non-finite number means "from the model"
 *  (the contextCompactor.maxContextTokens setting uses 0 for that). */
export interface ModelOverride {
  /** The context window to use instead of the model's (the maxContextTokens setting). */
  maxContextTokens?: number;
  /** The same, under the ModelInfo field's name; maxContextTokens wins when both are set. */
  contextWindow?: number;
  outputReserve?: number;
}

/** Provider or router prefixes: `openai/gpt-4o`, `openrouter/anthropic/…`, `openai:gpt-4o`
 *  (pydantic-ai), `ft:gpt-4o-mini:org::id` (OpenAI fine-tunes). */
const PROVIDER_PREFIX =
  /^(?:openai|anthropic|google|google-gla|google-vertex|vertex_ai|vertex|gemini|azure|azure_ai|openrouter|deepseek|deepseek-ai|meta|meta-llama|qwen|mistral|mistralai|x-ai|xai|bedrock|ollama|groq|together|together_ai|fireworks|fireworks_ai|huggingface|hf|models|github|copilot|lmstudio|lm-studio|vllm|ft)[/:]/;
/** Bedrock: `[region.]vendor.model-vN:M`. */
const BEDROCK = /^(?:(?:us|eu|apac|us-gov|global|jp|au)\.)?(?:anthropic|meta|mistral|amazon|cohere|ai21|deepseek|qwen|openai|writer)\./;

/** Readings of an id, the most reduced first: prefixes, paths and Bedrock vendor names
 *  removed; then the id as written (so an Ollama tag such as `qwen:14b`, whose name looks
 *  like a prefix, still resolves). */
export function modelIdCandidates(id: string): string[] {
  const lower = id.trim().toLowerCase();
  let s = lower;
  for (let prev = ''; prev !== s;) {
    prev = s;
    s = s.replace(PROVIDER_PREFIX, '');
  }
  // Paths such as accounts/fireworks/models/x or Qwen/Qwen2.5-…: the model is the last segment.
  const slash = s.lastIndexOf('/');
  if (slash >= 0) s = s.slice(slash + 1);
  s = s.replace(BEDROCK, '');
  const out = [s];
  const lastSegment = lower.slice(lower.lastIndexOf('/') + 1);
  if (lastSegment !== s) out.push(lastSegment);
  if (lower !== s && lower !== lastSegment) out.push(lower);
  return out;
}

/** The lower-cased model name behind provider prefixes, paths and Bedrock vendor prefixes. */
export function normalizeModelId(id: string): string {
  return modelIdCandidates(id)[0]!;
}

function findFamily(id: string): ModelFamily | undefined {
  for (const candidate of modelIdCandidates(id)) {
    const rule = MODEL_FAMILIES.find((r) => r.pattern.test(candidate));
    if (rule) return rule;
  }
  return undefined;
}

function positive(n: number | undefined): number | undefined {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
}

export function resolveModel(id: string | undefined, override?: ModelOverride): ModelInfo {
  const asked = id && id.trim() ? id.trim() : DEFAULT_MODEL;
  const rule = findFamily(asked);
  const base: ModelInfo = rule
    ? {
        id: asked,
        family: rule.family,
        encoding: rule.encoding,
        method: rule.method,
        contextWindow: rule.contextWindow,
        outputReserve: rule.outputReserve,
        matched: rule.family,
      }
    : { id: asked, ...FALLBACK };
  const window = positive(override?.maxContextTokens) ?? positive(override?.contextWindow);
  const reserve = override?.outputReserve;
  const reserveSet = typeof reserve === 'number' && Number.isFinite(reserve) && reserve >= 0;
  if (window === undefined && !reserveSet) return base;
  const contextWindow = window ?? base.contextWindow;
  return {
    ...base,
    contextWindow,
    // A reserve larger than the window would leave no input at all: keep half the window.
    outputReserve: Math.min(reserveSet ? Math.floor(reserve) : base.outputReserve, Math.floor(contextWindow / 2)),
    matched: 'override',
  };
}

/** The registry as a table for docs and settings pickers. */
export interface ModelListEntry {
  family: string;
  provider: ModelProvider;
  examples: readonly string[];
  encoding: EncodingName;
  method: Exclude<CountMethod, 'estimate'>;
  contextWindow: number;
  outputReserve: number;
  note?: string;
}

export function listModelFamilies(): ModelListEntry[] {
  return MODEL_FAMILIES.map(({ pattern: _pattern, ...entry }) => entry);
}
