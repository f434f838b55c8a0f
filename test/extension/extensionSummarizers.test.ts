// Which summarizer a compaction gets from the settings: the engine's extractive one, an
// OpenAI-compatible endpoint (real SDK, real HTTP to a local server; key from SecretStorage),
// or a VS Code language model — both LLM kinds behind the engine's validated summarizer.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/engine/conversation/model';
import { emptySectionTexts, SECTION_NAMES } from '../../src/engine/sections';
import type { SummarizeRequest } from '../../src/engine/summarizer';
import { ApiKeyStore } from '../../src/extension/secrets';
import { DEFAULT_SETTINGS, type CompactorSettings } from '../../src/extension/settings';
import { isLocalEndpoint, SettingsSummarizerFactory } from '../../src/extension/summarizers/settingsSummarizerFactory';
import { reply, startOpenAiServer, type FakeOpenAiServer } from '../helpers/openaiServer';
import { createExtensionContext, fake, fakeChatModel, resetFake } from '../fakes/vscode';
import { newProfile } from '../fakes/extensionHost';
import type * as vscode from 'vscode';

const SUMMARY = `<summary>
${SECTION_NAMES.map((n) => `## ${n}\n${n === 'All user messages' ? '- Please fix the login redirect loop in src/auth/login.ts.' : `Notes on ${n.toLowerCase()}: the login redirect loop in src/auth/login.ts.`}`).join('\n\n')}
</summary>`;

function span(): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < 12; i++) {
    out.push({
      id: `u${i}`,
      role: 'user',
      itemType: 'USER_MESSAGE',
      content: [
        {
          type: 'text',
          text: `Please fix the login redirect loop in src/auth/login.ts. Attempt ${i}: the page keeps reloading after the OAuth callback and the session cookie is never set; logs show a 302 to /login again.`,
        },
      ],
    });
    out.push({
      id: `a${i}`,
      role: 'assistant',
      itemType: 'ASSISTANT_MESSAGE',
      content: [
        {
          type: 'text',
          text: `Looking at src/auth/login.ts, the callback handler checks the cookie before it is written. Step ${i}: move the check after setCookie and add a test for the redirect.`,
        },
      ],
    });
  }
  return out;
}

function request(): SummarizeRequest {
  const extractive = emptySectionTexts();
  extractive['All user messages'] = '- Please fix the login redirect loop in src/auth/login.ts.';
  return { messages: span(), extractive, mustKeep: [], maxTokens: 2000 };
}

function settings(over: Partial<CompactorSettings>): CompactorSettings {
  return { ...DEFAULT_SETTINGS, ...over };
}

const log = {
  lines: [] as string[],
  info(m: string) {
    this.lines.push(m);
  },
  warn(m: string) {
    this.lines.push(m);
  },
  error(m: string) {
    this.lines.push(m);
  },
  show() {},
};

describe('summarizer from settings', () => {
  let server: FakeOpenAiServer;
  let secrets: ApiKeyStore;
  let factory: SettingsSummarizerFactory;

  beforeAll(async () => {
    server = await startOpenAiServer(reply.completion(SUMMARY));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    resetFake();
    server.script(reply.completion(SUMMARY));
    server.requests.length = 0;
    const context = createExtensionContext(newProfile());
    secrets = new ApiKeyStore(context.secrets as unknown as vscode.SecretStorage);
    factory = new SettingsSummarizerFactory(secrets, log);
  });

  it('extractive: the engine’s own summarizer, nothing to create', async () => {
    expect(await factory.create(settings({}))).toEqual({ name: 'extractive' });
    expect(factory.describe(settings({}))).toBe('extractive');
  });

  it('openai: sends the stored key to the endpoint and returns the validated sections', async () => {
    await secrets.set('sk-test-0123456789');
    const made = await factory.create(settings({ summarizer: 'openai', openaiBaseUrl: server.baseURL, openaiModel: 'fake-model-1' }));
    expect(made.name).toBe('openai (fake-model-1)');
    const res = await made.summarizer!.summarize(request());
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-test-0123456789');
    expect(server.requests[0]!.body!.model).toBe('fake-model-1');
    expect(res.sections['Primary Request and Intent']).toContain('login redirect loop');
    expect(res.fallbackReason).toBeUndefined();
    expect(log.lines.join('\n')).not.toContain('sk-test-0123456789');
  });

  it('openai: a local endpoint works without a key; a remote one asks for it', async () => {
    expect(isLocalEndpoint(server.baseURL)).toBe(true);
    expect(isLocalEndpoint('http://localhost:11434/v1')).toBe(true);
    expect(isLocalEndpoint('https://api.openai.com/v1')).toBe(false);
    const local = await factory.create(settings({ summarizer: 'openai', openaiBaseUrl: server.baseURL }));
    await local.summarizer!.summarize(request());
    expect(server.requests[0]!.headers.authorization).toBe('Bearer local');
    await expect(factory.create(settings({ summarizer: 'openai', openaiBaseUrl: 'https://api.openai.com/v1' }))).rejects.toMatchObject({
      name: 'UserFacingError',
      message: expect.stringContaining('Set API Key'),
    });
  });

  it('openai: an endpoint that fails falls back to the extractive sections, with the reason', async () => {
    server.script(reply.error(401, { message: 'Incorrect API key provided' }));
    await secrets.set('sk-wrong-0123456789');
    const made = await factory.create(settings({ summarizer: 'openai', openaiBaseUrl: server.baseURL }));
    const res = await made.summarizer!.summarize(request());
    expect(res.fallbackReason).toMatch(/key|401/i);
    expect(res.sections['All user messages']).toContain('login redirect loop');
  });

  it('vscode-lm: the configured VS Code model writes the summary', async () => {
    const model = fakeChatModel({ id: 'copilot-gpt-4o', reply: () => SUMMARY, maxInputTokens: 64_000 });
    fake.setLmModels([fakeChatModel({ id: 'other' }), model]);
    const made = await factory.create(settings({ summarizer: 'vscode-lm', vscodeLmModel: 'copilot-gpt-4o' }));
    expect(made.name).toBe('vscode-lm (Fake Model)');
    const res = await made.summarizer!.summarize(request());
    expect(model.requests).toHaveLength(1);
    expect(res.sections['Files and Code Sections']).toContain('src/auth/login.ts');
  });

  it('vscode-lm: a missing model is a clear error, never a silent switch', async () => {
    fake.setLmModels([fakeChatModel({ id: 'other' })]);
    await expect(factory.create(settings({ summarizer: 'vscode-lm', vscodeLmModel: 'gone' }))).rejects.toMatchObject({
      message: expect.stringContaining('gone is not available'),
    });
    fake.setLmModels([]);
    await expect(factory.create(settings({ summarizer: 'vscode-lm' }))).rejects.toMatchObject({ message: expect.stringContaining('no language models') });
  });
});
