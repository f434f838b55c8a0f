// The openai SDK's errors as SummarizerErrors (src/engine/llm/errors.ts). Status codes and
// provider codes go through the engine's classifier; what only the SDK knows (connection
// errors, timeouts, user aborts, an unparsable body) is decided here.

import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { cancelledError, classifyHttpFailure, oneLine, parseRetryAfter, SummarizerError, type EndpointLabel } from '../engine/llm/errors';

/** Socket-level failures undici reports as a TypeError ("terminated", "fetch failed"). */
const NETWORK_CODES = /^(ECONNRESET|ECONNREFUSED|ECONNABORTED|EPIPE|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+)$/;

function causeChain(e: unknown): unknown[] {
  const out: unknown[] = [];
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur; i++) {
    out.push(cur);
    cur = (cur as { cause?: unknown }).cause;
  }
  return out;
}

function networkDetail(e: unknown): string | undefined {
  for (const c of causeChain(e)) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.test(code)) return code;
  }
  const msg = e instanceof Error ? e.message : '';
  if (e instanceof TypeError && /terminated|fetch failed|socket|network/i.test(msg)) return msg;
  return undefined;
}

export function sdkErrorToSummarizerError(e: unknown, where: EndpointLabel, signal: AbortSignal | undefined, nowMs: number): SummarizerError {
  if (signal?.aborted || e instanceof APIUserAbortError) return cancelledError(e);
  if (e instanceof SummarizerError) return e;
  if (e instanceof APIConnectionTimeoutError) {
    const secs = where.timeoutMs ? ` within ${Math.round(where.timeoutMs / 100) / 10} s` : '';
    return new SummarizerError('timeout', `${where.endpoint} did not answer${secs}.`, { cause: e });
  }
  if (e instanceof APIConnectionError) {
    const detail = networkDetail(e) ?? oneLine(e.message);
    return new SummarizerError('network', `Could not reach ${where.endpoint} (${detail}). Is the server running and the base URL right?`, { cause: e });
  }
  if (e instanceof APIError && typeof e.status === 'number') {
    const body = e.error as { message?: unknown; type?: unknown; code?: unknown } | undefined;
    const headers = e.headers;
    const retryAfterMs = headers ? parseRetryAfter((n) => headers.get(n), nowMs) : undefined;
    return classifyHttpFailure(
      {
        status: e.status,
        code: e.code ?? (typeof body?.code === 'string' ? body.code : null),
        type: e.type ?? (typeof body?.type === 'string' ? body.type : null),
        message: typeof body?.message === 'string' ? body.message : e.message,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      },
      where,
    );
  }
  // An error event inside a stream carries no status: the server gave up mid-reply.
  if (e instanceof APIError) return new SummarizerError('server', `${where.endpoint} failed mid-reply: ${oneLine(e.message)}`, { cause: e });
  if (e instanceof SyntaxError) {
    return new SummarizerError('badResponse', `${where.endpoint} sent a reply that is not valid JSON (${oneLine(e.message)}).`, { cause: e });
  }
  const net = networkDetail(e);
  if (net) return new SummarizerError('network', `The connection to ${where.endpoint} broke (${net}).`, { cause: e });
  const msg = e instanceof Error ? e.message : String(e);
  return new SummarizerError('unknown', `${where.endpoint}: ${oneLine(msg)}`, { cause: e });
}
