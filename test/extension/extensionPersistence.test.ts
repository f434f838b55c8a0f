// Compaction state survives a reload: the compacted view comes back, and undo — after the
// reload — restores the exact original from the on-disk archive. Rewritten sources and broken
// state files are handled without losing anything.
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileArchiveStore, archiveFileName } from '../../src/extension/persistence/fileArchiveStore';
import { writeFileAtomic } from '../../src/files/atomicWrite';
import { transcriptPath } from '../helpers/transcripts';
import { standInEngine, standInImport } from '../fakes/compactionEngine';
import { activateHost, HOST_SETTLES, newProfile, type ActivatedHost } from '../fakes/extensionHost';
import { fake, resetFake, type FakeProfile } from '../fakes/vscode';

const TRANSCRIPT = 'mini-swe-agent/sympy__sympy-13091.traj.json';

describe('persistence across reloads', () => {
  let dir: string;
  let file: string;
  let profile: FakeProfile;
  let host: ActivatedHost | undefined;

  beforeEach(() => {
    resetFake();
    dir = mkdtempSync(join(tmpdir(), 'ctxc-ws-'));
    file = join(dir, 'sympy.traj.json');
    copyFileSync(transcriptPath(TRANSCRIPT), file);
    fake.setWorkspaceRoot(dir);
    profile = newProfile();
  });
  afterEach(() => host?.deactivate());

  async function start(): Promise<ActivatedHost> {
    host = activateHost(standInEngine(), profile);
    fake.answers.quickPick.push((items) => items.find((i) => i.label === 'sympy.traj.json'));
    await fake.command('contextCompactor.openTranscript')!();
    await vi.waitFor(() => expect(host!.api.store.active()).toBeTruthy(), HOST_SETTLES);
    return host;
  }

  /** A reload: everything disposed, the fake's windows and documents gone, the profile kept. */
  function reload(): void {
    host!.deactivate();
    host = undefined;
    resetFake();
    fake.setWorkspaceRoot(dir);
  }

  it('restores the compacted view after a reload, and undo then restores the exact original', async () => {
    const first = await start();
    const originalTotal = first.api.store.active()!.report.total;
    fake.answers.warning.push('Compact');
    await fake.command('contextCompactor.compact')!();
    const compacted = first.api.store.active()!;
    expect(compacted.compactions).toBe(1);
    const compactedJson = JSON.stringify(compacted.conversation);

    reload();
    const second = await start();
    const restored = second.api.store.active()!;
    expect(restored.compactions).toBe(1);
    expect(JSON.stringify(restored.conversation)).toBe(compactedJson);
    expect(restored.report.total).toBe(compacted.report.total);
    expect(fake.statusBarItem('contextCompactor.meter')!.accessibilityInformation!.label).toContain(`: ${compacted.report.total} / `);

    await fake.command('contextCompactor.undo')!();
    const undone = second.api.store.active()!;
    const expected = standInImport(readFileSync(file, 'utf8'), file).conversation;
    expect(JSON.stringify(undone.conversation)).toBe(JSON.stringify(expected));
    expect(undone.report.total).toBe(originalTotal);
    expect(undone.compactions).toBe(0);

    // The undo is persisted too: a second reload shows the original.
    reload();
    const third = await start();
    expect(third.api.store.active()!.compactions).toBe(0);
    expect(third.api.store.active()!.report.total).toBe(originalTotal);
  });

  it('keeps the undo stack of repeated compactions, in order', async () => {
    const h = await start();
    const totals = [h.api.store.active()!.report.total];
    fake.setConfig('contextCompactor.requireConfirmation', false);
    fake.setConfig('contextCompactor.keepRecentRounds', 6);
    await fake.command('contextCompactor.compact')!();
    totals.push(h.api.store.active()!.report.total);
    fake.setConfig('contextCompactor.keepRecentRounds', 2);
    await fake.command('contextCompactor.compact')!();
    totals.push(h.api.store.active()!.report.total);
    expect(totals[2]).toBeLessThan(totals[1]!);
    reload();
    const again = await start();
    expect(again.api.store.active()!.compactions).toBe(2);
    await fake.command('contextCompactor.undo')!();
    expect(again.api.store.active()!.report.total).toBe(totals[1]);
    await fake.command('contextCompactor.undo')!();
    expect(again.api.store.active()!.report.total).toBe(totals[0]);
    await fake.command('contextCompactor.undo')!();
    expect(fake.messages.at(-1)!.message).toBe('Nothing to undo');
  });

  it('appends messages the transcript gained after the compaction to the compacted view', async () => {
    const h = await start();
    fake.setConfig('contextCompactor.requireConfirmation', false);
    await fake.command('contextCompactor.compact')!();
    const compactedCount = h.api.store.active()!.conversation.messages.length;
    const data = JSON.parse(readFileSync(file, 'utf8')) as { messages: { role: string; content: string }[] };
    data.messages.push({ role: 'user', content: 'Next: also check the __ne__ methods.' });
    writeFileSync(file, JSON.stringify(data));
    reload();
    const again = await start();
    const view = again.api.store.active()!.conversation.messages;
    expect(view).toHaveLength(compactedCount + 1);
    expect(view.at(-1)!.content).toEqual([{ type: 'text', text: 'Next: also check the __ne__ methods.' }]);
    await fake.command('contextCompactor.undo')!();
    expect(again.api.store.active()!.conversation.messages).toHaveLength(data.messages.length);
  });

  it('resets the view (and says so) when the transcript was rewritten under it', async () => {
    const h = await start();
    fake.setConfig('contextCompactor.requireConfirmation', false);
    await fake.command('contextCompactor.compact')!();
    expect(h.api.store.active()!.compactions).toBe(1);
    const data = JSON.parse(readFileSync(file, 'utf8')) as { messages: { role: string; content: string }[] };
    writeFileSync(file, JSON.stringify({ messages: data.messages.slice(0, 5) }));
    reload();
    const again = await start();
    expect(again.api.store.active()!.compactions).toBe(0);
    expect(again.api.store.active()!.conversation.messages).toHaveLength(5);
    expect(fake.messages.some((m) => m.message.includes('changed on disk'))).toBe(true);
  });

  it('ignores an unreadable state file, logging it, and shows the transcript as it is', async () => {
    const h = await start();
    fake.setConfig('contextCompactor.requireConfirmation', false);
    await fake.command('contextCompactor.compact')!();
    const states = join(profile.storageDir, 'global', 'conversations');
    const [name] = readdirSync(states);
    writeFileSync(join(states, name!), '{"version": 1, "key": ');
    void h;
    reload();
    const again = await start();
    expect(again.api.store.active()!.compactions).toBe(0);
    expect(fake.outputChannel('Context Compactor')!.lines.join('\n')).toMatch(/ignoring unreadable state .*conversations/);
  });
});

