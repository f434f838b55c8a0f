// The fault matrix: the real `openai` SDK over real HTTP against a local OpenAI-compatible
// server (test/helpers/openaiServer.ts), scripted per case. Every case ends in the expected
// outcome — a usable summary, or the extractive sections with the reason — and never touches
// the conversation it was given.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdToExtractive } from '../../src/engine/compaction/llmSummary';
import { missingFacts } from '../../src/engine/validate/factMatch';
import { parseSummary } from '../../src/engine/segments/parseSummary';
import type { RetryEvent } from '../../src/engine/llm/retryPolicy';
import { renderSections } from '../../src/engine/segments/renderSummary';
import type { AttemptRecord } from '../../src/engine/llm/validatedSummarizer';
import { SECTION_NAMES, type SectionTexts } from '../../src/engine/sections';
import type { SummarizeProgress, SummarizeRequest, SummarizeResponse } from '../../src/engine/summarizer';
import { createOpenAiSummarizer, type OpenAiSummarizerOptions } from '../../src/summarizers/openaiSummarizer';
import { aiderMessages, extractiveFor, goodSections, llmReply, mustKeepFacts, sweAgentMessages } from '../helpers/llmFixtures';
import { reply, startOpenAiServer, useOpenAiServer, type FakeOpenAiServer, type SeenRequest } from '../helpers/openaiServer';

const KEY = 'sk-test-7f3a9c1e5b2d4f60a8e1';
const MODEL = 'fake-model-1';

const span = sweAgentMessages('mini-swe-agent/pytest-dev__pytest-7490.traj.json').filter((m) => m.itemType !== 'SYSTEM_PROMPT');
const spanBefore = JSON.stringify(span);
const facts = mustKeepFacts(span);
const extractive = extractiveFor(facts);
const good = goodSections(facts);
const fileFacts = facts.filter((f) => f.kind === 'filePath');

let server!: FakeOpenAiServer;
useOpenAiServer((s) => (server = s));
afterEach(() => {
  // Whatever happened, the conversation handed in is exactly as it was.
  expect(JSON.stringify(span)).toBe(spanBefore);
});

interface Log {
  sleeps: number[];
  retries: RetryEvent[];
  attempts: AttemptRecord[];
  progress: SummarizeProgress[];
}

function make(over: Partial<OpenAiSummarizerOptions> = {}) {
  const log: Log = { sleeps: [], retries: [], attempts: [], progress: [] };
  const summarizer = createOpenAiSummarizer({
    baseURL: server.baseURL,
    apiKey: KEY,
    model: MODEL,
    stream: false,
    timeoutMs: 10_000,
    sleep: async (ms) => void log.sleeps.push(ms),
    onRetry: (e) => log.retries.push(e),
    onAttempt: (a) => log.attempts.push(a),
    ...over,
  });
  return { summarizer, log };
}

function request(log?: Log, over: Partial<SummarizeRequest> = {}): SummarizeRequest {
  return { messages: span, extractive, mustKeep: facts, maxTokens: 1_500, ...(log ? { onProgress: (p) => log.progress.push(p) } : {}), ...over };
}

const userPrompt = (r: SeenRequest) => r.body?.messages?.find((m) => m.role === 'user')?.content ?? '';

function expectExtractiveFallback(res: SummarizeResponse, kind: string) {
  expect(res.fallbackKind).toBe(kind);
  expect(res.fallbackReason).toBeTruthy();
  expect(res.sections).toEqual(extractive);
}

