// The status-bar meter: its exact text and accessibility label (the end-to-end test reads the
// label), its colours at the thresholds, and that it follows the conversation as it grows.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatTokenCount, meterAccessibilityLabel, meterText } from '../../src/extension/meter/meterText';
import { contextPressure } from '../../src/extension/trigger';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { tokenReport } from '../../src/engine/tokens/report';
import { fixturesDir, repoRoot, transcriptPath } from '../helpers/transcripts';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { standInEngine, standInImport } from '../fakes/compactionEngine';
import { activateHost, HOST_SETTLES, type ActivatedHost } from '../fakes/extensionHost';
import { fake, resetFake, Uri, workspace, type FakeStatusBarItem, type MarkdownString, type ThemeColor } from '../fakes/vscode';
import { createEngine } from '../../src/extension/engineModules';

const TRANSCRIPT = 'mini-swe-agent/django__django-11138.traj.json';

/** What `ctxc count --json` prints for a file: the numbers the meter must show. */
async function countJson(path: string): Promise<{ total: number; window: number; percent: number; model: string; reported: { tokens: number } | null }> {
  let out = '';
  const io: CliIO = { out: (t) => void (out += t), err: () => undefined, env: {}, cwd: repoRoot };
  expect(await main(['count', path, '--json'], io)).toBe(0);
  return JSON.parse(out);
}

describe('meter text', () => {
  it('abbreviates counts as the contract says', () => {
    expect(formatTokenCount(0)).toBe('0');
    expect(formatTokenCount(950)).toBe('950');
    expect(formatTokenCount(8240)).toBe('8.2k');
    expect(formatTokenCount(9949)).toBe('9.9k');
    expect(formatTokenCount(9950)).toBe('10k');
    expect(formatTokenCount(142_317)).toBe('142k');
    expect(formatTokenCount(200_000)).toBe('200k');
    expect(formatTokenCount(999_499)).toBe('999k');
    expect(formatTokenCount(999_500)).toBe('1M');
    expect(formatTokenCount(1_000_000)).toBe('1M');
    expect(formatTokenCount(1_047_576)).toBe('1M');
    expect(formatTokenCount(1_500_000)).toBe('1.5M');
  });

  it('shows `$(pulse) total / window · percent` and a plain-integer accessibility label', () => {
    const report = { total: 142_317, window: 200_000, percent: 71.2 };
    expect(meterText(report)).toBe('$(pulse) 142k / 200k · 71%');
    expect(meterAccessibilityLabel(report)).toBe('Context Compactor: 142317 / 200000 tokens (71.2%)');
    expect(meterAccessibilityLabel({ total: 5, window: 128_000, percent: 0 })).toBe('Context Compactor: 5 / 128000 tokens (0.0%)');
  });

  it('turns yellow at triggerRatio − 0.1 and red at triggerRatio', () => {
    const at = (total: number) => contextPressure({ total, window: 1000 }, 0.8).level;
    expect(at(699)).toBe('ok');
    expect(at(700)).toBe('warning');
    expect(at(799)).toBe('warning');
    expect(at(800)).toBe('trigger');
    expect(at(1200)).toBe('trigger');
    expect(contextPressure({ total: 1200, window: 1000 }, 0.8).overWindow).toBe(true);
  });
});

