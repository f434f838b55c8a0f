// The OpenAI-compatible Summarizer: the openai SDK client wrapped in the engine's validated
// summarizer (prompt, checks, retries, chunking, merge-back, fallback to extractive).
// The extension and the CLI both build it here.

import type { RetryEvent, RetryPolicy, Sleep } from '../engine/llm/retryPolicy';
import { createValidatedSummarizer, type AttemptRecord } from '../engine/llm/validatedSummarizer';
import type { Summarizer } from '../engine/summarizer';
import type { TextCounter } from '../engine/tokens/tokenCounter';
import { createOpenAiClient, type OpenAiClientOptions } from './openaiClient';

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
  return createValidatedSummarizer(client, {
    clock: opts.clock ?? Date.now,
    ...(opts.counter ? { counter: opts.counter } : {}),
    ...(opts.contextWindow ? { contextWindow: opts.contextWindow } : {}),
    ...(opts.retry ? { retry: opts.retry } : {}),
    ...(opts.sleep ? { sleep: opts.sleep } : {}),
    ...(opts.onRetry ? { onRetry: opts.onRetry } : {}),
    ...(opts.onAttempt ? { onAttempt: opts.onAttempt } : {}),
  });
}
