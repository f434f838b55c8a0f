// An LlmClient over any OpenAI-compatible Chat Completions endpoint, through the official
// `openai` SDK: OpenAI, Azure OpenAI, OpenRouter, Ollama, LM Studio, vLLM, llama.cpp's server.
// Thin on purpose: one request, streamed or not, errors classified. The SDK's own retries are
// off (maxRetries: 0) because the retry policy is the engine's (src/engine/llm/retryPolicy.ts),
// where it is the same for every client and testable.
//
// The SDK's own timeout stops once the response headers arrive; a server that then stalls would
// hold the request forever. So each request runs under a RequestDeadline (deadline.ts): a total
// for the whole exchange, body and stream included, and an idle limit between pieces of the
// reply, both aborting the socket. The reply is read here (openaiReply.ts), so what came back is
// named when it is no completion: an empty reply, an HTML page, invalid JSON.
//
// Azure OpenAI works two ways:
//   - azureApiVersion set: the SDK's AzureOpenAI class; baseURL is the resource endpoint
//     (https://RESOURCE.openai.azure.com), model is the deployment name, the key goes in the
//     api-key header and the version in the api-version query;
//   - Azure's v1 API is plainly OpenAI-compatible: baseURL https://RESOURCE.openai.azure.com/openai/v1,
//     model = the deployment name. (defaultQuery/defaultHeaders cover any other gateway.)
// The API key is only ever handed to the SDK: it is never logged (logLevel 'off'), and an echo
// of it or of a configured header value — in an error, in the model name the server reports, in
// the reply itself — is masked before anything else sees it (secrets.ts).

import OpenAI, { AzureOpenAI } from 'openai';
import { Stream } from 'openai/core/streaming';
import { cancelledError, type SummarizerError, type EndpointLabel } from '../engine/llm/errors';
import type { LlmClient, LlmCompletion, LlmCompletionRequest } from '../engine/llm/llmClient';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_TOTAL_TIMEOUT_MS, RequestDeadline } from './deadline';
import { sdkErrorToSummarizerError } from './openaiErrors';
import { ChunkCollector, completionFromBody, readBodyText, type CompletionChunk } from './openaiReply';
import { redactSecrets, secretValues } from './secrets';

/** The SDK's own connect timeout is a backstop a little behind the request's deadline, which
 *  fires first and says which limit it was. */
const SDK_TIMEOUT_SLACK_MS = 1_000;
/** What the summarizer is called in results and messages. */
export const OPENAI_SUMMARIZER_NAME = 'openai';
export const DEFAULT_AUTH_HINT = "Set it with 'Context Compactor: Set API Key'.";

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
  /** Longest one request may take, reply included (default DEFAULT_TOTAL_TIMEOUT_MS); a request
   *  also gets no more than its own timeoutMs (the rest of the summary's budget). */
  timeoutMs?: number;
  /** Longest silence between two pieces of a reply once it has started (default DEFAULT_IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
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
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS;
  const idleTimeoutMs = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const azure = opts.azureApiVersion !== undefined;
  const common = {
    apiKey: opts.apiKey,
    maxRetries: 0,
    timeout: timeoutMs + SDK_TIMEOUT_SLACK_MS,
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

  const secrets = secretValues(opts);

  function mask(err: SummarizerError): SummarizerError {
    err.message = redactSecrets(err.message, secrets);
    return err;
  }

  /** The reply with every secret masked: its text and the model it names go into results and files. */
  function masked(c: LlmCompletion): LlmCompletion {
    return { ...c, text: redactSecrets(c.text, secrets), ...(c.model !== undefined ? { model: redactSecrets(c.model, secrets) } : {}) };
  }

  async function completeOnce(req: LlmCompletionRequest, deadline: RequestDeadline): Promise<LlmCompletion> {
    const body = {
      model: opts.model,
      messages: [
        { role: 'system' as const, content: req.system },
        { role: 'user' as const, content: req.user },
      ],
      [maxParam]: req.maxTokens,
      ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
      ...(stream ? { stream: true as const, ...(streamUsage ? { stream_options: { include_usage: true } } : {}) } : { stream: false as const }),
    };
    const requestOptions = { timeout: deadline.options.totalMs + SDK_TIMEOUT_SLACK_MS, signal: deadline.signal };
    // The raw response: the SDK's parsing would call an HTML page or a JSON body sent to a
    // streamed request an empty stream.
    const response = await sdk.chat.completions.create(body, requestOptions).asResponse();
    const contentType = response.headers.get('content-type') ?? '';
    if (stream && /event-stream/i.test(contentType)) {
      const collector = new ChunkCollector(req.onDelta);
      for await (const chunk of Stream.fromSSEResponse<CompletionChunk>(response, deadline.abortController, sdk)) {
        const before = collector.text.length;
        collector.add(chunk);
        deadline.received(collector.text.length - before);
      }
      // An abort during iteration ends the stream quietly instead of throwing.
      if (deadline.signal.aborted) throw abortedError(deadline);
      return collector.completion();
    }
    const text = await readBodyText(response, deadline);
    if (deadline.signal.aborted) throw abortedError(deadline);
    return completionFromBody(text, contentType, where.endpoint, req.onDelta);
  }

  /** Why the request was aborted: one of its limits, or the caller. */
  function abortedError(deadline: RequestDeadline): SummarizerError {
    return deadline.expired ? deadline.timeoutError(where.endpoint) : cancelledError();
  }

  return {
    name: OPENAI_SUMMARIZER_NAME,
    model: opts.model,
    async complete(req: LlmCompletionRequest): Promise<LlmCompletion> {
      if (req.signal?.aborted) throw cancelledError();
      const totalMs = Math.max(1, Math.ceil(Math.min(timeoutMs, req.timeoutMs ?? Infinity)));
      const deadline = new RequestDeadline({ totalMs, idleMs: idleTimeoutMs, ...(req.signal ? { signal: req.signal } : {}) });
      try {
        return masked(await completeOnce(req, deadline));
      } catch (e) {
        if (deadline.expired) throw deadline.timeoutError(where.endpoint);
        throw mask(sdkErrorToSummarizerError(e, { ...where, timeoutMs: totalMs }, req.signal, now()));
      } finally {
        deadline.dispose();
      }
    },
  };
}
