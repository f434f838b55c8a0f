// "Compact Conversation" with the REAL engine behind the extension (no stand-in): real
// transcripts of three formats go through the command with the vscode fake. The confirmation's
// "<before> → <after>" and the meter after Compact equal what the engine gives with no options
// at all — which is what `ctxc compact FILE --format json` runs with default settings — undo
// restores the exact import, exports are valid for their APIs, and Copy Summary holds the
// 8 section headings.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { COMPACTION_DEFAULTS, compactConversation } from '../../src/engine/compactor';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import type { Conversation } from '../../src/engine/conversation/model';
import { SECTION_NAMES } from '../../src/engine/sections';
import { escapeMarkdown } from '../../src/engine/text/markdownEscape';
import { listStrategies } from '../../src/engine/strategies/registry';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { tokenReport } from '../../src/engine/tokens/report';
import { compactionFigures } from '../../src/engine/figures';
import { confirmationMessage } from '../../src/extension/compact/confirmCompaction';
import { createEngine } from '../../src/extension/engineModules';
import { apiShapeProblems } from '../helpers/toolPairingCheck';
import { transcriptPath } from '../helpers/transcripts';
import { activateHost, HOST_SETTLES, hostWithSharedTranscript, newProfile, type ActivatedHost } from '../fakes/extensionHost';
import { fake, resetFake, Uri, type FakeStatusBarItem } from '../fakes/vscode';

/** Token counts as the messages show them (the fake's language is English). */
const grouped = (n: number): string => n.toLocaleString('en');

/** Four formats, small enough to compact several times per test run; the Claude Code session is
 *  the one the end-to-end test compacts in real VS Code. */
const TRANSCRIPTS = [
  'mini-swe-agent/django__django-11138.traj.json',
  'aider/AFI-Protocol__afi-core.aider.chat.history.md',
  'openhands/basic_gui_mode.json',
  'claude-code/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
];

/** What `ctxc compact FILE --archive DIR --format json` computes with default settings: the import, the
 *  transcript's own model else gpt-4o, and the engine's defaults for everything else; before and
 *  after as the agent will see them (the overhead its reported usage shows added, as the meter does).
 *  With an archive on disk, as the extension always has: the summary then says undo restores it. */
async function cliReference(file: string): Promise<{ conversation: Conversation; tokensBefore: number; tokensAfter: number; overhead: number; model: string }> {
  const conversation = importTranscript(readFileSync(file, 'utf8'), { sourcePath: file }).conversation;
  const model = conversation.meta.model || 'gpt-4o';
  const counter = await createTokenCounter(model);
  const result = await compactConversation(conversation, { counter, archive: new MemoryArchive(true) });
  const overhead = tokenReport(conversation.messages, counter, conversation.meta).overhead;
  return { conversation, tokensBefore: result.tokensBefore + overhead, tokensAfter: result.tokensAfter + overhead, overhead, model };
}

/** The number in the meter's accessibility label (what the end-to-end test reads). */
function meterTotal(item: FakeStatusBarItem): number {
  const m = /^Context Compactor: (\d+) \/ (\d+) tokens \(\d+\.\d%\)(?: — .*)?$/.exec(item.accessibilityInformation!.label);
  if (!m) throw new Error(`unexpected meter label ${item.accessibilityInformation!.label}`);
  return Number(m[1]);
}

