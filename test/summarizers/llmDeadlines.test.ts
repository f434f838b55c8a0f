// A silent or stalled server cannot hang a summary: each request has a total and an idle limit
// that cover the body and the stream and tear the socket down, retries live inside one budget
// (`--timeout`), and what came back is named for what it is (an HTML page, invalid JSON, an empty
// reply). Real HTTP against the local OpenAI-compatible server, with short limits (300 ms); the
// assertions are on the outcome and its reason, never on how long it took.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import type { SummarizeRequest } from '../../src/engine/summarizer';
import { VscodeLmClient } from '../../src/extension/summarizers/vscodeLmClient';
import { createBudgetedSummarizer } from '../../src/summarizers/deadline';
import { createOpenAiSummarizer, type OpenAiSummarizerOptions } from '../../src/summarizers/openaiSummarizer';
import type * as vscode from 'vscode';
import { extractiveFor, goodSections, llmReply, mustKeepFacts, sweAgentMessages } from '../helpers/llmFixtures';
import { reply, useOpenAiServer, type FakeOpenAiServer } from '../helpers/openaiServer';
import { repoRoot, transcriptPath } from '../helpers/transcripts';

const span = sweAgentMessages('mini-swe-agent/pytest-dev__pytest-7490.traj.json').filter((m) => m.itemType !== 'SYSTEM_PROMPT');
const facts = mustKeepFacts(span);
const extractive = extractiveFor(facts);
const good = goodSections(facts);
const request = (over: Partial<SummarizeRequest> = {}): SummarizeRequest => ({ messages: span, extractive, mustKeep: facts, maxTokens: 1_500, ...over });

let server!: FakeOpenAiServer;
useOpenAiServer((s) => (server = s));

function make(over: Partial<OpenAiSummarizerOptions> = {}) {
  return createOpenAiSummarizer({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'fake-model-1', sleep: async () => undefined, ...over });
}

/** Every request the server saw was closed by the client (the socket was torn down). */
async function allClosedByClient(): Promise<void> {
  await vi.waitFor(() => expect(server.requests.every((r) => r.clientClosedEarly)).toBe(true));
}