describe('meter in the host', () => {
  let host: ActivatedHost;
  let dir: string;
  let meter: () => FakeStatusBarItem;

  beforeEach(async () => {
    resetFake();
    dir = mkdtempSync(join(tmpdir(), 'ctxc-ws-'));
    copyFileSync(transcriptPath(TRANSCRIPT), join(dir, 'django.traj.json'));
    fake.setWorkspaceRoot(dir);
    host = activateHost(standInEngine());
    meter = () => fake.statusBarItem('contextCompactor.meter')!;
  });
  afterEach(() => host.deactivate());

  async function openTranscript(): Promise<void> {
    fake.answers.quickPick.push((items) => items.find((i) => i.label === 'django.traj.json'));
    await fake.command('contextCompactor.openTranscript')!();
  }

  it('is hidden until a conversation is active, then shows the transcript’s exact count', async () => {
    expect(meter().visible).toBe(false);
    expect(meter().name).toBe('Context Compactor');
    expect(meter().alignment).toBe(2 /* Right */);
    await openTranscript();
    // The Quick Pick the end-to-end test uses: title, file name + folder, Browse… last.
    const pick = fake.state.quickPicks[0]!;
    expect(pick.options?.title).toBe('Open Transcript');
    expect(pick.items.at(-1)!.label).toBe('Browse…');
    expect(pick.items.find((i) => i.label === 'django.traj.json')).toMatchObject({ description: '' });
    await vi.waitFor(() => expect(meter().visible).toBe(true), HOST_SETTLES);
    // Independent count: the same file, the same default model (gpt-4o), the engine's counter.
    const conv = standInImport(readFileSync(join(dir, 'django.traj.json'), 'utf8'), join(dir, 'django.traj.json')).conversation;
    const expected = tokenReport(conv.messages, await createTokenCounter('gpt-4o'));
    // The numbers, then what the meter shows (here the transcript's name).
    expect(meter().accessibilityInformation!.label).toBe(
      `Context Compactor: ${expected.total} / 128000 tokens (${expected.percent.toFixed(1)}%) — django.traj.json`,
    );
    expect(meter().text).toBe(`$(pulse) ${formatTokenCount(expected.total)} / 128k · ${Math.round(expected.percent)}% · django.traj.json`);
    expect(meter().command).toBe('contextCompactor.showUsage');
    const tooltip = (meter().tooltip as MarkdownString).value;
    expect(tooltip.replace(/\\/g, '')).toContain('django.traj.json');
    expect(tooltip).toContain(`| User | ${expected.byCategory.user.toLocaleString('en')} |`);
    expect(tooltip).toContain(`| Assistant | ${expected.byCategory.assistant.toLocaleString('en')} |`);
    expect(tooltip).toMatch(/Compaction is proposed at 80% \(102,400 tokens\)/);
    expect(tooltip.replace(/\\/g, '')).toMatch(/Model: gpt-4o · window 128,000 · count: exact \(o200k_base\)/);
    expect(tooltip).toContain('Compactions so far: 0');
  });

  it('colours by the window the settings give: none, warning, error', async () => {
    await openTranscript();
    await vi.waitFor(() => expect(meter().visible).toBe(true), HOST_SETTLES);
    const total = host.api.store.active()!.report.total;
    const colourAt = async (ratio: number) => {
      const window = Math.ceil(total / ratio);
      fake.setConfig('contextCompactor.maxContextTokens', window);
      await vi.waitFor(() => expect(host.api.store.active()!.report.window).toBe(window), HOST_SETTLES);
      return (meter().backgroundColor as ThemeColor | undefined)?.id;
    };
    expect(await colourAt(0.5)).toBeUndefined();
    expect(await colourAt(0.75)).toBe('statusBarItem.warningBackground');
    expect(await colourAt(0.85)).toBe('statusBarItem.errorBackground');
    // A lower trigger ratio moves the thresholds without recounting.
    fake.setConfig('contextCompactor.maxContextTokens', Math.ceil(total / 0.5));
    await vi.waitFor(() => expect(meter().backgroundColor).toBeUndefined(), HOST_SETTLES);
    fake.setConfig('contextCompactor.triggerRatio', 0.5);
    expect((meter().backgroundColor as ThemeColor).id).toBe('statusBarItem.errorBackground');
  });

  it('follows the transcript as it grows, counting only the new message', async () => {
    await openTranscript();
    await vi.waitFor(() => expect(meter().visible).toBe(true), HOST_SETTLES);
    const key = host.api.store.active()!.key;
    const before = host.api.store.active()!.report.total;
    const counter = await host.api.store.counterFor(key);
    const encodedBefore = counter.encodedMessages;
    const doc = fake.state.documents.find((d) => d.uri.toString() === key)!;
    const data = JSON.parse(doc.getText()) as { messages: { role: string; content: string }[] };
    data.messages.push({ role: 'user', content: 'One more question about the timezone conversion in the MySQL backend.' });
    fake.editDocument(doc, JSON.stringify(data));
    await vi.waitFor(() => expect(host.api.store.active()!.report.total).toBeGreaterThan(before), HOST_SETTLES);
    expect(counter.encodedMessages - encodedBefore).toBe(1);
    expect(host.api.store.active()!.report.messageCount).toBe(data.messages.length);
    expect(meter().accessibilityInformation!.label).toContain(`${host.api.store.active()!.report.total} / 128000`);
  });

  it('hides when the transcript is closed or the extension is disabled', async () => {
    await openTranscript();
    await vi.waitFor(() => expect(meter().visible).toBe(true), HOST_SETTLES);
    fake.setConfig('contextCompactor.enabled', false);
    expect(meter().visible).toBe(false);
    fake.setConfig('contextCompactor.enabled', true);
    expect(meter().visible).toBe(true);
    const doc = fake.state.documents.find((d) => d.uri.toString() === host.api.store.active()!.key)!;
    fake.closeDocument(doc);
    expect(meter().visible).toBe(false);
  });

  it('makes a focused transcript editor the active conversation, and leaves other files alone', async () => {
    const other = await (await import('../fakes/vscode')).workspace.openTextDocument({ content: '{"name": "x"}', language: 'json' });
    fake.setActiveEditor(other);
    await new Promise((r) => setTimeout(r, 30));
    expect(host.api.store.active()).toBeUndefined();
    const { workspace } = await import('../fakes/vscode');
    const doc = await workspace.openTextDocument(Uri.file(join(dir, 'django.traj.json')));
    fake.setActiveEditor(doc);
    await vi.waitFor(() => expect(host.api.store.active()?.key).toBe(doc.uri.toString()), HOST_SETTLES);
    expect(meter().visible).toBe(true);
  });
});

