// What an OpenAI-compatible endpoint sent back, read under the request's deadline and named for
// what it is: a chat completion, a stream of chunks, or — when it is not one — an empty body, an
// HTML page (a proxy's login or error page), invalid JSON, or JSON that is not a completion. A
// reply is judged by its bytes, not by what was asked for: a server that ignores `stream: true`
// and answers with one completion is still understood.

import { SummarizerError } from '../engine/llm/errors';
import type { LlmCompletion, LlmUsage } from '../engine/llm/llmClient';
import { clip } from '../engine/text/clip';
import type { RequestDeadline } from './deadline';

/** Characters of a bad reply quoted in the message. */
const QUOTED_REPLY_CHARS = 80;

/** One streamed chunk, as far as the summarizer reads it. */
export interface CompletionChunk {
  model?: unknown;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
  choices?: { delta?: { content?: unknown } | null; finish_reason?: unknown }[] | null;
}

/** Accumulates streamed chunks into one completion. */
export class ChunkCollector {
  text = '';
  private model: string | undefined;
  private finishReason: string | undefined;
  private usage: { usage?: LlmUsage } = {};

  constructor(private readonly onDelta?: (text: string) => void) {}

  add(chunk: CompletionChunk): void {
    if (typeof chunk.model === 'string' && chunk.model) this.model = chunk.model;
    if (chunk.usage) this.usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    const delta = choice?.delta?.content;
    if (typeof delta === 'string' && delta) {
      this.text += delta;
      this.onDelta?.(delta);
    }
    if (typeof choice?.finish_reason === 'string' && choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  completion(): LlmCompletion {
    return { text: this.text, ...this.usage, ...(this.model ? { model: this.model } : {}), ...(this.finishReason ? { finishReason: this.finishReason } : {}) };
  }
}

export function usageOf(u: { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined): { usage?: LlmUsage } {
  if (!u || typeof u.prompt_tokens !== 'number' || typeof u.completion_tokens !== 'number') return {};
  return { usage: { inputTokens: u.prompt_tokens, outputTokens: u.completion_tokens } };
}

/** The whole body as text; every piece that arrives restarts the deadline's idle clock. */
export async function readBodyText(response: Response, deadline: RequestDeadline): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const piece = decoder.decode(value, { stream: true });
    deadline.received(piece.length);
    text += piece;
  }
  return text + decoder.decode();
}

/** Is this an SSE stream's body (sent with the wrong content type)? */
function looksLikeEventStream(text: string): boolean {
  return /^(?:data|event|id|retry):|^:/m.test(text.trimStart().slice(0, 200)) && /^data:/m.test(text);
}

/** A reply that is no chat completion, in one line naming what it is. */
function notACompletion(endpoint: string, what: string): SummarizerError {
  return new SummarizerError('badResponse', `${endpoint} sent ${what} instead of a chat completion.`);
}

/** What a body that failed to be a completion is, for the message: an empty reply, an HTML page
 *  (with its title), invalid JSON (with its start). undefined: it parses as JSON. */
export function describeBadBody(text: string, contentType: string): { what: string } | { value: unknown } {
  const trimmed = text.trim();
  if (trimmed === '') return { what: 'an empty reply (no body)' };
  if (/^<(?:!doctype\s+html|html|head|body|title|\?xml)\b/i.test(trimmed) || (/\bhtml\b/i.test(contentType) && trimmed.startsWith('<'))) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1]?.replace(/\s+/g, ' ').trim();
    return { what: `an HTML page${title ? ` ("${clip(title, QUOTED_REPLY_CHARS)}")` : ''}` };
  }
  try {
    return { value: JSON.parse(trimmed) as unknown };
  } catch {
    return { what: `a reply that is not valid JSON (it starts ${JSON.stringify(clip(trimmed, QUOTED_REPLY_CHARS))})` };
  }
}

/** A non-streamed body (or a streamed request whose server answered without a stream) as a
 *  completion, or a badResponse SummarizerError saying what it was instead. */
export function completionFromBody(text: string, contentType: string, endpoint: string, onDelta?: (text: string) => void): LlmCompletion {
  if (looksLikeEventStream(text)) return completionFromEventStream(text, endpoint, onDelta);
  const body = describeBadBody(text, contentType);
  if ('what' in body) throw notACompletion(endpoint, body.what);
  const res = body.value as {
    choices?: unknown;
    error?: { message?: unknown };
    model?: unknown;
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
  } | null;
  if (!res || typeof res !== 'object' || Array.isArray(res))
    throw notACompletion(endpoint, `JSON that is not an object (${clip(text.trim(), QUOTED_REPLY_CHARS)})`);
  if (!Array.isArray(res.choices)) {
    const err = typeof res.error?.message === 'string' ? `: ${clip(res.error.message)}` : '';
    throw notACompletion(endpoint, `JSON without choices${err}`);
  }
  const choice = res.choices[0] as { message?: { content?: unknown }; finish_reason?: unknown } | undefined;
  const content = choice?.message?.content;
  if (content !== undefined && content !== null && typeof content !== 'string') throw notACompletion(endpoint, 'a completion whose content is not text');
  const textOut = typeof content === 'string' ? content : '';
  if (textOut) onDelta?.(textOut);
  return {
    text: textOut,
    ...usageOf(res.usage),
    ...(typeof res.model === 'string' ? { model: res.model } : {}),
    ...(typeof choice?.finish_reason === 'string' ? { finishReason: choice.finish_reason } : {}),
  };
}

/** SSE text read whole (a stream sent without its content type). */
function completionFromEventStream(text: string, endpoint: string, onDelta?: (text: string) => void): LlmCompletion {
  const collector = new ChunkCollector(onDelta);
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data.startsWith('[DONE]')) continue;
    const chunk = describeBadBody(data, 'application/json');
    if ('what' in chunk) throw notACompletion(endpoint, `a stream with ${chunk.what.replace(/^a reply that is/, 'a chunk that is')}`);
    collector.add(chunk.value as CompletionChunk);
  }
  return collector.completion();
}