describe.each(TRANSCRIPTS)('Compact Conversation with the real engine: %s', (rel) => {
  let host: ActivatedHost;
  let dir: string;
  let file: string;
  const name = basename(rel);
  const meter = (): FakeStatusBarItem => fake.statusBarItem('contextCompactor.meter')!;
  const active = () => host.api.store.active()!;

  async function open(): Promise<void> {
    fake.answers.quickPick.push((items) => items.find((i) => i.label === name));
    await fake.command('contextCompactor.openTranscript')!();
    await vi.waitFor(() => expect(meter().visible).toBe(true), HOST_SETTLES);
  }

  beforeEach(async () => {
    resetFake();
    dir = mkdtempSync(join(tmpdir(), 'ctxc-real-'));
    file = join(dir, name);
    copyFileSync(transcriptPath(rel), file);
    fake.setWorkspaceRoot(dir);
    host = activateHost();
    await open();
  });
  afterEach(() => host.deactivate());

  it('confirms with the CLI’s before → after, the meter then shows that after, and undo restores the exact original', async () => {
    const ref = await cliReference(file);
    expect(meterTotal(meter())).toBe(ref.tokensBefore);
    expect(active().model).toBe(ref.model);
    const original = readFileSync(file);

    fake.answers.warning.push('Compact');
    await fake.command('contextCompactor.compact')!();
    const modal = fake.messages.find((m) => m.modal)!;
    expect(modal.message).toBe(`Compact this conversation? ${grouped(ref.tokensBefore)} → ${grouped(ref.tokensAfter)} tokens (estimated)`);
    expect(modal.detail).toMatch(/Strategy: \S+ · Summarizer: extractive · Expected retention: \d+% \(\w+\)/);
    expect(modal.items).toEqual(['Compact', 'Inspect First…']);

    expect(active().compactions).toBe(1);
    expect(modal.detail).toContain(`Strategy: ${active().lastResult!.strategy} · `);
    expect(active().lastResult!.tokensAfter + ref.overhead).toBe(ref.tokensAfter);
    expect(meterTotal(meter())).toBe(ref.tokensAfter);
    expect(active().report.total).toBe(ref.tokensAfter);
    expect(ref.tokensAfter).toBeLessThan(ref.tokensBefore);
    // An independent count of the compacted view, plus the overhead, agrees with the meter.
    const counter = await createTokenCounter(ref.model);
    expect(tokenReport(active().conversation.messages, counter).total + ref.overhead).toBe(ref.tokensAfter);
    expect(active().report.overhead).toBe(ref.overhead);
    expect(apiShapeProblems(active().conversation.messages)).toEqual([]);
    expect(
      fake.messages.some((m) => m.kind === 'info' && m.message.startsWith(`Compacted: ${grouped(ref.tokensBefore)} → ${grouped(ref.tokensAfter)} tokens`)),
    ).toBe(true);
    expect(readFileSync(file).equals(original)).toBe(true);

    await fake.command('contextCompactor.undo')!();
    expect(JSON.stringify(active().conversation)).toBe(JSON.stringify(ref.conversation));
    expect(meterTotal(meter())).toBe(ref.tokensBefore);
    expect(active().compactions).toBe(0);
  });

  it('agrees with `ctxc compact FILE --archive DIR --format json` itself', async () => {
    const io: CliIO & { stdout: string } = { stdout: '', env: {}, cwd: dir, out: (t) => void (io.stdout += t), err: () => undefined };
    expect(await main(['compact', file, '--format', 'json', '--archive', join(dir, 'cli-archive')], io)).toBe(0);
    const cli = JSON.parse(io.stdout) as { tokensBefore: number; tokensAfter: number };
    expect(meterTotal(meter())).toBe(cli.tokensBefore);
    fake.answers.warning.push('Compact');
    await fake.command('contextCompactor.compact')!();
    expect(fake.messages.find((m) => m.modal)!.message).toContain(`${grouped(cli.tokensBefore)} → ${grouped(cli.tokensAfter)} tokens`);
    expect(meterTotal(meter())).toBe(cli.tokensAfter);
  });

  it('Cancel on the progress notification reaches the engine: nothing changes, nothing is written', async () => {
    fake.setConfig('contextCompactor.requireConfirmation', false);
    const before = active().conversation;
    const total = meterTotal(meter());
    fake.state.onProgress = (source) => source.cancel();
    await fake.command('contextCompactor.compact')!();
    expect(fake.messages.at(-1)!.message).toBe('Cancelled. Nothing was changed.');
    expect(active().conversation).toBe(before);
    expect(active().compactions).toBe(0);
    expect(meterTotal(meter())).toBe(total);
    expect(existsSync(join(host.profile.storageDir, 'global', 'conversations'))).toBe(false);
  });

  it('exports the compacted view as valid Markdown, OpenAI and Anthropic files, and copies a summary with the 8 headings', async () => {
    fake.setConfig('contextCompactor.requireConfirmation', false);
    await fake.command('contextCompactor.compact')!();
    expect(active().compactions).toBe(1);
    const view = active().conversation;

    const exported: Record<string, string> = {};
    for (const [index, format] of ['markdown', 'openai', 'anthropic'].entries()) {
      const target = join(dir, 'out', `export.${format}`);
      fake.answers.quickPick.push((items) => items[index]);
      fake.answers.saveDialog.push(Uri.file(target));
      await fake.command('contextCompactor.export')!();
      exported[format] = readFileSync(target, 'utf8');
    }
    // Markdown: the summary's headings and every kept message's role are there.
    for (const section of SECTION_NAMES) expect(exported.markdown).toContain(section);
    // OpenAI: Chat Completions messages that re-import to the same roles and keep the API rule.
    const openai = JSON.parse(exported.openai!) as { messages?: { role: string }[] } | { role: string }[];
    const openaiMessages = Array.isArray(openai) ? openai : openai.messages!;
    expect(openaiMessages.length).toBeGreaterThan(0);
    for (const m of openaiMessages) expect(['system', 'user', 'assistant', 'tool']).toContain(m.role);
    const back = importTranscript(exported.openai!, { format: 'openai' }).conversation;
    expect(apiShapeProblems(back.messages)).toEqual([]);
    expect(back.messages.map((m) => m.role)).toEqual(
      view.messages.filter((m) => m.content.some((p) => p.type !== 'thinking') || m.toolCalls?.length || m.toolResult).map((m) => m.role),
    );
    // Anthropic: a Messages API body — user/assistant alternate, starting with user.
    const anthropic = JSON.parse(exported.anthropic!) as { messages: { role: string }[] };
    expect(anthropic.messages.length).toBeGreaterThan(0);
    expect(anthropic.messages[0]!.role).toBe('user');
    anthropic.messages.forEach((m, i) => expect(m.role).toBe(i % 2 === 0 ? 'user' : 'assistant'));
    expect(apiShapeProblems(importTranscript(exported.anthropic!, { format: 'anthropic' }).conversation.messages)).toEqual([]);

    fake.state.clipboard = '';
    await fake.command('contextCompactor.copySummary')!();
    const summary = fake.state.clipboard;
    for (const section of SECTION_NAMES) expect(summary).toMatch(new RegExp(`^#+ ${section.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm'));
  });
});

describe('the real engine behind the extension', () => {
  afterEach(() => undefined);

  it('keeps the compacted view and undo across a reload (file archive, real engine)', async () => {
    resetFake();
    const rel = TRANSCRIPTS[0]!;
    const dir = mkdtempSync(join(tmpdir(), 'ctxc-reload-'));
    const file = join(dir, basename(rel));
    copyFileSync(transcriptPath(rel), file);
    fake.setWorkspaceRoot(dir);
    const profile = newProfile();
    const ref = await cliReference(file);
    const meter = (): FakeStatusBarItem => fake.statusBarItem('contextCompactor.meter')!;
    const openIt = async (h: ActivatedHost) => {
      fake.answers.quickPick.push((items) => items.find((i) => i.label === basename(rel)));
      await fake.command('contextCompactor.openTranscript')!();
      await vi.waitFor(() => {
        expect(meter()?.visible).toBe(true);
        expect(h.api.store.active()).toBeDefined();
      }, HOST_SETTLES);
    };

    let host = activateHost(undefined, profile);
    await openIt(host);
    fake.setConfig('contextCompactor.requireConfirmation', false);
    await fake.command('contextCompactor.compact')!();
    expect(meterTotal(meter())).toBe(ref.tokensAfter);
    host.deactivate();

    // "Reload": a new activation on the same storage; the compacted view comes back.
    host = activateHost(undefined, profile);
    await openIt(host);
    expect(host.api.store.active()!.compactions).toBe(1);
    expect(meterTotal(meter())).toBe(ref.tokensAfter);
    await fake.command('contextCompactor.undo')!();
    expect(JSON.stringify(host.api.store.active()!.conversation)).toBe(JSON.stringify(ref.conversation));
    expect(meterTotal(meter())).toBe(ref.tokensBefore);
    host.deactivate();
  });

  it('names the available strategies when the strategy setting names none, and changes nothing', async () => {
    resetFake();
    const rel = TRANSCRIPTS[2]!;
    const host = await hostWithSharedTranscript(rel);
    const before = host.api.store.active()!.conversation;
    fake.setConfig('contextCompactor.strategy', 'no-such-strategy');
    fake.setConfig('contextCompactor.requireConfirmation', false);
    await fake.command('contextCompactor.compact')!();
    const error = fake.messages.find((m) => m.kind === 'error')!;
    expect(error.message).toContain('contextCompactor.strategy');
    for (const s of listStrategies()) expect(error.message).toContain(s.name);
    expect(host.api.store.active()!.conversation).toBe(before);
    host.deactivate();
  });

  it('over the window: Start New Session… hands off the real summary; Drop Oldest Messages fits under the trigger and undoes exactly', async () => {
    resetFake();
    const rel = TRANSCRIPTS[0]!;
    const dir = mkdtempSync(join(tmpdir(), 'ctxc-over-'));
    const file = join(dir, basename(rel));
    copyFileSync(transcriptPath(rel), file);
    fake.setWorkspaceRoot(dir);
    const ref = await cliReference(file);
    const host = activateHost();
    const active = () => host.api.store.active()!;
    fake.answers.quickPick.push((items) => items.find((i) => i.label === basename(rel)));
    await fake.command('contextCompactor.openTranscript')!();
    await vi.waitFor(() => expect(host.api.store.active()).toBeDefined(), HOST_SETTLES);
    const window = Math.floor(ref.tokensBefore * 0.9);
    fake.setConfig('contextCompactor.maxContextTokens', window);
    await vi.waitFor(() => expect(active().report.window).toBe(window), HOST_SETTLES);

    fake.answers.warning.push('Start New Session…');
    await fake.command('contextCompactor.compact')!();
    expect(fake.messages.find((m) => m.modal)!.items).toEqual(['Compact', 'Inspect First…', 'Drop Oldest Messages', 'Start New Session…']);
    const handoff = fake.state.shownDocuments.at(-1)!.getText();
    expect(handoff).toContain(`# Handoff: ${escapeMarkdown(basename(rel))}`);
    for (const section of SECTION_NAMES) expect(handoff).toContain(section);
    expect(fake.state.clipboard).toBe(handoff);
    expect(active().compactions).toBe(0);

    fake.answers.warning.push('Drop Oldest Messages');
    await fake.command('contextCompactor.compact')!();
    expect(active().compactions).toBe(1);
    expect(active().report.total).toBeLessThanOrEqual(Math.floor(window * 0.8));
    // One long agent round: the oldest steps went, each with its tool results; task and system prompt stay.
    expect(fake.messages.at(-1)!.message).toMatch(/^Dropped the \d+ oldest messages: /);
    expect(apiShapeProblems(active().conversation.messages)).toEqual([]);
    expect(active().conversation.messages.slice(0, 2)).toEqual(ref.conversation.messages.slice(0, 2));
    expect(active().conversation.messages.at(-1)).toEqual(ref.conversation.messages.at(-1));
    await fake.command('contextCompactor.undo')!();
    expect(JSON.stringify(active().conversation)).toBe(JSON.stringify(ref.conversation));
    expect(active().report.total).toBe(ref.tokensBefore);
    host.deactivate();
  });

  it('reports a missing API key before asking anything', async () => {
    resetFake();
    const rel = TRANSCRIPTS[2]!;
    const host = await hostWithSharedTranscript(rel);
    fake.setConfig('contextCompactor.summarizer', 'openai');
    fake.setConfig('contextCompactor.openai.baseUrl', 'https://api.example.com/v1');
    await fake.command('contextCompactor.compact')!();
    expect(fake.messages.some((m) => m.modal)).toBe(false);
    const error = fake.messages.find((m) => m.kind === 'error')!;
    expect(error.message).toBe('No API key is set for https://api.example.com/v1. Run "Context Compactor: Set API Key", or choose the extractive summarizer.');
    expect(host.api.store.active()!.compactions).toBe(0);
    host.deactivate();
  });

  it('says "Nothing to compact" without a modal or a step when compaction would change nothing', async () => {
    resetFake();
    const dir = mkdtempSync(join(tmpdir(), 'ctxc-short-'));
    // Two rounds: both are within keepRecentRounds, so the engine keeps everything.
    const short = {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'What does src/app.ts export?' },
        { role: 'assistant', content: 'It exports createApp and a default config object.' },
        { role: 'user', content: 'And src/server.ts?' },
        { role: 'assistant', content: 'It starts the HTTP server on port 8080.' },
      ],
    };
    writeFileSync(join(dir, 'short.json'), JSON.stringify(short));
    fake.setWorkspaceRoot(dir);
    const host = activateHost();
    fake.answers.quickPick.push((items) => items.find((i) => i.label === 'short.json'));
    await fake.command('contextCompactor.openTranscript')!();
    await vi.waitFor(() => expect(host.api.store.active()).toBeDefined(), HOST_SETTLES);
    const before = host.api.store.active()!.conversation;
    await fake.command('contextCompactor.compact')!();
    expect(fake.messages.some((m) => m.modal)).toBe(false);
    expect(fake.messages.some((m) => m.kind === 'error')).toBe(false);
    expect(fake.messages.at(-1)).toMatchObject({ kind: 'info' });
    expect(fake.messages.at(-1)!.message).toMatch(/^Nothing to compact: /);
    // Without the confirmation the engine runs, and still no step is recorded.
    fake.setConfig('contextCompactor.requireConfirmation', false);
    await fake.command('contextCompactor.compact')!();
    expect(fake.messages.at(-1)!.message).toMatch(/^Nothing to compact: /);
    expect(host.api.store.active()!.conversation).toBe(before);
    expect(host.api.store.active()!.compactions).toBe(0);
    await fake.command('contextCompactor.undo')!();
    expect(fake.messages.at(-1)!.message).toBe('Nothing to undo');
    host.deactivate();
  });

  it('lists the engine’s strategies at run time and takes its defaults from COMPACTION_DEFAULTS', async () => {
    const engine = createEngine();
    expect(engine.listStrategies()).toEqual(listStrategies());
    expect(engine.defaults).toEqual({
      strategy: COMPACTION_DEFAULTS.strategy,
      keepRecentRounds: COMPACTION_DEFAULTS.keepRecentRounds,
      level: COMPACTION_DEFAULTS.level,
    });
  });
});

