// When to compact (seed 003, seed 001, seed 004 §2.2): the size trigger (tokens ≥ 80% of the
// window), the remaining-room trigger (less than 25% of the window left), the turn-count
// trigger, and the two checks an agent loop runs — before a request (the estimated size of the
// next request plus a safety buffer) and after it (the usage the API reported).

export const TRIGGER_DEFAULTS = {
  /** Seed 003: compact when the conversation reaches this share of the context window. */
  triggerRatio: 0.8,
  /** Seed 001: compact when less than this share of the window is left. */
  minRemainingRatio: 0.25,
  /** Seed 004 §2.2: the pre-check adds this share of the estimate as a safety buffer (token
   *  estimates of tool output and images run low). */
  safetyBufferRatio: 0.1,
} as const;

export interface TriggerOptions {
  /** The model's context window, in tokens. */
  contextWindow: number;
  triggerRatio?: number;
  minRemainingRatio?: number;
  /** Compact when the conversation has this many user turns or more (seed 001 §3). */
  turnThreshold?: number;
  /** Tokens reserved for the reply (left out of the room). */
  reservedOutput?: number;
}

export type TriggerReason = 'ratio' | 'remaining' | 'turns' | 'none';

export interface TriggerDecision {
  compact: boolean;
  reason: TriggerReason;
  /** One line a person can read. */
  detail: string;
  tokens: number;
  contextWindow: number;
  /** tokens / contextWindow. */
  usage: number;
}

export class TriggerInputError extends Error {
  override name = 'TriggerInputError';
}

function check(name: string, v: number | undefined, lo: number, hi: number): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) throw new TriggerInputError(`${name}: expected a number in [${lo}, ${hi}], got ${String(v)}`);
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Should a conversation of `tokens` tokens (and `turns` user turns) be compacted now? */
export function shouldCompact(tokens: number, opts: TriggerOptions, turns = 0): TriggerDecision {
  if (typeof opts?.contextWindow !== 'number' || !(opts.contextWindow > 0)) throw new TriggerInputError(`contextWindow: expected a positive number of tokens, got ${String(opts?.contextWindow)}`);
  check('tokens', tokens, 0, Number.MAX_SAFE_INTEGER);
  check('triggerRatio', opts.triggerRatio, 0, 1);
  check('minRemainingRatio', opts.minRemainingRatio, 0, 1);
  const window = opts.contextWindow;
  const ratio = opts.triggerRatio ?? TRIGGER_DEFAULTS.triggerRatio;
  const minRemaining = opts.minRemainingRatio ?? TRIGGER_DEFAULTS.minRemainingRatio;
  const usable = Math.max(1, window - (opts.reservedOutput ?? 0));
  const usage = tokens / window;
  const base = { tokens, contextWindow: window, usage };
  if (tokens >= ratio * window) return { ...base, compact: true, reason: 'ratio', detail: `${tokens} tokens is ${pct(usage)} of the ${window}-token window (trigger at ${pct(ratio)})` };
  const remaining = usable - tokens;
  if (remaining < minRemaining * window) return { ...base, compact: true, reason: 'remaining', detail: `${Math.max(0, remaining)} tokens left, under ${pct(minRemaining)} of the window` };
  if (opts.turnThreshold !== undefined && opts.turnThreshold > 0 && turns >= opts.turnThreshold) return { ...base, compact: true, reason: 'turns', detail: `${turns} turns reach the threshold of ${opts.turnThreshold}` };
  return { ...base, compact: false, reason: 'none', detail: `${pct(usage)} of the window used; under every trigger` };
}

/** Pre-check before a request (seed 004 §2.2 precheck_and_compact): the current tokens plus the
 *  estimated size of what is about to be added (a tool result, the next user message), with a
 *  safety buffer on that estimate. */
export function preCheck(currentTokens: number, estimatedAddition: number, opts: TriggerOptions & { safetyBufferRatio?: number }, turns = 0): TriggerDecision & { estimatedNext: number } {
  check('estimatedAddition', estimatedAddition, 0, Number.MAX_SAFE_INTEGER);
  const buffer = opts.safetyBufferRatio ?? TRIGGER_DEFAULTS.safetyBufferRatio;
  const estimatedNext = Math.ceil(currentTokens + estimatedAddition * (1 + buffer));
  const d = shouldCompact(estimatedNext, opts, turns);
  return { ...d, estimatedNext, detail: `pre-check (estimate with a ${pct(buffer)} buffer): ${d.detail}` };
}

/** Post-check after a response (seed 004 §2.2 check_and_compact): the prompt tokens the API
 *  reported (plus the reply, which joins the history). */
export function postCheck(usage: { promptTokens: number; completionTokens?: number }, opts: TriggerOptions, turns = 0): TriggerDecision {
  const actual = usage.promptTokens + (usage.completionTokens ?? 0);
  const d = shouldCompact(actual, opts, turns);
  return { ...d, detail: `post-check (reported usage): ${d.detail}` };
}
