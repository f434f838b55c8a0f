// An LlmClient over any OpenAI-compatible Chat Completions endpoint, through the official
// `openai` SDK: OpenAI, Azure OpenAI, OpenRouter, Ollama, LM Studio, vLLM, llama.cpp's server.
// Thin on purpose: one request, streamed or not, errors classified. The SDK's own retries are
// off (maxRetries: 0) because the retry policy is the engine's (src/engine/llm/retryPolicy.ts),
// where it is the same for every client and testable.
//
// Azure OpenAI works two ways:
//   - azureApiVersion set: the SDK's AzureOpenAI class; baseURL is the resource endpoint
//     (https://RESOURCE.openai.azure.com), model is the deployment name, the key goes in the
//     api-key header and the version in the api-version query;
//   - Azure's v1 API is plainly OpenAI-compatible: baseURL https://RESOURCE.openai.azure.com/openai/v1,
//     model = the deployment name. (defaultQuery/defaultHeaders cover any other gateway.)
// The API key is only ever handed to the SDK: it is never logged (logLevel 'off') and any
// echo of it in a provider's error message is masked.

import OpenAI, { AzureOpenAI } from 'openai';
import { cancelledError, SummarizerError, type EndpointLabel } from '../engine/llm/errors';
import type { LlmClient, LlmCompletion, LlmCompletionRequest, LlmUsage } from '../engine/llm/llmClient';
import { sdkErrorToSummarizerError } from './openaiErrors';

/** A summary of a long span can take a local model minutes; a hosted one answers far sooner. */
export const DEFAULT_TIMEOUT_MS = 180_000;
/** What the summarizer is called in results and messages. */
export const OPENAI_SUMMARIZER_NAME = 'openai';
export const DEFAULT_AUTH_HINT = "Set it with 'Context Compactor: Set API Key'.";
/** Keys shorter than this are placeholders ("ollama", "x"); masking them would garble messages. */
const MIN_MASKED_KEY_CHARS = 8;

export interface OpenAiClientOptions {
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), http://localhost:1234/v1 (LM Studio). */
  baseURL: string;
  /** Local servers accept any non-empty key. */
  apiKey: string;
  model: string;
  /** Extra headers on every request (OpenRouter's HTTP-Referer / X-Title, a proxy's auth, …). */
  defaultHeaders?: Record<string, string>;
  /** Extra query parameters on every request (Azure's api-version, …). */
  defaultQuery?: Record<string, string>;
  /** Use the SDK's AzureOpenAI class with this api-version (baseURL = endpoint, model = deployment). */
  azureApiVersion?: string;
  /** Stream the reply (progress as it arrives). Default true. */
  stream?: boolean;
  /** Ask for token usage in the last streamed chunk (stream_options.include_usage). Default true. */
  streamUsage?: boolean;
  timeoutMs?: number;
  /** Sent only when set: reasoning models reject it. */
  temperature?: number;
  /** o-series and newer OpenAI models want max_completion_tokens; most compatible servers know max_tokens. */
  maxTokensParameter?: 'max_tokens' | 'max_completion_tokens';
  /** What a 401/403 message tells the person to do. */
  authHint?: string;
  /** Wall clock for retry-after dates. */
  now?: () => number;
}

