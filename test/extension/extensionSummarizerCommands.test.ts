// "Select Summarizer and Model", "Set API Key" and "Show Context Usage" through the commands,
// with the real engine: an OpenAI-compatible endpoint picked in the dialogs (a local server
// speaking the real protocol) then writes the summary of a real transcript's compaction; a VS
// Code language model can be picked from what vscode.lm offers; the key lives in SecretStorage only.
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SECTION_NAMES } from '../../src/engine/sections';
import { reply, startOpenAiServer, type FakeOpenAiServer } from '../helpers/openaiServer';
import { hostWithSharedTranscript, type ActivatedHost } from '../fakes/extensionHost';
import { fake, fakeChatModel, resetFake } from '../fakes/vscode';
import { warningText } from '../../src/engine/warnings';

const REL = 'openhands/basic_gui_mode.json';
const KEY = 'sk-test-summarizer-0123456789';

/** An LLM summary with the 8 sections, in the format the validated summarizer asks for. */
const SUMMARY = `<summary>\n${SECTION_NAMES.map((n) => `## ${n}\n- Notes on ${n.toLowerCase()} of the GUI session.`).join('\n\n')}\n</summary>`;

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(full));
    else out.push(full);
  }
  return out;
}

describe('summarizer and key commands', () => {
  let server: FakeOpenAiServer;
  let host: ActivatedHost;
  const active = () => host.api.store.active()!;

  beforeAll(async () => {
    server = await startOpenAiServer(reply.completion(SUMMARY));
  });
  afterAll(() => server.close());

  beforeEach(async () => {
    resetFake();
    server.script(reply.completion(SUMMARY));
    server.requests.length = 0;
    host = await hostWithSharedTranscript(REL);
  });
  afterEach(() => host.deactivate());

  it('openai: endpoint and model from the dialogs, key from Set API Key; the compaction’s summary comes from that endpoint', async () => {
    fake.answers.quickPick.push((items) => items.find((i) => i.label.startsWith('openai')));
    fake.answers.inputBox.push(server.baseURL, 'fake-model-1');
    // No key yet: the command offers Set API Key.
    fake.answers.info.push('Set API Key');
    fake.answers.inputBox.push(KEY);
    await fake.command('contextCompactor.selectSummarizer')!();
    expect(fake.state.inputBoxes.at(-1)).toMatchObject({ password: true });
    expect(fake.messages.at(-1)!.message).toBe('Summaries now come from: openai (fake-model-1).');

    fake.answers.warning.push('Compact');
    await fake.command('contextCompactor.compact')!();
    const modal = fake.messages.find((m) => m.modal)!;
    expect(modal.detail).toContain('Summarizer: openai (fake-model-1)');
    expect(modal.detail).toContain('estimated with the extractive summarizer');
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]!.body!.model).toBe('fake-model-1');
    const result = active().lastResult!;
    expect(result.summarizer.name).toBe('openai');
    expect(result.summarizer.fallbackReason).toBeUndefined();
    expect(host.api.store.summaryText(active().key)).toContain('Notes on current work of the GUI session');
    // The key is in SecretStorage only: never in the log, the settings or the extension's files.
    expect(fake.outputChannel('Context Compactor')!.lines.join('\n')).not.toContain(KEY);
    for (const f of filesUnder(host.profile.storageDir)) expect(readFileSync(f, 'utf8'), f).not.toContain(KEY);
  });

  it('openai: an endpoint that fails falls back to the extractive summary and says why', async () => {
    fake.setConfig('contextCompactor.summarizer', 'openai');
    fake.setConfig('contextCompactor.openai.baseUrl', server.baseURL);
    fake.setConfig('contextCompactor.requireConfirmation', false);
    server.script(
      reply.error(500, { message: 'boom' }),
      reply.error(500, { message: 'boom' }),
      reply.error(500, { message: 'boom' }),
      reply.error(500, { message: 'boom' }),
    );
    await fake.command('contextCompactor.compact')!();
    const result = active().lastResult!;
    expect(active().compactions).toBe(1);
    expect(result.summarizer.fallbackReason).toBeTruthy();
    expect(result.warnings.map(warningText).join('\n')).toMatch(/extractive summary was used/);
    const told = fake.messages.find((m) => m.message.startsWith('Compacted:'))!;
    expect(told.kind).toBe('warning');
    expect(told.message).toMatch(/The LLM summary was not used \(.*500.*\); the extractive summary was used instead\./);
    expect(told.items).toEqual(['Undo', 'Inspect']);
  });

  it('Set API Key with an empty entry removes the key', async () => {
    fake.answers.inputBox.push(KEY);
    await fake.command('contextCompactor.setApiKey')!();
    expect(fake.messages.at(-1)!.message).toBe('API key saved.');
    expect(host.profile.secrets.size).toBe(1);
    fake.answers.inputBox.push('');
    await fake.command('contextCompactor.setApiKey')!();
    expect(fake.messages.at(-1)!.message).toBe('API key removed.');
    expect(host.profile.secrets.size).toBe(0);
  });

  it('vscode-lm: lists the models VS Code offers and keeps the one picked; none offered changes nothing', async () => {
    fake.answers.quickPick.push((items) => items.find((i) => i.label.startsWith('vscode-lm')));
    await fake.command('contextCompactor.selectSummarizer')!();
    expect(fake.messages.at(-1)!.kind).toBe('warning');
    expect(host.api.store.active()).toBeDefined();
    fake.setLmModels([fakeChatModel({ id: 'lm-a', maxInputTokens: 64_000 }), fakeChatModel({ id: 'lm-b', maxInputTokens: 128_000 })]);
    fake.answers.quickPick.push((items) => items.find((i) => i.label.startsWith('vscode-lm')));
    fake.answers.quickPick.push((items) => items[1]);
    await fake.command('contextCompactor.selectSummarizer')!();
    expect(fake.state.quickPicks.at(-1)!.items.map((i) => i.detail)).toEqual(['64000 input tokens', '128000 input tokens']);
    expect(fake.messages.at(-1)!.message).toMatch(/^Summaries now come from: vscode-lm/);
    expect(readSettingsSummarizer()).toEqual({ summarizer: 'vscode-lm', model: 'lm-b' });
  });

  it('Show Context Usage lists the categories with the model, window and count method', async () => {
    fake.answers.quickPick.push(() => undefined);
    await fake.command('contextCompactor.showUsage')!();
    const pick = fake.state.quickPicks.at(-1)!;
    const report = active().report;
    expect(pick.options!.title).toBe(
      `Context usage — ${basename(REL)}: ${report.total.toLocaleString('en-US')} / ${report.window.toLocaleString('en-US')} tokens (${report.percent.toFixed(1)}%)`,
    );
    expect(pick.items.some((i) => i.label.includes(`Model: ${report.model}`))).toBe(true);
    expect(pick.items.some((i) => i.label === 'User')).toBe(true);
  });
});

function readSettingsSummarizer(): { summarizer: unknown; model: unknown } {
  return { summarizer: fake.state.config.get('contextCompactor.summarizer'), model: fake.state.config.get('contextCompactor.vscodeLm.model') };
}