describe('one request: a total and an idle limit over the body and the stream', () => {
  it('a stream that stalls after its first chunk ends at the idle limit, the socket closed', async () => {
    server.script(reply.stallAfterFirstChunk(llmReply(good)));
    const res = await make({ stream: true, idleTimeoutMs: 300, timeoutMs: 60_000, retry: { maxRetries: 0 } }).summarize(request());
    expect(res.fallbackKind).toBe('timeout');
    expect(res.fallbackReason).toMatch(
      /^OpenAI-compatible endpoint 127\.0\.0\.1:\d+\/v1 stopped sending in the middle of its reply: nothing for 0\.3 s \(\d+ characters received\)\.$/,
    );
    expect(res.sections).toEqual(extractive);
    expect(server.requests).toHaveLength(1);
    await allClosedByClient();
  });

  it('a stream that keeps stalling is cut by the total too, with retries inside it', async () => {
    server.script(reply.stallAfterFirstChunk(llmReply(good)));
    const res = await make({ stream: true, idleTimeoutMs: 60_000, timeoutMs: 300 }).summarize(request());
    expect(res.fallbackKind).toBe('timeout');
    expect(res.fallbackReason).toMatch(
      /did not finish its reply within 0\.\d s \(\d+ characters received\)\. The time for the whole summary \(0\.3 s\) ran out/,
    );
    await allClosedByClient();
  });

  it('a non-streamed body that stalls ends at the idle limit', async () => {
    server.script(reply.stallAfterFirstChunk(llmReply(good)));
    const res = await make({ stream: false, idleTimeoutMs: 300, timeoutMs: 60_000, retry: { maxRetries: 0 } }).summarize(request());
    expect(res.fallbackKind).toBe('timeout');
    expect(res.fallbackReason).toMatch(/stopped sending in the middle of its reply: nothing for 0\.3 s \(40 characters received\)/);
    await allClosedByClient();
  });

  it('headers and then nothing: the total, not the idle limit (a local model may think long before its first token)', async () => {
    server.script(reply.stallAfterHeaders());
    const res = await make({ stream: true, idleTimeoutMs: 100, timeoutMs: 400, retry: { maxRetries: 0 } }).summarize(request());
    expect(res.fallbackKind).toBe('timeout');
    expect(res.fallbackReason).toMatch(/did not answer within 0\.\d s/);
    await allClosedByClient();
  });

  it('no answer at all: one budget for every attempt, then the extractive summary', async () => {
    for (const stream of [true, false]) {
      server.requests.length = 0;
      server.script(reply.hang());
      const res = await make({ stream, timeoutMs: 300 }).summarize(request());
      expect(res.fallbackKind).toBe('timeout');
      expect(res.fallbackReason).toMatch(/did not answer within 0\.\d s\. The time for the whole summary \(0\.3 s\) ran out before another attempt\.$/);
      await allClosedByClient();
    }
  });

  it('a retry whose pause does not fit the time left is not made', async () => {
    server.script(reply.error(503, { message: 'overloaded' }));
    const res = await make({ timeoutMs: 300, sleep: undefined, retry: { baseDelayMs: 1_000 } }).summarize(request());
    expect(res.fallbackKind).toBe('timeout');
    expect(res.fallbackReason).toMatch(
      /failed with a server error \(503\): overloaded\. The time for the whole summary \(0\.3 s\) ran out before another attempt\.$/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('a good reply inside the limits is used, and the caller can still cancel', async () => {
    server.script(reply.completion(llmReply(good)));
    const ok = await make({ stream: true, idleTimeoutMs: 300, timeoutMs: 10_000 }).summarize(request());
    expect(ok.fallbackReason).toBeUndefined();
    expect(ok.sections).toEqual(good);
    server.script(reply.stallAfterFirstChunk(llmReply(good)));
    const ac = new AbortController();
    const pending = make({ stream: true, idleTimeoutMs: 60_000, timeoutMs: 60_000 }).summarize(request({ signal: ac.signal }));
    await server.waitForRequests(2);
    ac.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'cancelled' });
  });
});

describe('what came back, named', () => {
  it.each([
    [
      'an HTML page to a streamed request',
      true,
      reply.raw(200, '<!DOCTYPE html><html><head><title>Sign in – Proxy</title></head></html>', { 'content-type': 'text/html' }),
      /sent an HTML page \("Sign in – Proxy"\) instead of a chat completion/,
    ],
    [
      'invalid JSON to a streamed request',
      true,
      reply.raw(200, '{"choices": [{"message": '),
      /sent a reply that is not valid JSON \(it starts .*\) instead of a chat completion/,
    ],
    [
      'an empty body to a streamed request',
      true,
      reply.raw(200, '', { 'content-type': 'application/json' }),
      /sent an empty reply \(no body\) instead of a chat completion/,
    ],
    [
      'an HTML page without a content type',
      false,
      reply.raw(200, '<html><body>Bad gateway</body></html>', {}),
      /sent an HTML page instead of a chat completion/,
    ],
    ['a stream whose chunk is not JSON', true, reply.raw(200, 'data: <html>oops</html>\n\n', { 'content-type': 'text/event-stream' }), /not valid JSON/],
  ])('%s', async (_name, stream, step, reason) => {
    server.script(step);
    const res = await make({ stream }).summarize(request());
    expect(res.fallbackKind).toBe('badResponse');
    expect(res.fallbackReason).toMatch(reason);
    // The old misreading: every one of these called "the reply was empty".
    if (!/empty/.test(String(reason))) expect(res.fallbackReason).not.toMatch(/empty/);
  });

  it('a server that ignores stream: true and sends one completion is understood', async () => {
    server.script(
      reply.raw(200, JSON.stringify({ choices: [{ message: { role: 'assistant', content: llmReply(good) }, finish_reason: 'stop' }], model: 'm' })),
    );
    const res = await make({ stream: true }).summarize(request());
    expect(res.fallbackReason).toBeUndefined();
    expect(res.sections).toEqual(good);
  });

  it('a stream sent as text/plain is read as a stream', async () => {
    const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ delta: { content }, finish_reason: null }] })}\n\n`;
    const text = llmReply(good);
    server.script(reply.raw(200, `${chunk(text.slice(0, 100))}${chunk(text.slice(100))}data: [DONE]\n\n`, { 'content-type': 'text/plain' }));
    const res = await make({ stream: true }).summarize(request());
    expect(res.fallbackReason).toBeUndefined();
    expect(res.sections).toEqual(good);
  });
});

describe('the VS Code language-model adapter', () => {
  /** A model that sends one chunk and then never another, and ignores cancellation. */
  function stallingModel() {
    return {
      id: 'stalling',
      name: 'Stalling Model',
      vendor: 'fake',
      family: 'gpt-4o',
      version: '1',
      maxInputTokens: 128_000,
      async sendRequest() {
        async function* text() {
          yield '<summary>## Primary Request';
          await new Promise(() => undefined);
        }
        return { text: text(), stream: text() };
      },
      async countTokens() {
        return 1;
      },
    } as unknown as vscode.LanguageModelChat;
  }

  it('a stalled stream ends at the idle limit even when the model ignores the cancel', async () => {
    const client = new VscodeLmClient(stallingModel(), { idleMs: 300, totalMs: 60_000 });
    await expect(client.complete({ system: 's', user: 'u', maxTokens: 10 })).rejects.toMatchObject({
      kind: 'timeout',
      message: expect.stringMatching(/^The language model Stalling Model stopped sending in the middle of its reply: nothing for 0\.3 s/),
    });
    const summarizer = createBudgetedSummarizer(
      new VscodeLmClient(stallingModel(), { idleMs: 60_000 }),
      { clock: Date.now, name: 'vscode-lm' },
      { totalMs: 300 },
    );
    const res = await summarizer.summarize(request());
    expect(res.fallbackKind).toBe('timeout');
    expect(res.fallbackReason).toMatch(/The time for the whole summary \(0\.3 s\) ran out/);
  });
});

describe('ctxc compact --timeout: the whole summary, as a process', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'ctxc-deadline-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const file = transcriptPath('openhands/basic_gui_mode.json');
  const cli = join(repoRoot, 'dist', 'cli.js');

  function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
  }

  it.each([
    ['a stream that stalls after its first chunk', [], reply.stallAfterFirstChunk(llmReply(goodSections([])))],
    ['a non-streamed body that stalls', ['--no-stream'], reply.stallAfterFirstChunk(llmReply(goodSections([])))],
    ['no answer at all', [], reply.hang()],
  ])(
    '%s: falls back within --timeout 0.3 (exit 0), or exit 3 with --require-llm and no file',
    async (_name, extra, step) => {
      server.script(step);
      const out = join(tmp, 'out.md');
      const llm = ['--summarizer', 'openai', '--base-url', server.baseURL, '--model', 'fake', '--timeout', '0.3', ...extra];
      const strict = await runCli(['compact', file, ...llm, '--require-llm', '--out', out]);
      expect(strict.code, strict.stderr).toBe(3);
      expect(strict.stderr).toMatch(/--require-llm: the LLM summary was not used \(.*(did not answer|stopped sending|did not finish).*\); nothing was written/);
      expect(existsSync(out)).toBe(false);
      const plain = await runCli(['compact', file, ...llm, '--out', out]);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stderr).toMatch(
        /warning: the openai summary was not used \(.*The time for the whole summary \(0\.3 s\) ran out.*\); the extractive summary was used/,
      );
      expect(existsSync(out)).toBe(true);
      rmSync(out);
    },
    30_000,
  );

  it('--help says --timeout is the whole summary', async () => {
    let text = '';
    const io: CliIO = { out: (t) => void (text += t), err: () => undefined, env: {}, cwd: tmp };
    expect(await main(['compact', '--help'], io)).toBe(0);
    expect(text).toMatch(/--timeout SECONDS\s+the whole summary: every request, retry and pause \(default 300\)/);
  });
});
