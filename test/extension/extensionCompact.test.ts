// "Compact Conversation" end to end in the host: the confirmation's paths (accept, inspect,
// cancel), the alternatives over the limit (drop the oldest, new session), cancellation and
// failures that leave everything as it was, export and copy — on a real transcript, never
// modifying its file.
import { copyFileSync, existsSync, linkSync, lstatSync, mkdtempSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { transcriptPath } from '../helpers/transcripts';
import { standInEngine, standInImport, type StandInEngine } from '../fakes/compactionEngine';
import { activateHost, HOST_SETTLES, type ActivatedHost } from '../fakes/extensionHost';
import { fake, resetFake, Uri, type FakeStatusBarItem } from '../fakes/vscode';
import { ESTIMATE_QUIET_MS } from '../../src/extension/commands/compactCommand';

/** Token counts as the messages show them (the fake's language is English). */
const grouped = (n: number): string => n.toLocaleString('en');

const TRANSCRIPT = 'mini-swe-agent/django__django-11138.traj.json';

describe('Compact Conversation', () => {
  let host: ActivatedHost;
  let engine: StandInEngine;
  let dir: string;
  let file: string;
  let original: Buffer;
  const meter = (): FakeStatusBarItem => fake.statusBarItem('contextCompactor.meter')!;
  const active = () => host.api.store.active()!;
  const stateDir = () => join(host.profile.storageDir, 'global', 'conversations');

  beforeEach(async () => {
    resetFake();
    dir = mkdtempSync(join(tmpdir(), 'ctxc-ws-'));
    file = join(dir, 'django.traj.json');
    copyFileSync(transcriptPath(TRANSCRIPT), file);
    original = readFileSync(file);
    fake.setWorkspaceRoot(dir);
    engine = standInEngine();
    host = activateHost(engine);
    fake.answers.quickPick.push((items) => items.find((i) => i.label === 'django.traj.json'));
    await fake.command('contextCompactor.openTranscript')!();
    await vi.waitFor(() => expect(meter().visible).toBe(true), HOST_SETTLES);
  });
  afterEach(() => host.deactivate());

  const compact = () => fake.command('contextCompactor.compact')!();

  it('asks in a modal with before → after, strategy, summarizer and retention; "Compact" applies it', async () => {
    const before = active().report.total;
    fake.answers.warning.push('Compact');
    await compact();
    const modal = fake.messages.find((m) => m.modal)!;
    expect(modal.kind).toBe('warning');
    expect(modal.items).toEqual(['Compact', 'Inspect First…']);
    const after = active().report.total;
    expect(after).toBeLessThan(before);
    expect(modal.message).toContain(`${grouped(before)} → ${grouped(after)} tokens (estimated)`);
    expect(modal.detail).toMatch(/Strategy: summary · Summarizer: extractive · Expected retention: 93% \(minimal\)/);
    expect(modal.detail).toContain('the last 2 rounds');
    // The meter shows the compacted total, the tooltip counts the compaction.
    expect(meter().accessibilityInformation!.label).toContain(`: ${after} / 128000 tokens`);
    expect(active().compactions).toBe(1);
    expect(active().conversation.messages.some((m) => m.itemType === 'COMPACTION_SUMMARY')).toBe(true);
    expect(fake.messages.some((m) => m.kind === 'info' && m.message.startsWith(`Compacted: ${grouped(before)} → ${grouped(after)} tokens`))).toBe(true);
    // The transcript file is never touched; the compacted view lives in the extension's state.
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(readdirSync(stateDir())).toHaveLength(1);
  });

  it('"Inspect First…" opens the inspector and changes nothing', async () => {
    const shown: string[] = [];
    host.api.inspector.show = (key: string) => void shown.push(key);
    const before = active().conversation;
    fake.answers.warning.push('Inspect First…');
    await compact();
    expect(shown).toEqual([active().key]);
    expect(active().conversation).toBe(before);
    expect(engine.calls.compact).toBe(0);
  });

  it('"Inspect Conversation" opens the inspector panel for the active conversation', async () => {
    await fake.command('contextCompactor.inspect')!();
    const panel = fake.state.webviewPanels.at(-1)!;
    expect(panel).toMatchObject({ viewType: 'contextCompactor.inspector', title: 'Context Compactor: Inspector' });
    await fake.command('contextCompactor.inspect')!();
    expect(fake.state.webviewPanels.filter((p) => !p.disposed)).toHaveLength(1);
  });

  it('Cancel (or Escape) changes nothing and writes nothing', async () => {
    const before = active().conversation;
    const label = meter().accessibilityInformation!.label;
    fake.answers.warning.push(undefined);
    await compact();
    expect(fake.messages.filter((m) => m.modal)).toHaveLength(1);
    expect(active().conversation).toBe(before);
    expect(active().compactions).toBe(0);
    expect(meter().accessibilityInformation!.label).toBe(label);
    expect(engine.calls.compact).toBe(0);
    expect(existsSync(stateDir())).toBe(false);
  });

  it('compacts without asking when requireConfirmation is off', async () => {
    fake.setConfig('contextCompactor.requireConfirmation', false);
    await compact();
    expect(fake.messages.some((m) => m.modal)).toBe(false);
    expect(active().compactions).toBe(1);
  });

  it('offers the alternatives over the window: dropping the oldest rounds fits it under the trigger', async () => {
    const total = active().report.total;
    fake.setConfig('contextCompactor.maxContextTokens', Math.floor(total * 0.9));
    await vi.waitFor(() => expect(active().report.window).toBe(Math.floor(total * 0.9)), HOST_SETTLES);
    fake.answers.warning.push('Drop Oldest Messages');
    await compact();
    const modal = fake.messages.find((m) => m.modal)!;
    expect(modal.items).toEqual(['Compact', 'Inspect First…', 'Drop Oldest Messages', 'Start New Session…']);
    expect(modal.detail).toContain('over its');
    expect(active().report.total).toBeLessThanOrEqual(Math.floor(Math.floor(total * 0.9) * 0.8));
    expect(active().conversation.messages[0]!.itemType).toBe('SYSTEM_PROMPT');
    // Undo brings every dropped message back.
    await fake.command('contextCompactor.undo')!();
    expect(active().report.total).toBe(total);
  });

  it('"Start New Session…" opens the handoff in a new Markdown editor and on the clipboard', async () => {
    fake.setConfig('contextCompactor.maxContextTokens', 1000);
    await vi.waitFor(() => expect(active().report.window).toBe(1000), HOST_SETTLES);
    const before = active().conversation;
    fake.answers.warning.push('Start New Session…');
    await compact();
    const doc = fake.state.shownDocuments.at(-1)!;
    expect(doc.isUntitled).toBe(true);
    expect(doc.languageId).toBe('markdown');
    expect(doc.getText()).toContain('# Handoff: django.traj.json');
    expect(doc.getText()).toContain('Primary Request and Intent');
    expect(fake.state.clipboard).toBe(doc.getText());
    expect(active().conversation).toBe(before);
  });

  it("the confirmation never opens over the estimate's progress notification: a quick one opens none, a slow one is closed first", async () => {
    fake.answers.warning.push(undefined);
    await compact();
    const quick = fake.messages.find((m) => m.modal)!;
    expect(quick.notificationsOnScreen).toEqual([]);
    expect(fake.state.progress.filter((p) => p.title?.startsWith('Estimating'))).toEqual([]);
    // While it runs, the status bar says so.
    expect(fake.state.statusBarMessages.some((m) => m.text.includes('Estimating the compaction of django.traj.json…'))).toBe(true);

    engine.beforeReturn = (run) => (run.dryRun ? new Promise((resolve) => setTimeout(resolve, ESTIMATE_QUIET_MS + 200)) : undefined);
    fake.answers.warning.push(undefined);
    await compact();
    const slow = fake.messages.filter((m) => m.modal).at(-1)!;
    expect(fake.state.progress.filter((p) => p.title === 'Estimating the compaction of django.traj.json…')).toHaveLength(1);
    expect(slow.notificationsOnScreen).toEqual([]);
  });

  it("Cancel on the slow estimate's notification stops the preview: no dialog, nothing changes", async () => {
    engine.beforeReturn = (run) => (run.dryRun ? new Promise((resolve) => setTimeout(resolve, ESTIMATE_QUIET_MS + 500)) : undefined);
    fake.state.onProgress = (source) => source.cancel();
    const before = active().conversation;
    await compact();
    expect(fake.messages.some((m) => m.modal)).toBe(false);
    expect(active().conversation).toBe(before);
  });

  it('cancelling the progress notification reaches the engine and leaves the conversation as it was', async () => {
    fake.setConfig('contextCompactor.requireConfirmation', false);
    let seenSignal: AbortSignal | undefined;
    let progress: { cancel(): void } | undefined;
    fake.state.onProgress = (source) => {
      progress = source;
    };
    // The user presses Cancel while the engine works.
    engine.beforeReturn = (opts) => {
      seenSignal = opts.signal;
      progress!.cancel();
    };
    const before = active().conversation;
    await compact();
    expect(seenSignal?.aborted).toBe(true);
    expect(active().conversation).toBe(before);
    expect(active().compactions).toBe(0);
    expect(fake.messages.some((m) => m.message === 'Cancelled. Nothing was changed.')).toBe(true);
  });

  it('a failing engine shows one clear message, logs the details, and changes nothing', async () => {
    fake.setConfig('contextCompactor.requireConfirmation', false);
    engine.beforeReturn = () => {
      throw new Error('summary budget exhausted');
    };
    const before = active().conversation;
    await expect(compact()).resolves.toBeUndefined();
    const error = fake.messages.find((m) => m.kind === 'error')!;
    expect(error.message).toBe('Compact Conversation failed: summary budget exhausted');
    expect(error.items).toEqual(['Show Log']);
    expect(fake.outputChannel('Context Compactor')!.lines.join('\n')).toMatch(/Compact Conversation failed\nError: summary budget exhausted\n\s+at /);
    expect(active().conversation).toBe(before);
    expect(existsSync(stateDir())).toBe(false);
  });

  it('"Undo Last Compaction" says "Nothing to undo" when there is nothing', async () => {
    await fake.command('contextCompactor.undo')!();
    expect(fake.messages.at(-1)).toMatchObject({ kind: 'info', message: 'Nothing to undo' });
  });

  it('undo restores the exact original and the meter its total', async () => {
    const total = active().report.total;
    const imported = standInImport(original.toString('utf8'), file).conversation;
    fake.answers.warning.push('Compact');
    await compact();
    expect(active().report.total).toBeLessThan(total);
    await fake.command('contextCompactor.undo')!();
    expect(active().conversation).toEqual(imported);
    expect(JSON.stringify(active().conversation)).toBe(JSON.stringify(imported));
    expect(meter().accessibilityInformation!.label).toContain(`: ${total} / 128000`);
    expect(active().compactions).toBe(0);
  });

  it('exports the compacted conversation to a new file, atomically, and refuses to overwrite the transcript', async () => {
    fake.answers.warning.push('Compact');
    await compact();
    const target = join(dir, 'out', 'django.compacted.md');
    fake.answers.quickPick.push((items) => items[0]);
    fake.answers.saveDialog.push(Uri.file(target));
    await fake.command('contextCompactor.export')!();
    expect(readFileSync(target, 'utf8')).toBe(engine.exportConversation(active().conversation, 'markdown'));
    expect(readdirSync(join(dir, 'out'))).toEqual(['django.compacted.md']);
    fake.answers.quickPick.push((items) => items[1]);
    fake.answers.saveDialog.push(Uri.file(file));
    await fake.command('contextCompactor.export')!();
    expect(fake.messages.at(-1)!.message).toContain('never replaces the transcript');
    expect(readFileSync(file).equals(original)).toBe(true);
    // Nor through a symlink or a hard link to it.
    symlinkSync(file, join(dir, 'link.md'));
    linkSync(file, join(dir, 'hard.md'));
    for (const alias of ['link.md', 'hard.md']) {
      fake.answers.quickPick.push((items) => items[0]);
      fake.answers.saveDialog.push(Uri.file(join(dir, alias)));
      await fake.command('contextCompactor.export')!();
      expect(fake.messages.at(-1)!.message, alias).toContain('never replaces the transcript');
    }
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(lstatSync(join(dir, 'link.md')).isSymbolicLink()).toBe(true);
  });

  it('copies the current summary, or the summary a compaction would write now', async () => {
    const before = active().conversation;
    await fake.command('contextCompactor.copySummary')!();
    expect(fake.state.clipboard).toContain('## All user messages');
    expect(active().conversation).toBe(before);
    fake.answers.warning.push('Compact');
    await compact();
    fake.state.clipboard = '';
    await fake.command('contextCompactor.copySummary')!();
    expect(fake.state.clipboard).toBe(host.api.store.summaryText(active().key));
  });

  it('tells the user how to get a conversation when none is active', async () => {
    const doc = fake.state.documents.find((d) => d.uri.toString() === active().key)!;
    fake.closeDocument(doc);
    await compact();
    expect(fake.messages.at(-1)).toMatchObject({ kind: 'info', items: ['Open Transcript…'] });
  });

  it('reports a file that does not import, naming the file and position', async () => {
    const bad = join(dir, 'broken.jsonl');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(bad, '{"role": "user", "content": ');
    fake.answers.quickPick.push((items) => items.find((i) => i.label === 'broken.jsonl'));
    await fake.command('contextCompactor.openTranscript')!();
    const error = fake.messages.find((m) => m.kind === 'error')!;
    expect(error.message).toContain(bad);
    expect(error.message).toMatch(/expected/);
  });
});
