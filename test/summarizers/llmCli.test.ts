// `ctxc compact --summarizer openai …`: the options, the key taken from the environment only,
// and the key never appearing in any output or file.

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { commands } from '../../src/cli/commands/registry';
import type { CliIO } from '../../src/cli/io';
import { createSummarizerFromCliArgs, LOCAL_PLACEHOLDER_KEY, type SummarizerCliResult } from '../../src/summarizers/fromCli';
import { extractiveFor, goodSections, llmReply, mustKeepFacts, sweAgentMessages } from '../helpers/llmFixtures';
import { reply, useOpenAiServer, type FakeOpenAiServer } from '../helpers/openaiServer';
import { transcriptPath } from '../helpers/transcripts';

const KEY = 'sk-cli-secret-5e0b7d2a9c44f1';
let server!: FakeOpenAiServer;
useOpenAiServer((s) => (server = s));

function ok(r: SummarizerCliResult) {
  if (!r.ok) throw new Error(`expected ok, got: ${r.error}`);
  return r;
}

function errorOf(args: string[], env: Record<string, string | undefined> = {}): string {
  const r = createSummarizerFromCliArgs(args, env);
  if (r.ok) throw new Error('expected an error');
  return r.error;
}

const span = sweAgentMessages('mini-swe-agent/pytest-dev__pytest-7490.traj.json').slice(1, 30);
const facts = mustKeepFacts(span);

describe('createSummarizerFromCliArgs', () => {
  it('is extractive by default and leaves every other argument to the caller', () => {
    const r = ok(createSummarizerFromCliArgs(['chat.json', '--ratio', '0.2'], {}));
    expect(r.summarizer).toBeUndefined();
    expect(r.description).toBe('extractive');
    expect(r.rest).toEqual(['chat.json', '--ratio', '0.2']);
  });

  it('builds the OpenAI-compatible summarizer, reading --model without consuming it', () => {
    const r = ok(
      createSummarizerFromCliArgs(
        [
          'chat.json',
          '--summarizer',
          'openai',
          '--base-url',
          'http://localhost:11434/v1',
          '--model',
          'qwen2.5:7b',
          '--summarizer-window=8192',
          '--',
          '--odd-file',
        ],
        {},
      ),
    );
    expect(r.summarizer).toMatchObject({ name: 'openai', model: 'qwen2.5:7b' });
    expect(r.description).toBe('openai (qwen2.5:7b at localhost:11434)');
    expect(r.rest).toEqual(['chat.json', '--model', 'qwen2.5:7b', '--', '--odd-file']);
  });

  it('--summarizer-model wins over --model', () => {
    const r = ok(
      createSummarizerFromCliArgs(['--summarizer=openai', '--base-url', 'http://127.0.0.1:1/v1', '--model', 'gpt-4o', '--summarizer-model', 'llama3.1:8b'], {}),
    );
    expect(r.summarizer?.model).toBe('llama3.1:8b');
  });

  it('wants a key for a remote endpoint and says where to put it', () => {
    expect(errorOf(['--summarizer', 'openai', '--base-url', 'https://api.example.com/v1'])).toBe(
      'no API key for api.example.com: set OPENAI_API_KEY in the environment or name another variable with --api-key-env',
    );
    expect(errorOf(['--summarizer', 'openai', '--api-key-env', 'MY_KEY'])).toBe('no API key for api.openai.com: set MY_KEY in the environment');
  });

  it('names the option and what it expected for bad values', () => {
    expect(errorOf(['--summarizer', 'claude'])).toBe("--summarizer expects 'extractive' or 'openai', got 'claude'");
    expect(errorOf(['--summarizer', 'openai', '--base-url', 'ftp://x'], { OPENAI_API_KEY: KEY })).toMatch(/^--base-url expects an http\(s\) URL/);
    expect(errorOf(['--summarizer', 'openai', '--summarizer-window', 'big'], { OPENAI_API_KEY: KEY })).toBe(
      "--summarizer-window expects a positive whole number, got 'big'",
    );
    expect(errorOf(['--summarizer', 'openai', '--header', 'nocolon'], { OPENAI_API_KEY: KEY })).toBe("--header expects 'Name: value', got 'nocolon'");
    expect(errorOf(['--summarizer', 'openai', '--timeout', '-3'], { OPENAI_API_KEY: KEY })).toMatch(/^--timeout expects seconds/);
    expect(errorOf(['--summarizer', 'openai', '--api-key-env', 'sk-oops'])).toMatch(/^--api-key-env expects an environment variable name/);
    expect(errorOf(['--base-url', 'http://localhost:1/v1'])).toBe('--base-url only apply with --summarizer openai');
    expect(errorOf(['--summarizer'])).toBe('--summarizer expects a value');
  });

  it('sends the key from the named variable, and a placeholder to a local server without one', async () => {
    server.script(reply.completion(llmReply(goodSections(facts))));
    const req = { messages: span, extractive: extractiveFor(facts), mustKeep: facts, maxTokens: 1_000 };
    const withKey = ok(
      createSummarizerFromCliArgs(
        ['--summarizer', 'openai', '--base-url', server.baseURL, '--model', 'm', '--api-key-env', 'CTXC_TEST_KEY', '--no-stream', '--header', 'X-Title: ctxc'],
        { CTXC_TEST_KEY: KEY },
      ),
    );
    const res = await withKey.summarizer!.summarize(req);
    expect(res.fallbackReason).toBeUndefined();
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]!.headers['x-title']).toBe('ctxc');
    expect(server.requests[0]!.body?.stream).toBeFalsy();
    expect(JSON.stringify(res) + withKey.description).not.toContain(KEY);

    const local = ok(createSummarizerFromCliArgs(['--summarizer', 'openai', '--base-url', server.baseURL, '--model', 'm'], {}));
    await local.summarizer!.summarize(req);
    expect(server.requests[1]!.headers.authorization).toBe(`Bearer ${LOCAL_PLACEHOLDER_KEY}`);
    expect(server.requests[1]!.body?.stream).toBe(true);
  });
});

describe('ctxc compact --summarizer openai', () => {
  it('is registered', () => {
    expect(commands.find((c) => c.name === 'compact')).toBeDefined();
  });

  function filesUnder(dir: string): string[] {
    const out: string[] = [];
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) out.push(...filesUnder(p));
      else out.push(p);
    }
    return out;
  }

  it.each([
    ['a good summary', () => reply.completion(llmReply(goodSections([])))],
    ['a rejected key', () => reply.error(401, { message: `Incorrect API key provided: ${KEY}` })],
  ])('never prints or writes the API key (%s)', async (_label, step) => {
    server.script(step());
    const dir = mkdtempSync(join(tmpdir(), 'ctxc-llm-cli-'));
    try {
      const file = join(dir, 'traj.json');
      copyFileSync(transcriptPath('mini-swe-agent/pytest-dev__pytest-7490.traj.json'), file);
      const chunks: string[] = [];
      const io: CliIO = { out: (t) => chunks.push(t), err: (t) => chunks.push(t), env: { CTXC_TEST_KEY: KEY }, cwd: dir };
      const code = await main(
        ['compact', file, '--summarizer', 'openai', '--base-url', server.baseURL, '--model', 'fake-model-1', '--api-key-env', 'CTXC_TEST_KEY'],
        io,
      );
      expect(code).toBe(0);
      expect(server.requests.length).toBeGreaterThan(0);
      expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(chunks.join('')).not.toContain(KEY);
      for (const f of filesUnder(dir)) expect(readFileSync(f, 'utf8'), f).not.toContain(KEY);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
