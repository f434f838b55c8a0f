// What can go wrong when an LLM writes the summary, classified so the policy can decide:
// transient kinds are retried with backoff, the rest end the attempt with one line a person
// can act on. Clients (the openai SDK one, the VS Code model adapter) translate their own
// errors into a SummarizerError; everything above them only looks at `kind`.

import { clip, MAX_ECHO_CHARS } from '../text/clip';

export type SummarizerErrorKind =
  /** 401/403: the key is missing, wrong or lacks access. */
  | 'authentication'
  /** 429: slow down (honour retry-after). */
  | 'rateLimit'
  /** 429 insufficient_quota: billing, not speed; retrying does not help. */
  | 'quotaExceeded'
  /** 400 context_length_exceeded: the prompt does not fit the summarizer model. */
  | 'contextLength'
  /** Could not connect, or the connection broke (also mid-stream). */
  | 'network'
  /** No answer in time. */
  | 'timeout'
  /** 5xx. */
  | 'server'
  /** The caller's AbortSignal fired. Never retried, never turned into a fallback. */
  | 'cancelled'
  /** Another 4xx: wrong model name, unsupported parameter, wrong URL. */
  | 'badRequest'
  /** 2xx whose body is not a chat completion (malformed JSON, no choices). */
  | 'badResponse'
  | 'unknown';

export const SUMMARIZER_ERROR_KINDS: readonly SummarizerErrorKind[] = [
  'authentication',
  'rateLimit',
  'quotaExceeded',
  'contextLength',
  'network',
  'timeout',
  'server',
  'cancelled',
  'badRequest',
  'badResponse',
  'unknown',
];

const TRANSIENT: ReadonlySet<SummarizerErrorKind> = new Set(['rateLimit', 'network', 'timeout', 'server']);

/** Worth the same request again after a pause. */
export function isTransient(kind: SummarizerErrorKind): boolean {
  return TRANSIENT.has(kind);
}

export interface SummarizerErrorInit {
  status?: number;
  /** Provider error code, e.g. 'context_length_exceeded'. */
  code?: string;
  /** How long the server asked us to wait, already parsed (ms). */
  retryAfterMs?: number;
  cause?: unknown;
}

export class SummarizerError extends Error {
  override readonly name = 'SummarizerError';
  readonly kind: SummarizerErrorKind;
  readonly status?: number;
  readonly code?: string;
  readonly retryAfterMs?: number;
  /** Retries already spent on this request when it finally failed (set by the retry policy). */
  retries = 0;

  /** `message` is the one line shown to a person: what happened and what to do. */
  constructor(kind: SummarizerErrorKind, message: string, init: SummarizerErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = kind;
    if (init.status !== undefined) this.status = init.status;
    if (init.code !== undefined) this.code = init.code;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }
}

export function isSummarizerError(e: unknown): e is SummarizerError {
  return e instanceof SummarizerError;
}

/** The cancelled error every layer throws when the caller's signal fires. */
export function cancelledError(cause?: unknown): SummarizerError {
  return new SummarizerError('cancelled', 'Summarization cancelled; the conversation was not changed.', cause === undefined ? {} : { cause });
}

/** Whatever a client threw, as a SummarizerError. A fired signal wins over anything else: a
 *  request torn down by cancellation often surfaces as a generic network error. */
export function toSummarizerError(e: unknown, signal?: AbortSignal): SummarizerError {
  if (signal?.aborted) return e instanceof SummarizerError && e.kind === 'cancelled' ? e : cancelledError(e);
  if (e instanceof SummarizerError) return e;
  if (e instanceof Error && e.name === 'AbortError') return cancelledError(e);
  const msg = e instanceof Error ? e.message : String(e);
  return new SummarizerError('unknown', `The summarizer failed: ${oneLine(msg)}`, { cause: e });
}