describe('meter on every shared transcript format, with the real importers', () => {
  let host: ActivatedHost;
  beforeEach(() => {
    resetFake();
    host = activateHost({ ...standInEngine(), importTranscript: createEngine().importTranscript });
  });
  afterEach(() => host.deactivate());

  it.each([
    'claude-code/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
    'claude-code/kiliman__claude-transcript__test2.jsonl',
    'aider/AFI-Protocol__afi-core.aider.chat.history.md',
    'mini-swe-agent/pytest-dev__pytest-7490.traj.json',
    'openhands/basic_gui_mode.json',
    join(fixturesDir, 'cline-task', 'api_conversation_history.json'),
    join(fixturesDir, 'logscan.aider.chat.history.md'),
  ])('%s: focusing it makes it active, counted as `ctxc count` counts it', async (rel) => {
    const path = rel.startsWith('/') ? rel : transcriptPath(rel);
    const doc = await workspace.openTextDocument(Uri.file(path));
    fake.setActiveEditor(doc);
    await vi.waitFor(() => expect(host.api.store.active()?.key).toBe(doc.uri.toString()), HOST_SETTLES);
    // The CLI's rule: the transcript's own model when it records one, else gpt-4o.
    const j = await countJson(path);
    const label = fake.statusBarItem('contextCompactor.meter')!.accessibilityInformation!.label;
    expect(label).toBe(`Context Compactor: ${j.total} / ${j.window} tokens (${j.percent.toFixed(1)}%) — ${basename(path)}`);
    expect(host.api.store.active()!.model).toBe(j.model);
    // Where a figure is recorded, the meter shows it (plus what came after), not our count of the file.
    if (j.reported) expect(host.api.store.active()!.report.reported?.usage.tokens).toBe(j.reported.tokens);
  });

  // Where the meter's number comes from.
  const meter = () => fake.statusBarItem('contextCompactor.meter')!;
  const tooltip = () => (meter().tooltip as MarkdownString).value.replace(/\\/g, '');

  it('a Claude Code session: the API’s figure, what was counted since and what the file does not show; appending keeps the calibration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxc-usage-'));
    const path = join(dir, 'session.jsonl');
    copyFileSync(transcriptPath('claude-code/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'), path);
    const doc = await workspace.openTextDocument(Uri.file(path));
    fake.setActiveEditor(doc);
    await vi.waitFor(() => expect(meter().visible).toBe(true), HOST_SETTLES);
    const report = host.api.store.active()!.report;
    expect(report.reported).toMatchObject({ usage: { tokens: 21_552, source: 'claude-code', line: 438 } });
    const since = report.reported!.countedSince!;
    expect(report.total).toBe(21_552 + since);
    expect(tooltip()).toContain(`As reported by the API (Claude Code, line 438), +${since} since.`);
    expect(tooltip()).toContain(`Reported: 21,552 · counted since: ${since} · not in the file (system prompt, tools): ${report.overhead.toLocaleString('en')}`);
    expect(tooltip()).toContain(`| Not in the file (system prompt, tools) | ${report.overhead.toLocaleString('en')} |`);
    // The agent appends a turn: the overhead stays, the new message is counted on top.
    const lines = doc.getText().trimEnd().split('\n');
    const last = JSON.parse([...lines].reverse().find((l) => l.includes('"uuid"') && !l.includes('"isSidechain":true'))!) as {
      uuid: string;
      sessionId: string;
    };
    const turn = {
      parentUuid: last.uuid,
      isSidechain: false,
      type: 'user',
      sessionId: last.sessionId,
      uuid: 'aaaaaaaa-0000-4000-8000-000000000001',
      timestamp: '2025-07-01T00:00:00.000Z',
      message: { role: 'user', content: 'Also add a dark mode toggle to the header, and keep the tests green.' },
    };
    fake.editDocument(doc, `${doc.getText()}${JSON.stringify(turn)}\n`);
    await vi.waitFor(() => expect(host.api.store.active()!.report.messageCount).toBe(report.messageCount + 1), HOST_SETTLES);
    const grown = host.api.store.active()!.report;
    expect(grown.overhead).toBe(report.overhead);
    expect(grown.reported!.countedSince).toBeGreaterThan(since);
    expect(grown.total).toBe(21_552 + grown.reported!.countedSince!);
    expect(meter().accessibilityInformation!.label).toBe(`Context Compactor: ${grown.total} / 200000 tokens (${grown.percent.toFixed(1)}%) — session.jsonl`);
  });

  it('a figure below our count of the same messages is implausible: named, not used, no negative row, no share over 100%', async () => {
    // A real aider history whose last recorded usage is made far lower ("13k" → "9k", ±500) than our
    // count of its messages: beyond the rounding and a proxy tokenizer's difference, so not what was sent.
    const copy = join(mkdtempSync(join(tmpdir(), 'ctxc-implausible-')), 'low.aider.chat.history.md');
    const text = readFileSync(transcriptPath('aider/AlexShchuka__mozgoslav.aider.chat.history.md'), 'utf8');
    const at = text.lastIndexOf('> Tokens: 13k sent');
    expect(at).toBeGreaterThan(0);
    writeFileSync(copy, `${text.slice(0, at)}> Tokens: 9k sent${text.slice(at + '> Tokens: 13k sent'.length)}`);
    const doc = await workspace.openTextDocument(Uri.file(copy));
    fake.setActiveEditor(doc);
    await vi.waitFor(() => expect(meter().visible).toBe(true), HOST_SETTLES);
    const report = host.api.store.active()!.report;
    expect(report.overhead).toBe(0);
    expect(report.total).toBe(report.counted);
    expect(report.implausible?.usage.tokens).toBe(9_000);
    expect(tooltip()).toContain(
      `Our count. The agent recorded 9,000 tokens (aider, line ${report.implausible!.usage.line}), fewer than our count of the same messages (${report.implausible!.countedAsOf.toLocaleString('en')}): that figure cannot be what was sent, so it is not used.`,
    );
    expect(tooltip()).not.toContain('Not in the file');
    fake.answers.quickPick.push(() => undefined);
    await fake.command('contextCompactor.showUsage')!();
    for (const item of fake.state.quickPicks.at(-1)!.items) {
      const share = /· (-?[\d.]+)%$/.exec(String(item.description ?? ''));
      if (!share) continue;
      expect(Number(share[1])).toBeGreaterThanOrEqual(0);
      expect(Number(share[1])).toBeLessThanOrEqual(100);
    }
  });

  it('no usage recorded: our count, and an estimate when another tokenizer stands in for the model’s', async () => {
    const doc = await workspace.openTextDocument(Uri.file(transcriptPath('openhands/basic_gui_mode.json')));
    fake.setActiveEditor(doc);
    await vi.waitFor(() => expect(meter().visible).toBe(true), HOST_SETTLES);
    expect(host.api.store.active()!.report.overhead).toBe(0);
    expect(tooltip()).toContain("An estimate: o200k_base stands in for this model's tokenizer; no usage reported.");
    expect(tooltip()).not.toContain('Not in the file');
  });
});
