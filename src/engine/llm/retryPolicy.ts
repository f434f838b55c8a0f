// Retries for transient failures (rate limit, 5xx, network, timeout): exponential backoff
// with a cap, or exactly what the server asked for in retry-after. No jitter: one person's
// editor is not a thundering herd, and a deterministic schedule is testable. The sleep is
// injected so tests run instantly and so cancelling also cuts a pause short.

import { cancelledError, isTransient, MAX_HONOURED_RETRY_AFTER_MS, toSummarizerError, type SummarizerError } from './errors';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Pause before the first retry; doubles each time. */
  baseDelayMs: number;
  /** Longest computed pause. */
  maxDelayMs: number;
  /** Longest retry-after we wait for; a server asking for more ends the attempt. */
  maxRetryAfterMs: number;
}

/** Two retries (three requests) with 1 s, 2 s pauses, capped at 8 s; retry-after up to 60 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 1_000,
  maxDelayMs: 8_000,
  maxRetryAfterMs: MAX_HONOURED_RETRY_AFTER_MS,
};

/** Multiplier between consecutive backoff pauses. */
export const BACKOFF_FACTOR = 2;

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A real pause that ends early (rejecting with 'cancelled') when the signal fires. */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancelledError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Pause before retry number `retry` (0-based) when the server gave no retry-after. */
export function backoffDelay(retry: number, policy: RetryPolicy): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * BACKOFF_FACTOR ** retry);
}

export interface RetryEvent {
  /** 1 for the first retry. */
  retry: number;
  error: SummarizerError;
  delayMs: number;
  /** Whether the pause came from the server's retry-after. */
  fromRetryAfter: boolean;
}

export interface RetryOptions {
  policy: RetryPolicy;
  sleep: Sleep;
  signal?: AbortSignal;
  onRetry?: (e: RetryEvent) => void;
}

export interface Retried<T> {
  value: T;
  retries: number;
}

/**
 * Runs `attempt` until it succeeds, fails with a non-transient error, or the retries run out.
 * Always rejects with a SummarizerError whose `retries` says how many were spent.
 */
export async function withRetries<T>(attempt: () => Promise<T>, opts: RetryOptions): Promise<Retried<T>> {
  let retries = 0;
  for (;;) {
    if (opts.signal?.aborted) throw withCount(cancelledError(), retries);
    try {
      return { value: await attempt(), retries };
    } catch (e) {
      const err = toSummarizerError(e, opts.signal);
      if (err.kind === 'cancelled' || !isTransient(err.kind) || retries >= opts.policy.maxRetries) throw withCount(err, retries);
      const asked = err.retryAfterMs;
      if (asked !== undefined && asked > opts.policy.maxRetryAfterMs) throw withCount(err, retries);
      const delayMs = asked ?? backoffDelay(retries, opts.policy);
      retries++;
      opts.onRetry?.({ retry: retries, error: err, delayMs, fromRetryAfter: asked !== undefined });
      try {
        await opts.sleep(delayMs, opts.signal);
      } catch (sleepErr) {
        throw withCount(toSummarizerError(sleepErr, opts.signal), retries);
      }
    }
  }
}

function withCount(e: SummarizerError, retries: number): SummarizerError {
  e.retries = retries;
  return e;
}