describe('OpenAI-compatible summarizer against a local server', () => {
  it('a good summary: one request, sections as written, usage and model recorded', async () => {
    server.script(reply.completion(llmReply(good), { usage: { prompt_tokens: 9000, completion_tokens: 700 } }));
    const { summarizer, log } = make({ defaultHeaders: { 'X-Title': 'Context Compactor' }, defaultQuery: { 'api-version': '2024-10-21' } });
    const res = await summarizer.summarize(request(log));
    expect(res.fallbackReason).toBeUndefined();
    expect(res.sections).toEqual(good);
    expect(res.usage).toEqual({ inputTokens: 9000, outputTokens: 700 });
    expect(res.model).toBe(MODEL);
    expect(res.retries).toBe(0);
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
    expect(server.requests).toHaveLength(1);
    const r = server.requests[0]!;
    expect(r.url).toBe('/v1/chat/completions?api-version=2024-10-21');
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.headers['x-title']).toBe('Context Compactor');
    expect(r.body).toMatchObject({ model: MODEL, max_tokens: 3_000 });
    expect(r.body?.stream).toBeFalsy();
    expect(r.body?.messages?.map((m) => m.role)).toEqual(['system', 'user']);
    // The prompt carries the conversation, the must-keep facts and the limit.
    const prompt = userPrompt(r);
    expect(prompt).toContain('<conversation>');
    expect(prompt).toContain('→ bash(');
    for (const f of fileFacts) expect(prompt).toContain(f.value);
    expect(prompt).toContain('under 1500 tokens');
  });

  it('streaming: the reply arrives in chunks, progress is reported, usage comes from the last chunk', async () => {
    server.script(reply.completion(llmReply(good), { chunks: 40, usage: { prompt_tokens: 8000, completion_tokens: 650 } }));
    const { summarizer, log } = make({ stream: true });
    const res = await summarizer.summarize(request(log));
    expect(res.fallbackReason).toBeUndefined();
    expect(res.sections).toEqual(good);
    expect(res.usage).toEqual({ inputTokens: 8000, outputTokens: 650 });
    expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(log.progress.some((p) => /receiving summary \(\d+ characters\)/.test(p.message))).toBe(true);
  });

  it('slow server: the request times out, no retry fits the time left, the extractive summary with the reason', async () => {
    server.script(reply.hang());
    const { summarizer, log } = make({ timeoutMs: 300 });
    const res = await summarizer.summarize(request(log));
    expectExtractiveFallback(res, 'timeout');
    expect(res.fallbackReason).toMatch(/did not answer within 0\.\d s\. The time for the whole summary \(0\.3 s\) ran out before another attempt\.$/);
    expect(server.requests).toHaveLength(1);
    await vi.waitFor(() => expect(server.requests[0]!.clientClosedEarly).toBe(true));
    expect(log.sleeps).toEqual([]);
  });

  it('slow server with time to spare: each request gets what is left, retries fit inside the budget', async () => {
    server.script(reply.hang());
    // Pauses take no time here, so the budget is spent by the requests alone.
    const { summarizer, log } = make({ timeoutMs: 400, retry: { baseDelayMs: 1 } });
    const res = await summarizer.summarize(request(log));
    expectExtractiveFallback(res, 'timeout');
    expect(server.requests.length).toBeGreaterThanOrEqual(1);
    expect(server.requests.length).toBeLessThanOrEqual(3);
    expect(res.fallbackReason).toMatch(/The time for the whole summary \(0\.4 s\) ran out/);
  });

  it('429 with retry-after, then success: waits what the server asked', async () => {
    server.script(reply.error(429, { message: 'Rate limit reached', type: 'rate_limit_exceeded' }, { 'retry-after': '3' }), reply.completion(llmReply(good)));
    const { summarizer, log } = make();
    const res = await summarizer.summarize(request(log));
    expect(res.fallbackReason).toBeUndefined();
    expect(res.sections).toEqual(good);
    expect(server.requests).toHaveLength(2);
    expect(log.retries.map((e) => [e.error.kind, e.delayMs, e.fromRetryAfter])).toEqual([['rateLimit', 3_000, true]]);
    expect(log.sleeps).toEqual([3_000]);
    expect(res.retries).toBe(1);
  });

  it('429 with retry-after-ms is honoured to the millisecond', async () => {
    server.script(reply.error(429, { message: 'slow down' }, { 'retry-after-ms': '750', 'retry-after': '1' }), reply.completion(llmReply(good)));
    const { summarizer, log } = make();
    await summarizer.summarize(request(log));
    expect(log.sleeps).toEqual([750]);
  });

  it('500 then success: one backoff, then the summary', async () => {
    server.script(reply.error(500, { message: 'upstream exploded', type: 'server_error' }), reply.completion(llmReply(good)));
    const { summarizer, log } = make();
    const res = await summarizer.summarize(request(log));
    expect(res.fallbackReason).toBeUndefined();
    expect(server.requests).toHaveLength(2);
    expect(log.retries.map((e) => e.error.kind)).toEqual(['server']);
    expect(log.sleeps).toEqual([1_000]);
  });

  it('401: no retry, a one-line message saying how to set the key', async () => {
    server.script(reply.error(401, { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error', code: 'invalid_api_key' }));
    const { summarizer, log } = make();
    const res = await summarizer.summarize(request(log));
    expectExtractiveFallback(res, 'authentication');
    expect(res.fallbackReason).toBe(
      `OpenAI-compatible endpoint 127.0.0.1:${new URL(server.baseURL).port}/v1 rejected the API key (401). Set it with 'Context Compactor: Set API Key'.`,
    );
    expect(server.requests).toHaveLength(1);
    expect(log.attempts.map((a) => a.error)).toEqual(['authentication']);
  });

  it('context_length_exceeded: re-plans in smaller chunks and succeeds', async () => {
    server.script(
      reply.error(400, { message: "This model's maximum context length is 16385 tokens.", code: 'context_length_exceeded' }),
      reply.completion(llmReply(goodSections(facts, { 'Current Work': 'Part summary.' }))),
    );
    const { summarizer, log } = make({ contextWindow: 60_000 });
    const res = await summarizer.summarize(request(log));
    expect(log.attempts[0]).toMatchObject({ pass: 'single', error: 'contextLength' });
    expect(log.attempts.slice(1).every((a) => a.ok && a.pass.startsWith('part '))).toBe(true);
    expect(res.fallbackReason).toBeUndefined();
    // One failed single request, then one request per chunk.
    expect(server.requests.length).toBe(log.attempts.length);
    expect(server.requests.length).toBeGreaterThanOrEqual(3);
    expect(userPrompt(server.requests[1]!)).toMatch(/This is part 1 of \d+ of one conversation/);
  });

  it('context_length_exceeded every time: gives up after two re-plans, with the reason', async () => {
    server.script(reply.error(400, { message: 'too long', code: 'context_length_exceeded' }));
    const { summarizer, log } = make({ contextWindow: 60_000 });
    const res = await summarizer.summarize(request(log));
    expectExtractiveFallback(res, 'contextLength');
    expect(res.fallbackReason).toMatch(/does not fit fake-model-1's context window/);
    expect(server.requests).toHaveLength(3);
    expect(log.retries).toEqual([]);
  });

  it('malformed JSON, then a good reply: the second request is used', async () => {
    server.script(reply.raw(200, '{"id": "chatcmpl-1", "choices": ['), reply.completion(llmReply(good)));
    const { summarizer, log } = make();
    const res = await summarizer.summarize(request(log));
    expect(res.fallbackReason).toBeUndefined();
    expect(res.sections).toEqual(good);
    expect(server.requests).toHaveLength(2);
    expect(log.attempts.map((a) => a.problems)).toEqual([['badResponse'], []]);
    expect(res.retries).toBe(1);
  });

  it('malformed JSON every time: falls back after the retry', async () => {
    server.script(reply.raw(200, '{"id": "chatcmpl-1", "choices": ['));
    const { summarizer } = make();
    const res = await summarizer.summarize(request());
    expectExtractiveFallback(res, 'badResponse');
    expect(res.fallbackReason).toMatch(
      /sent a reply that is not valid JSON \(it starts "\{\\"id\\": \\"chatcmpl-1\\", \\"choices\\": \["\) instead of a chat completion\. The extractive summary was used\.$/,
    );
    expect(server.requests).toHaveLength(2);
  });

  it("an HTML page sent as JSON (a proxy's error page) is named as one", async () => {
    server.script(reply.raw(200, '<html><head><title>502 Bad Gateway</title></head></html>', { 'content-type': 'application/json' }));
    const { summarizer } = make();
    const res = await summarizer.summarize(request());
    expectExtractiveFallback(res, 'badResponse');
    expect(res.fallbackReason).toMatch(/sent an HTML page \("502 Bad Gateway"\) instead of a chat completion/);
  });

  it('a body with no choices is not a completion', async () => {
    server.script(reply.raw(200, '{"object": "list", "data": []}'));
    const { summarizer } = make();
    const res = await summarizer.summarize(request());
    expectExtractiveFallback(res, 'badResponse');
    expect(res.fallbackReason).toMatch(/sent JSON without choices instead of a chat completion/);
  });

  it('empty content, then a good reply: one stricter retry that says why', async () => {
    server.script(reply.completion(''), reply.completion(llmReply(good, { analysis: false })));
    const { summarizer, log } = make();
    const res = await summarizer.summarize(request(log));
    expect(res.fallbackReason).toBeUndefined();
    expect(server.requests).toHaveLength(2);
    expect(log.attempts.map((a) => a.problems)).toEqual([['empty'], []]);
    const retryPrompt = userPrompt(server.requests[1]!);
    expect(retryPrompt).toContain('Your previous reply could not be used: the reply was empty.');
    expect(retryPrompt).toContain('Do not write an analysis');
  });

  it('empty content every time: the extractive summary, reason recorded', async () => {
    server.script(reply.completion('   '));
    const { summarizer } = make();
    const res = await summarizer.summarize(request());
    expectExtractiveFallback(res, 'empty');
    expect(res.fallbackReason).toMatch(/unusable after a stricter retry — the reply was empty/);
    expect(server.requests).toHaveLength(2);
  });

  it('a summary missing sections twice: the rest of the LLM summary is kept, the gaps come from the extractive pass', async () => {
    const { 'Errors and fixes': _e, 'Pending Tasks': _p, ...six } = good;
    server.script(reply.completion(llmReply(six)));
    const { summarizer, log } = make();
    const res = await summarizer.summarize(request(log));
    expect(res.fallbackReason).toBeUndefined();
    expect(server.requests).toHaveLength(2);
    expect(userPrompt(server.requests[1]!)).toContain('sections missing: Errors and fixes, Pending Tasks');
    expect(res.filledSections).toEqual(['Errors and fixes', 'Pending Tasks']);
    expect(res.sections['Errors and fixes']).toBe(extractive['Errors and fixes']);
    expect(res.sections['Primary Request and Intent']).toBe(good['Primary Request and Intent']);
    expect(log.attempts.map((a) => a.ok)).toEqual([false, false]);
  });

  it('a summary with almost no sections twice is garbage: extractive fallback', async () => {
    server.script(reply.completion('<summary>\n## Current Work\nstuff\n## Primary Request and Intent\nthings\n</summary>'));
    const { summarizer } = make();
    const res = await summarizer.summarize(request());
    expectExtractiveFallback(res, 'missingSections');
  });

  it('a summary that drops the file paths is used as written; the compaction merges them back and lists them', async () => {
    const dropped = { ...good, 'Files and Code Sections': '- Looked at the skipping plugin and its tests.' };
    server.script(reply.completion(llmReply(dropped)));
    const { summarizer } = make();
    const res = await summarizer.summarize(request());
    expect(res.fallbackReason).toBeUndefined();
    expect(server.requests).toHaveLength(1);
    expect(res.sections['Files and Code Sections']).toBe(dropped['Files and Code Sections']);
    const held = holdToExtractive(res.sections, extractive, facts);
    expect(fileFacts.length).toBeGreaterThan(2);
    expect(held.mergedBack.filter((f) => f.kind === 'filePath')).toEqual(fileFacts);
    for (const f of fileFacts) expect(held.sections['Files and Code Sections']).toContain(f.value);
    // The LLM's own line stays first; nothing the extractive pass found is missing now.
    expect(held.sections['Files and Code Sections'].startsWith('- Looked at the skipping plugin')).toBe(true);
    expect(missingFacts(facts, renderSections(held.sections))).toEqual([]);
  });

  it('an over-long summary twice: extractive fallback', async () => {
    const wordy = { ...good, 'Problem Solving': 'We looked at every line of the plugin very carefully. '.repeat(300) };
    server.script(reply.completion(llmReply(wordy)));
    const { summarizer } = make();
    const res = await summarizer.summarize(request());
    expectExtractiveFallback(res, 'tooLong');
    expect(res.fallbackReason).toMatch(/over the 1500-token limit/);
    expect(server.requests).toHaveLength(2);
  });

  it('connection cut mid-stream: classified as network, retried, then the summary', async () => {
    server.script(reply.cutMidStream(llmReply(good), 3), reply.completion(llmReply(good)));
    const { summarizer, log } = make({ stream: true });
    const res = await summarizer.summarize(request(log));
    expect(res.fallbackReason).toBeUndefined();
    expect(res.sections).toEqual(good);
    expect(server.requests).toHaveLength(2);
    expect(log.retries.map((e) => e.error.kind)).toEqual(['network']);
  });

  it('nothing listening: a network error that names the endpoint', async () => {
    const closed = await startOpenAiServer();
    const url = closed.baseURL;
    await closed.close();
    const { summarizer } = make({ baseURL: url });
    const res = await summarizer.summarize(request());
    expectExtractiveFallback(res, 'network');
    expect(res.fallbackReason).toMatch(/^Could not reach OpenAI-compatible endpoint 127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)/);
  });

  it.each([false, true])('cancel mid-request (stream: %s): rejects as cancelled at once, one request, the server sees the client leave', async (stream) => {
    server.script(stream ? reply.completion(llmReply(good), { delayMs: 60_000 }) : reply.hang());
    const { summarizer } = make({ stream });
    const ac = new AbortController();
    const pending = summarizer.summarize(request(undefined, { signal: ac.signal }));
    await server.waitForRequests(1);
    ac.abort();
    await expect(pending).rejects.toMatchObject({ name: 'SummarizerError', kind: 'cancelled' });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.clientClosedEarly).toBe(true);
  });

  it('cancel during the backoff pause: no further request', async () => {
    server.script(reply.error(503, { message: 'busy' }));
    const ac = new AbortController();
    const { summarizer } = make({
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new Error('aborted')));
          ac.abort();
        }),
    });
    await expect(summarizer.summarize(request(undefined, { signal: ac.signal }))).rejects.toMatchObject({ kind: 'cancelled' });
    expect(server.requests).toHaveLength(1);
  });

  it('Azure OpenAI through the SDK class: deployment path, api-version query, api-key header', async () => {
    server.script(reply.completion(llmReply(good)));
    const { summarizer } = make({ baseURL: server.baseURL.replace(/\/v1$/, ''), azureApiVersion: '2024-10-21' });
    const res = await summarizer.summarize(request());
    expect(res.fallbackReason).toBeUndefined();
    const r = server.requests[0]!;
    expect(r.url).toBe(`/openai/deployments/${MODEL}/chat/completions?api-version=2024-10-21`);
    expect(r.headers['api-key']).toBe(KEY);
  });

  it('the API key appears in no result, reason or log, even when the server echoes it', async () => {
    const outputs: string[] = [];
    const cases = [
      reply.error(400, { message: `Invalid value for 'model' with key ${KEY}` }),
      reply.error(401, { message: `bad key ${KEY}` }),
      reply.error(404, { message: `no such model for ${KEY}` }),
      reply.completion(llmReply(good)),
    ];
    for (const step of cases) {
      server.script(step);
      const { summarizer, log } = make();
      const res = await summarizer.summarize(request(log));
      outputs.push(JSON.stringify(res), JSON.stringify(log));
    }
    expect(outputs.join('\n')).not.toContain(KEY);
    expect(outputs.join('\n')).toContain('***');
  });
});