describe('the confirmation’s figures are what the agent will see', () => {
  it('on the kiliman session: the dry run plus the overhead its reported usage shows, checked against the trigger', async () => {
    const file = transcriptPath('claude-code/kiliman__claude-transcript__test2.jsonl');
    const conversation = importTranscript(readFileSync(file, 'utf8'), { sourcePath: file }).conversation;
    const counter = await createTokenCounter(conversation.meta.model);
    const report = tokenReport(conversation.messages, counter, conversation.meta);
    const result = await compactConversation(conversation, { counter, archive: new MemoryArchive() });
    const figures = compactionFigures(report, result);
    const input = {
      label: 'kiliman',
      report,
      preview: { result, figures, inherited: {} },
      summarizer: 'extractive',
      summarizerIsLlm: false,
      keepRecentRounds: 2,
      triggerRatio: 0.8,
    };
    expect(report.overhead).toBeGreaterThan(25_000);
    expect(figures.before).toEqual({ total: report.total, inFile: report.counted, notInFile: report.overhead });
    expect(figures.after).toEqual({ total: result.tokensAfter + report.overhead, inFile: result.tokensAfter, notInFile: report.overhead });
    const shown = confirmationMessage(input);
    expect(shown.message).toBe(`Compact this conversation? ${grouped(report.total)} → ${grouped(result.tokensAfter + report.overhead)} tokens (estimated)`);
    expect(shown.detail).toContain(
      `In the file: ${grouped(report.counted)} → ${grouped(result.tokensAfter)}. Not in the file (the system prompt and tools the agent sends, from the usage the agent reported): ${grouped(report.overhead)} of each; compaction does not shrink it.`,
    );
    expect(shown.detail).not.toContain('still at or above the trigger');
    // With a trigger at 20% of the window (40,000), the overhead alone keeps the session near it.
    const low = confirmationMessage({ ...input, triggerRatio: 0.2 });
    expect(low.detail).toContain('After compaction the conversation is still at or above the trigger (40,000 tokens).');
  });
});