describe('file archive', () => {
  it('stores, finds and returns entries byte for byte, with safe file names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxc-archive-'));
    const archive = new FileArchiveStore(dir);
    const text = JSON.stringify({ emoji: '🦀', cjk: '上下文', nul: '\u0000' });
    expect(await archive.has('conv-1')).toBe(false);
    await archive.put('conv-1', text);
    expect(await archive.has('conv-1')).toBe(true);
    expect(await archive.get('conv-1')).toBe(text);
    expect(await archive.get('missing')).toBeUndefined();
    expect(archiveFileName('conv-1')).toBe('conv-1.json');
    expect(archiveFileName('../../etc/passwd')).not.toContain('/');
    expect(archiveFileName('a/b')).not.toBe(archiveFileName('a_b'));
    await archive.put('../../x', 'y');
    expect(readdirSync(dir).every((n) => !n.includes('..') || n.startsWith('.._'))).toBe(true);
  });

  it('writes atomically: no temporary files are left, and a failed write keeps the old file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxc-atomic-'));
    const target = join(dir, 'state.json');
    await writeFileAtomic(target, 'one');
    await writeFileAtomic(target, 'two');
    expect(readFileSync(target, 'utf8')).toBe('two');
    expect(readdirSync(dir)).toEqual(['state.json']);
    // Writing into a path whose parent is a file fails before anything is replaced.
    await expect(writeFileAtomic(join(target, 'child.json'), 'x')).rejects.toThrow();
    expect(readFileSync(target, 'utf8')).toBe('two');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });
});
