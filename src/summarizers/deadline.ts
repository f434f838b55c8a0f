// Time limits for the LLM summarizers, so a silent or stalled server cannot hang a compaction.
//
//   - One request (RequestDeadline): a total that covers the whole exchange — connecting, the
//     headers, the body and every chunk of a stream — and an idle limit between two pieces of the
//     reply once it has started. Either one aborts the request (the socket is torn down), and the
//     request fails as a 'timeout' that says which limit it hit. The caller's signal still
//     cancels as before.
//   - One summarization (createBudgetedSummarizer): every request, retry and pause of one
//     summarize() call fits one total (`--timeout`): each request gets at most what is left, and
//     no retry starts, nor a pause before one, that the rest of the budget cannot hold.
//
// Both the OpenAI-compatible client and the VS Code language-model adapter use them.

import { SummarizerError } from '../engine/llm/errors';
import type { LlmClient, LlmCompletion, LlmCompletionRequest } from '../engine/llm/llmClient';
import { abortableSleep, type Sleep } from '../engine/llm/retryPolicy';
import { createValidatedSummarizer, type ValidatedSummarizerOptions } from '../engine/llm/validatedSummarizer';
import type { Summarizer } from '../engine/summarizer';

/** The whole summarization, every request, retry and pause included (`--timeout`). A summary of a
 *  long span can take a local model minutes; a hosted one answers far sooner. */
export const DEFAULT_TOTAL_TIMEOUT_MS = 300_000;
/** Longest silence between two pieces of a reply that has started: a stream that stalls. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** Seconds for messages: 0.3 s, 5 s, 300 s. */
export function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

export type DeadlineExpiry = 'total' | 'idle';

export interface RequestDeadlineOptions {
  /** The caller's cancel: aborts the request too, and is then reported as a cancel, not a timeout. */
  signal?: AbortSignal;
  /** Longest the whole request may take. */
  totalMs: number;
  /** Longest pause between two pieces of the reply, once the first has arrived. */
  idleMs?: number;
}

/** The limits of one request: pass `signal` to the transport, call `received()` whenever a piece
 *  of the reply arrives, `dispose()` when done. */
export class RequestDeadline {
  private readonly controller = new AbortController();
  private readonly totalTimer: ReturnType<typeof setTimeout>;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly onCallerAbort = () => this.controller.abort(this.options.signal?.reason);
  /** Which limit fired, if one did. */
  expired: DeadlineExpiry | undefined;
  /** Pieces of the reply received so far (stream chunks, body reads), and their characters. */
  pieces = 0;
  chars = 0;

  constructor(readonly options: RequestDeadlineOptions) {
    this.totalTimer = setTimeout(() => this.expire('total'), Math.max(0, options.totalMs));
    if (options.signal?.aborted) this.onCallerAbort();
    else options.signal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /** Aborts on the caller's cancel and on either limit. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The controller behind `signal`, for transports that want one (the SDK's SSE reader). */
  get abortController(): AbortController {
    return this.controller;
  }

  /** A piece of the reply arrived (`chars` long): the idle clock starts over. Headers are no
   *  piece: a local model may send them at once and think for minutes before the first token. */
  received(chars = 0): void {
    this.pieces++;
    this.chars += chars;
    if (this.options.idleMs === undefined || this.controller.signal.aborted) return;
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.expire('idle'), Math.max(0, this.options.idleMs));
  }

  /** The timeout error for the limit that fired, in words: which limit, and how much had arrived. */
  timeoutError(who: string): SummarizerError {
    const got = this.chars > 0 ? ` (${this.chars} characters received)` : '';
    const message =
      this.expired === 'idle'
        ? `${who} stopped sending in the middle of its reply: nothing for ${formatSeconds(this.options.idleMs ?? 0)}${got}.`
        : this.pieces === 0
          ? `${who} did not answer within ${formatSeconds(this.options.totalMs)}.`
          : `${who} did not finish its reply within ${formatSeconds(this.options.totalMs)}${got}.`;
    return new SummarizerError('timeout', message);
  }

  dispose(): void {
    clearTimeout(this.totalTimer);
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.options.signal?.removeEventListener('abort', this.onCallerAbort);
  }

  private expire(kind: DeadlineExpiry): void {
    if (this.controller.signal.aborted) return;
    this.expired = kind;
    this.controller.abort(new Error(`${kind} timeout`));
  }
}

/** Rejects with `onAbort()` as soon as `signal` fires, whatever `promise` does: for a transport
 *  that does not stop on its own when asked to (a stalled async iterator). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => unknown): Promise<T> {
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', abort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(e);
      },
    );
  });
}

export interface TimeBudget {
  /** The whole summarize() call, every request, retry and pause included. */
  totalMs: number;
  /** The pause between retries (tests inject one); the real abortable sleep by default. */
  sleep?: Sleep;
}

/** A monotonic clock for deadlines (the wall clock can jump). */
const monotonicNow = (): number => performance.now();

/**
 * The validated summarizer (prompt, checks, retries, chunking, merge-back, fallback) around
 * `client`, with each summarize() call held to `budget.totalMs`: a request gets at most the time
 * left (LlmCompletionRequest.timeoutMs), and a retry whose pause would outlast the budget is not
 * made — the summary falls back with a 'timeout' reason that names the last failure.
 */
export function createBudgetedSummarizer(client: LlmClient, options: Omit<ValidatedSummarizerOptions, 'sleep'>, budget: TimeBudget): Summarizer {
  const sleep = budget.sleep ?? abortableSleep;
  const name = options.name ?? client.name;
  return {
    name,
    model: client.model,
    summarize(req) {
      const deadline = monotonicNow() + budget.totalMs;
      const left = () => deadline - monotonicNow();
      let last: SummarizerError | undefined;
      const spent = () =>
        new SummarizerError(
          'timeout',
          `${last ? `${last.message.replace(/\.?\s*$/, '.')} ` : ''}The time for the whole summary (${formatSeconds(budget.totalMs)}) ran out${last ? ' before another attempt' : ''}.`,
        );
      const bounded: LlmClient = {
        name: client.name,
        model: client.model,
        async complete(r: LlmCompletionRequest): Promise<LlmCompletion> {
          const remaining = left();
          if (remaining <= 0) throw spent();
          try {
            return await client.complete({ ...r, timeoutMs: Math.min(r.timeoutMs ?? Infinity, remaining) });
          } catch (e) {
            if (e instanceof SummarizerError && e.kind !== 'cancelled') last = e;
            throw e;
          }
        },
      };
      const boundedSleep: Sleep = (ms, signal) => (ms >= left() ? Promise.reject(spent()) : sleep(ms, signal));
      return createValidatedSummarizer(bounded, { ...options, name, sleep: boundedSleep }).summarize(req);
    },
  };
}