describe('chunked map-reduce over HTTP on a real aider history', () => {
  const chat = aiderMessages('aider/AlexShchuka__mozgoslav.aider.chat.history.md');
  const chatFacts = mustKeepFacts(chat).filter((f) => f.kind !== 'errorSignature');
  const users = chatFacts.filter((f) => f.kind === 'userMessage');

  /** A deterministic stand-in model: lists the user turns and paths it was shown, in order. */
  const echoModel = reply.from((req) => {
    const prompt = userPrompt(req);
    const convo = /<conversation>\n([\s\S]*?)\n<\/conversation>/.exec(prompt)?.[1];
    const sections: SectionTexts = goodSections([]);
    if (convo) {
      const turns = convo.split(/\n\n(?=\[(?:user|assistant|tool result)[^\]]*\]\n)/).filter((b) => b.startsWith('[user]\n'));
      sections['All user messages'] = turns.map((t) => `- ${t.slice('[user]\n'.length).replace(/\s+/g, ' ').slice(0, 200)}`).join('\n') || 'None.';
      const mustKeep = /<must_keep>\n([\s\S]*?)\n<\/must_keep>/.exec(prompt)?.[1] ?? '';
      const paths = /File paths:\n((?:- .*\n?)*)/.exec(mustKeep)?.[1] ?? '';
      sections['Files and Code Sections'] = paths.trim() || 'None.';
      sections['Current Work'] = `Last seen: ${turns.length} user turns.`;
    } else {
      // Condensing: keep every section as it was handed over.
      const handed = /<summary_to_condense>\n([\s\S]*?)\n<\/summary_to_condense>/.exec(prompt)?.[1] ?? '';
      Object.assign(sections, parseSummary(handed).sections);
    }
    return llmReply(sections);
  });

  it('summarizes a conversation larger than the window in chunks; user messages stay complete and in order', async () => {
    server.script(echoModel);
    const { summarizer, log } = make({ contextWindow: 24_000 });
    const res = await summarizer.summarize({
      messages: chat,
      extractive: extractiveFor(chatFacts),
      mustKeep: chatFacts,
      maxTokens: 4_000,
      onProgress: (p) => log.progress.push(p),
    });
    expect(res.fallbackReason).toBeUndefined();
    const parts = log.attempts.filter((a) => a.pass.startsWith('part '));
    expect(parts.length).toBeGreaterThan(1);
    expect(server.requests.length).toBe(log.attempts.length);
    expect(log.progress.some((p) => /Summarizing part 2\/\d+/.test(p.message))).toBe(true);
    // Every user message is in the merged section, in conversation order.
    const section = res.sections['All user messages'].toLowerCase().replace(/\s+/g, ' ');
    let at = -1;
    for (const u of users) {
      const needle = u.value.toLowerCase().replace(/\s+/g, ' ').slice(0, 60);
      const found = section.indexOf(needle, at + 1);
      expect(found, `user message "${needle}" in order`).toBeGreaterThan(at);
      at = found;
    }
    for (const name of SECTION_NAMES) expect(res.sections[name]).toBeDefined();
  });

  it('a re-compaction hands the previous summary over as sections to merge into', async () => {
    server.script(reply.completion(llmReply(good)));
    const { summarizer } = make();
    const previous = {
      sections: SECTION_NAMES.map((name) => ({ name, text: name === 'All user messages' ? '- set up the repo\n- add the CI workflow' : 'None.', tokens: 0 })),
      tokens: 0,
    };
    const summaryMessage = {
      id: 'summary-1',
      role: 'user' as const,
      itemType: 'COMPACTION_SUMMARY' as const,
      content: [{ type: 'text' as const, text: '## All user messages\n- set up the repo' }],
    };
    const res = await summarizer.summarize(request(undefined, { previous, messages: [summaryMessage, ...span] }));
    expect(userPrompt(server.requests[0]!)).toContain('<previous_summary>');
    // Handed over once, as sections to merge into, not again inside the conversation.
    expect(userPrompt(server.requests[0]!)).not.toContain('[earlier summary]');
    expect(userPrompt(server.requests[0]!)).toContain('- add the CI workflow');
    expect(res.fallbackReason).toBeUndefined();
  });
});
