// A local OpenAI-compatible server for the LLM tests: node:http on 127.0.0.1, a random port,
// POST /v1/chat/completions with and without `stream: true`. Each test scripts the replies in
// order (the last step repeats when the script runs out) and reads back what the server saw,
// so the real `openai` SDK is exercised over real HTTP with no internet.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface SeenRequest {
  method: string;
  /** Path and query, e.g. /v1/chat/completions?api-version=2024-10-21 */
  url: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body (undefined when it was not JSON). */
  body: ChatRequestBody | undefined;
  rawBody: string;
  /** The client went away before the reply was finished (cancel, timeout). */
  clientClosedEarly: boolean;
}

export interface ChatRequestBody {
  model?: string;
  messages?: { role: string; content: string }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  [k: string]: unknown;
}

export type Step = (req: SeenRequest, res: ServerResponse) => void | Promise<void>;

export interface FakeOpenAiServer {
  /** e.g. http://127.0.0.1:40123/v1 */
  baseURL: string;
  requests: SeenRequest[];
  /** Replace the script: the replies to the next requests, in order. */
  script(...steps: Step[]): void;
  /** Resolves when the server has seen `n` requests. */
  waitForRequests(n: number): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_MODEL = 'fake-model-1';

function completionBody(text: string, model: string, usage: { prompt_tokens: number; completion_tokens: number } | null) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop', logprobs: null }],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
}

function chunkBody(model: string, delta: Record<string, unknown>, finish: string | null) {
  return { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, delta, finish_reason: finish }] };
}

/** Split text into `n` roughly equal pieces (at least one). */
function pieces(text: string, n: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, n)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

export interface CompletionOptions {
  model?: string;
  /** Reported usage; null sends none. Default: rough counts of the request and the text. */
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  /** SSE chunks to split the text into when the request streams. */
  chunks?: number;
  /** Wait before answering. */
  delayMs?: number;
}

function defaultUsage(req: SeenRequest, text: string) {
  return { prompt_tokens: Math.ceil(req.rawBody.length / 4), completion_tokens: Math.ceil(text.length / 4) };
}

function sleepUnlessClosed(ms: number, req: SeenRequest): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    const poll = setInterval(() => {
      if (req.clientClosedEarly) {
        clearTimeout(t);
        clearInterval(poll);
        resolve();
      }
    }, 5);
    t.unref?.();
    setTimeout(() => clearInterval(poll), ms + 10).unref?.();
  });
}

