// When to compact: when a conversation reaches a share of its model's context window (0.8 by
// default: the rest is room for the reply and the next turn). One rule for everything that
// asks — the extension's meter, proposal and chat participant, and any other caller.

export const TRIGGER_DEFAULTS = {
  /** Compact when the conversation reaches this share of the context window. */
  triggerRatio: 0.8,
} as const;

/** Floating-point slack: 0.8 − 0.1 is 0.7000000000000001, and 700 of 1,000 tokens must count as 70%. */
const RATIO_EPSILON = 1e-9;

export interface TriggerOptions {
  /** The model's context window, in tokens. */
  contextWindow: number;
  triggerRatio?: number;
}

export interface TriggerDecision {
  compact: boolean;
  /** One line a person can read. */
  detail: string;
  tokens: number;
  contextWindow: number;
  /** tokens / contextWindow. */
  usage: number;
  /** Tokens at which compaction is due: triggerRatio × contextWindow, rounded down. */
  thresholdTokens: number;
}

export class TriggerInputError extends Error {
  override name = 'TriggerInputError';
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Should a conversation of `tokens` tokens be compacted now? */
export function shouldCompact(tokens: number, opts: TriggerOptions): TriggerDecision {
  if (typeof opts?.contextWindow !== 'number' || !(opts.contextWindow > 0))
    throw new TriggerInputError(`contextWindow: expected a positive number of tokens, got ${String(opts?.contextWindow)}`);
  if (typeof tokens !== 'number' || !(tokens >= 0)) throw new TriggerInputError(`tokens: expected a number ≥ 0, got ${String(tokens)}`);
  const ratio = opts.triggerRatio ?? TRIGGER_DEFAULTS.triggerRatio;
  if (typeof ratio !== 'number' || !(ratio >= 0 && ratio <= 1)) throw new TriggerInputError(`triggerRatio: expected a number in [0, 1], got ${String(ratio)}`);
  const window = opts.contextWindow;
  const usage = tokens / window;
  const compact = usage >= ratio - RATIO_EPSILON;
  const detail = compact
    ? `${tokens} tokens is ${pct(usage)} of the ${window}-token window (trigger at ${pct(ratio)})`
    : `${pct(usage)} of the ${window}-token window used; the trigger is at ${pct(ratio)}`;
  return { compact, detail, tokens, contextWindow: window, usage, thresholdTokens: Math.floor(window * ratio) };
}
