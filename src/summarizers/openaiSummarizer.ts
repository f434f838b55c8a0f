// The OpenAI-compatible Summarizer: the openai SDK client wrapped in the engine's validated
// summarizer (prompt, checks, retries, chunking, merge-back, fallback to extractive), held to one
// time budget per summary (timeoutMs, `--timeout`: every request, retry and pause included).
// The extension and the CLI both build it here.

import type { RetryEvent, RetryPolicy, Sleep } from '../engine/llm/retryPolicy';
import type { AttemptRecord } from '../engine/llm/validatedSummarizer';
import type { Summarizer } from '../engine/summarizer';
import type { TextCounter } from '../engine/tokens/tokenCounter';
import { createBudgetedSummarizer, DEFAULT_TOTAL_TIMEOUT_MS } from './deadline';
import { createOpenAiClient, OPENAI_SUMMARIZER_NAME, type OpenAiClientOptions } from './openaiClient';

export interface OpenAiSummarizerOptions extends OpenAiClientOptions {
  /** The summarizer model's context window, tokens (default: the model registry's for `model`).
   *  Local servers often run a smaller one than the model supports (Ollama's num_ctx): set it. */
  contextWindow?: number;
  counter?: TextCounter;
  retry?: Partial<RetryPolicy>;
  sleep?: Sleep;
  onRetry?: (e: RetryEvent) => void;
  onAttempt?: (a: AttemptRecord) => void;
  clock?: () => number;
}

export function createOpenAiSummarizer(opts: OpenAiSummarizerOptions): Summarizer {
  const client = createOpenAiClient(opts);
  return createBudgetedSummarizer(
    client,
    {
      clock: opts.clock ?? Date.now,
      name: OPENAI_SUMMARIZER_NAME,
      ...(opts.counter ? { counter: opts.counter } : {}),
      ...(opts.contextWindow ? { contextWindow: opts.contextWindow } : {}),
      ...(opts.retry ? { retry: opts.retry } : {}),
      ...(opts.onRetry ? { onRetry: opts.onRetry } : {}),
      ...(opts.onAttempt ? { onAttempt: opts.onAttempt } : {}),
    },
    { totalMs: opts.timeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS, ...(opts.sleep ? { sleep: opts.sleep } : {}) },
  );
}