/** Host and path of a base URL: what messages may show (no credentials, no query). */
export function endpointLabel(baseURL: string, azure: boolean): string {
  const kind = azure ? 'Azure OpenAI endpoint' : 'OpenAI-compatible endpoint';
  try {
    const u = new URL(baseURL);
    return `${kind} ${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return kind;
  }
}

export function createOpenAiClient(opts: OpenAiClientOptions): LlmClient {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const azure = opts.azureApiVersion !== undefined;
  const common = {
    apiKey: opts.apiKey,
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: 'off' as const,
    ...(opts.defaultHeaders ? { defaultHeaders: opts.defaultHeaders } : {}),
    ...(opts.defaultQuery ? { defaultQuery: opts.defaultQuery } : {}),
  };
  const sdk: OpenAI = azure
    ? new AzureOpenAI({ ...common, endpoint: opts.baseURL, apiVersion: opts.azureApiVersion, deployment: opts.model })
    : new OpenAI({ ...common, baseURL: opts.baseURL });
  const where: EndpointLabel = {
    endpoint: endpointLabel(opts.baseURL, azure),
    model: opts.model,
    authHint: opts.authHint ?? DEFAULT_AUTH_HINT,
    timeoutMs,
  };
  const now = opts.now ?? Date.now;
  const stream = opts.stream ?? true;
  const streamUsage = opts.streamUsage ?? true;
  const maxParam = opts.maxTokensParameter ?? 'max_tokens';

  function mask(err: SummarizerError): SummarizerError {
    if (opts.apiKey.length >= MIN_MASKED_KEY_CHARS && err.message.includes(opts.apiKey)) err.message = err.message.split(opts.apiKey).join('***');
    return err;
  }

  function badResponse(detail: string): SummarizerError {
    return new SummarizerError('badResponse', `${where.endpoint} sent a reply that is not a chat completion (${detail}).`);
  }

  async function completeOnce(req: LlmCompletionRequest): Promise<LlmCompletion> {
    const body = {
      model: opts.model,
      messages: [
        { role: 'system' as const, content: req.system },
        { role: 'user' as const, content: req.user },
      ],
      [maxParam]: req.maxTokens,
      ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
    };
    const requestOptions = { timeout: timeoutMs, ...(req.signal ? { signal: req.signal } : {}) };

    if (!stream) {
      const res = (await sdk.chat.completions.create({ ...body, stream: false }, requestOptions)) as unknown;
      const choices = (res as { choices?: unknown } | null)?.choices;
      if (!res || typeof res !== 'object' || !Array.isArray(choices)) return Promise.reject(badResponse('no choices'));
      const choice = choices[0] as { message?: { content?: unknown }; finish_reason?: unknown } | undefined;
      const content = choice?.message?.content;
      if (content !== undefined && content !== null && typeof content !== 'string') return Promise.reject(badResponse('content is not text'));
      const r = res as { model?: unknown; usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } };
      return {
        text: typeof content === 'string' ? content : '',
        ...usageOf(r.usage),
        ...(typeof r.model === 'string' ? { model: r.model } : {}),
        ...(typeof choice?.finish_reason === 'string' ? { finishReason: choice.finish_reason } : {}),
      };
    }

    const chunks = await sdk.chat.completions.create(
      { ...body, stream: true, ...(streamUsage ? { stream_options: { include_usage: true } } : {}) },
      requestOptions,
    );
    let text = '';
    let model: string | undefined;
    let finishReason: string | undefined;
    let usage: { usage?: LlmUsage } = {};
    for await (const chunk of chunks) {
      if (typeof chunk.model === 'string' && chunk.model) model = chunk.model;
      if (chunk.usage) usage = usageOf(chunk.usage);
      const choice = chunk.choices?.[0];
      const delta = choice?.delta?.content;
      if (typeof delta === 'string' && delta) {
        text += delta;
        req.onDelta?.(delta);
      }
      if (choice?.finish_reason) finishReason = choice.finish_reason;
    }
    // An abort during iteration can end the stream quietly instead of throwing.
    if (req.signal?.aborted) throw cancelledError();
    return { text, ...usage, ...(model ? { model } : {}), ...(finishReason ? { finishReason } : {}) };
  }

  return {
    name: OPENAI_SUMMARIZER_NAME,
    model: opts.model,
    async complete(req: LlmCompletionRequest): Promise<LlmCompletion> {
      if (req.signal?.aborted) throw cancelledError();
      try {
        return await completeOnce(req);
      } catch (e) {
        throw mask(sdkErrorToSummarizerError(e, where, req.signal, now()));
      }
    },
  };
}

function usageOf(u: { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined): { usage?: LlmUsage } {
  if (!u || typeof u.prompt_tokens !== 'number' || typeof u.completion_tokens !== 'number') return {};
  return { usage: { inputTokens: u.prompt_tokens, outputTokens: u.completion_tokens } };
}