/** Replies ready to script. Every completion adapts to whether the request asked to stream. */
export const reply = {
  completion(text: string, opts: CompletionOptions = {}): Step {
    return async (req, res) => {
      if (opts.delayMs) await sleepUnlessClosed(opts.delayMs, req);
      if (req.clientClosedEarly) return;
      const model = opts.model ?? req.body?.model ?? DEFAULT_MODEL;
      const usage = opts.usage === undefined ? defaultUsage(req, text) : opts.usage;
      if (req.body?.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(`data: ${JSON.stringify(chunkBody(model, { role: 'assistant', content: '' }, null))}\n\n`);
        for (const p of pieces(text, opts.chunks ?? 8)) res.write(`data: ${JSON.stringify(chunkBody(model, { content: p }, null))}\n\n`);
        res.write(`data: ${JSON.stringify(chunkBody(model, {}, 'stop'))}\n\n`);
        if (usage && req.body.stream_options?.include_usage) {
          const u = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
          res.write(
            `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [], usage: u })}\n\n`,
          );
        }
        res.end('data: [DONE]\n\n');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(completionBody(text, model, usage)));
      }
    };
  },

  /** A completion whose text is computed from the request (a deterministic stand-in model). */
  from(make: (req: SeenRequest) => string, opts: CompletionOptions = {}): Step {
    return (req, res) => reply.completion(make(req), opts)(req, res);
  },

  /** An OpenAI-style error body: {error: {message, type, code, param}}. */
  error(status: number, error: { message: string; type?: string; code?: string | null }, headers: Record<string, string> = {}): Step {
    return (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', code: null, param: null, ...error } }));
    };
  },

  /** Any status and body, sent as given. */
  raw(status: number, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Step {
    return (_req, res) => {
      res.writeHead(status, headers);
      res.end(body);
    };
  },

  /** Never answers; the request ends when the client gives up (timeout, cancel). */
  hang(): Step {
    return async (req) => {
      while (!req.clientClosedEarly) await sleepUnlessClosed(1_000, req);
    };
  },

  /** Sends the headers and the first part of the reply, then nothing more, never ending it: a
   *  stream's first SSE chunk, or (not streamed) the first bytes of the JSON body. The request
   *  ends when the client gives up. */
  stallAfterFirstChunk(text: string): Step {
    return async (req, res) => {
      const model = req.body?.model ?? DEFAULT_MODEL;
      if (req.body?.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(`data: ${JSON.stringify(chunkBody(model, { role: 'assistant', content: pieces(text, 8)[0] }, null))}\n\n`);
      } else {
        const body = JSON.stringify(completionBody(text, model, null));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
        res.write(body.slice(0, 40));
      }
      while (!req.clientClosedEarly) await sleepUnlessClosed(1_000, req);
    };
  },

  /** Sends the headers and nothing else. */
  stallAfterHeaders(contentType = 'text/event-stream'): Step {
    return async (req, res) => {
      res.writeHead(200, { 'content-type': contentType });
      res.flushHeaders();
      while (!req.clientClosedEarly) await sleepUnlessClosed(1_000, req);
    };
  },

  /** Starts streaming `text` and destroys the connection after `afterChunks` chunks. */
  cutMidStream(text: string, afterChunks = 2): Step {
    return async (req, res) => {
      const model = req.body?.model ?? DEFAULT_MODEL;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const all = pieces(text, 8);
      for (const p of all.slice(0, afterChunks)) res.write(`data: ${JSON.stringify(chunkBody(model, { content: p }, null))}\n\n`);
      await new Promise((r) => setTimeout(r, 20));
      res.socket?.destroy();
    };
  },
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startOpenAiServer(...initial: Step[]): Promise<FakeOpenAiServer> {
  let steps: Step[] = initial;
  let next = 0;
  const requests: SeenRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const sockets = new Set<Socket>();

  const server: Server = createServer(async (req, res: ServerResponse) => {
    const rawBody = await readBody(req);
    let body: ChatRequestBody | undefined;
    try {
      body = JSON.parse(rawBody) as ChatRequestBody;
    } catch {
      body = undefined;
    }
    const seen: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, rawBody, clientClosedEarly: false };
    res.on('close', () => {
      if (!res.writableFinished) seen.clientClosedEarly = true;
    });
    requests.push(seen);
    for (const w of waiters.splice(0)) {
      if (requests.length >= w.n) w.resolve();
      else waiters.push(w);
    }
    if (req.method !== 'POST' || !(req.url ?? '').split('?')[0]!.endsWith('/chat/completions')) {
      reply.error(404, { message: `no route ${req.method} ${req.url}`, type: 'not_found' })(seen, res);
      return;
    }
    const step = steps.length === 0 ? reply.error(500, { message: 'the test scripted no reply' }) : steps[Math.min(next, steps.length - 1)]!;
    next++;
    try {
      await step(seen, res);
    } catch (e) {
      if (!res.headersSent) reply.error(500, { message: `script step failed: ${(e as Error).message}` })(seen, res);
      else res.destroy();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    script(...s: Step[]) {
      steps = s;
      next = 0;
    },
    waitForRequests(n: number) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ n, resolve }));
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One server for a test file: started before its tests, closed after them, its script and the
 *  requests it saw cleared before each test. `set` receives it once it listens. */
export function useOpenAiServer(set: (server: FakeOpenAiServer) => void): void {
  let server: FakeOpenAiServer | undefined;
  beforeAll(async () => {
    server = await startOpenAiServer();
    set(server);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    if (!server) return;
    server.requests.length = 0;
    server.script();
  });
}