/** Who we were talking to, for messages: host and path, never credentials or query strings. */
export interface EndpointLabel {
  /** e.g. "OpenAI-compatible endpoint 127.0.0.1:11434" */
  endpoint: string;
  model: string;
  /** What to do about a rejected key, e.g. "Set it with 'Context Compactor: Set API Key'." */
  authHint: string;
  /** The request timeout, for the timeout message. */
  timeoutMs?: number;
}

export interface HttpFailure {
  status: number;
  code?: string | null;
  type?: string | null;
  message?: string;
  /** Parsed retry-after, when the response had one. */
  retryAfterMs?: number;
}

/** Longest provider message quoted in a one-line error. */
export const MAX_QUOTED_MESSAGE_CHARS = MAX_ECHO_CHARS;

const CONTEXT_LENGTH_TEXT = /context[_ ]length|maximum context|context window|too many tokens|prompt is too long|input is too long|reduce the length/i;

/** Classify a non-2xx answer of an OpenAI-compatible endpoint. */
export function classifyHttpFailure(f: HttpFailure, where: EndpointLabel): SummarizerError {
  const init: SummarizerErrorInit = { status: f.status, ...(f.code ? { code: f.code } : {}) };
  const quoted = f.message ? `: ${oneLine(f.message)}` : '';
  const s = f.status;
  if (s === 401 || s === 403) {
    return new SummarizerError('authentication', `${where.endpoint} rejected the API key (${s}). ${where.authHint}`, init);
  }
  if (s === 429) {
    if (f.code === 'insufficient_quota' || f.type === 'insufficient_quota') {
      return new SummarizerError('quotaExceeded', `${where.endpoint} reports the account's quota is used up (429 insufficient_quota)${quoted}`, init);
    }
    return new SummarizerError('rateLimit', `${where.endpoint} is rate-limiting requests (429); try again later.`, {
      ...init,
      ...(f.retryAfterMs !== undefined ? { retryAfterMs: f.retryAfterMs } : {}),
    });
  }
  if ((s === 400 || s === 413 || s === 422) && (f.code === 'context_length_exceeded' || CONTEXT_LENGTH_TEXT.test(f.message ?? ''))) {
    return new SummarizerError(
      'contextLength',
      `The text to summarize does not fit ${where.model}'s context window (${s} context_length_exceeded). Set the summarizer's context window lower so it works in smaller chunks.`,
      init,
    );
  }
  if (s === 408) return new SummarizerError('timeout', `${where.endpoint} timed out (408).`, init);
  if (s >= 500) {
    return new SummarizerError('server', `${where.endpoint} failed with a server error (${s})${quoted}`, {
      ...init,
      ...(f.retryAfterMs !== undefined ? { retryAfterMs: f.retryAfterMs } : {}),
    });
  }
  if (s === 404) {
    return new SummarizerError(
      'badRequest',
      `${where.endpoint} has no model '${where.model}' or no chat completions route (404)${quoted}. Check the base URL and the model name.`,
      init,
    );
  }
  return new SummarizerError('badRequest', `${where.endpoint} rejected the request (${s})${quoted}`, init);
}

/** Longest wait a retry-after header may ask for before we give up instead of waiting. */
export const MAX_HONOURED_RETRY_AFTER_MS = 60_000;

/**
 * The wait a response asks for: `retry-after-ms` (OpenAI's, milliseconds), else `retry-after`
 * as seconds or an HTTP date (relative to `nowMs`, which the caller's clock provides).
 */
export function parseRetryAfter(header: (name: string) => string | null | undefined, nowMs: number): number | undefined {
  const ms = header('retry-after-ms');
  if (ms) {
    const v = Number(ms);
    if (Number.isFinite(v) && v >= 0) return v;
  }
  const ra = header('retry-after');
  if (!ra) return undefined;
  const secs = Number(ra);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const at = Date.parse(ra);
  if (Number.isFinite(at)) return Math.max(0, at - nowMs);
  return undefined;
}

/** One line, at most MAX_QUOTED_MESSAGE_CHARS: provider messages can be long or multi-line. */
export function oneLine(text: string): string {
  return clip(text.replace(/\s+/g, ' ').trim(), MAX_QUOTED_MESSAGE_CHARS);
}
