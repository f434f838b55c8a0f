// Undo of a compaction written into an agent, in the host against the vscode fake: the original
// was never changed, so Undo switches back to it — the meter (and a pin) follow it again — and,
// after asking, the session the compaction wrote goes to the trash (VS Code's, or the freedesktop
// trash where VS Code's file system has none), with what the agent module's unregister undoes
// (our row in Codex's index). A kept file is set aside until its agent writes to it again.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../src/extension/engineModules';
import { claudeProjectDir } from '../../src/sessions/locations';
import { activateHost, HOST_SETTLES, type ActivatedHost } from '../fakes/extensionHost';
import { fake } from '../fakes/vscode';
import { bigTurn, codexLines, jsonl, writeFileIn } from '../helpers/agentSessions';
import {
  appendTurn,
  CLAUDE_ID,
  claudeSession,
  claudeTokens,
  CODEX_ID,
  flat,
  meterTotal,
  rows,
  setupSessionsWorld,
  teardownSessionsWorld,
  type SessionsWorld,
} from '../helpers/sessionsHost';
import { fixturesDir } from '../helpers/transcripts';

const UNDO_TRASH = 'Undo and Move to Trash';
const UNDO_KEEP = 'Undo, Keep the File';
const TITLE = 'TURN-alpha: read notes-alpha.txt and restate it';

let w: SessionsWorld;
let host: ActivatedHost | undefined;

beforeEach(() => {
  w = setupSessionsWorld();
});

afterEach(() => {
  host?.deactivate();
  host = undefined;
  teardownSessionsWorld();
});

function projectFiles(): string[] {
  return readdirSync(claudeProjectDir({}, w.home, w.work)).filter((f) => f.endsWith('.jsonl'));
}

/** A Claude Code session followed by the meter, compacted into a new one from the meter's Compact;
 *  resolves once the meter shows the new session. */
async function compactedClaudeSession(): Promise<{ file: string; original: Buffer; before: number; written: string }> {
  const file = claudeSession(CLAUDE_ID, ['alpha', 'bravo', 'charlie', 'delta']);
  const original = readFileSync(file);
  host = activateHost(createEngine());
  const before = await claudeTokens(file);
  await vi.waitFor(() => expect(meterTotal()).toBe(before), HOST_SETTLES);
  fake.answers.warning.push('Compact');
  await fake.command('contextCompactor.compact')!();
  const written = join(
    claudeProjectDir({}, w.home, w.work),
    projectFiles().find((f) => !f.startsWith(CLAUDE_ID))!,
  );
  const writtenTokens = await claudeTokens(written);
  await vi.waitFor(() => expect(meterTotal()).toBe(writtenTokens), HOST_SETTLES);
  return { file, original, before, written };
}

describe('Undo after a compaction into an agent', () => {
  it('Undo Last Compaction switches the meter back to the original and, after asking, moves the written session to the trash', async () => {
    const { file, original, before, written } = await compactedClaudeSession();
    fake.answers.warning.push(UNDO_TRASH);
    await fake.command('contextCompactor.undo')!();

    const asked = fake.messages.filter((m) => m.modal).at(-1)!;
    expect(asked.message).toBe(`Undo the compaction of Claude Code: ${TITLE}?`);
    expect(asked.items).toEqual([UNDO_TRASH, UNDO_KEEP]);
    expect(asked.detail).toContain(written);
    // The written session is in the trash, the original as it was, the meter on it.
    expect(existsSync(written)).toBe(false);
    expect(fake.state.trashed).toEqual([written]);
    expect(readFileSync(file).equals(original)).toBe(true);
    await vi.waitFor(() => expect(meterTotal()).toBe(before), HOST_SETTLES);
    expect(host!.api.store.active()!.label).toBe(`Claude Code: ${TITLE}`);
    expect(fake.messages.at(-1)!.message).toBe(
      `Undone: the meter follows Claude Code: ${TITLE} again (${before.toLocaleString('en')} tokens), as it was before the compaction. The compacted session was moved to the trash.`,
    );
    await vi.waitFor(async () => expect(flat(await rows()).map((r) => r.depth)).toEqual([0, 1]), HOST_SETTLES);
    // Nothing is left to undo.
    await fake.command('contextCompactor.undo')!();
    expect(fake.messages.at(-1)!.message).toBe('Nothing to undo');
  });

  it('declining changes nothing: the written session stays followed and undoable', async () => {
    const { written } = await compactedClaudeSession();
    const total = meterTotal();
    fake.answers.warning.push(undefined);
    await fake.command('contextCompactor.undo')!();
    expect(existsSync(written)).toBe(true);
    expect(meterTotal()).toBe(total);
    expect(host!.api.store.canUndo(host!.api.store.active()!.key)).toBe(true);
  });

  it('Keep the File: the written session stays, and the meter leaves it alone until its agent writes to it again', async () => {
    const { before, written } = await compactedClaudeSession();
    fake.answers.warning.push(UNDO_KEEP);
    await fake.command('contextCompactor.undo')!();
    expect(existsSync(written)).toBe(true);
    expect(fake.state.trashed).toEqual([]);
    await vi.waitFor(() => expect(meterTotal()).toBe(before), HOST_SETTLES);
    expect(fake.messages.at(-1)!.message).toContain(`The compacted session stays at ${written}; the meter leaves it alone until Claude Code writes to it.`);
    // A new listing does not move the meter back to the newer, written session…
    await fake.command('contextCompactor.sessions.refresh')!();
    expect(meterTotal()).toBe(before);
    // …until Claude Code writes to it (the person resumed it after all).
    appendTurn(written, 'echo');
    fake.fileEvent(written, 'change');
    const grown = await claudeTokens(written);
    await vi.waitFor(() => expect(meterTotal()).toBe(grown), HOST_SETTLES);
  });

  it('a pin that moved to the written session moves back to the original', async () => {
    const file = claudeSession(CLAUDE_ID, ['alpha', 'bravo', 'charlie', 'delta']);
    host = activateHost(createEngine());
    await vi.waitFor(async () => expect(flat(await rows()).length).toBe(2), HOST_SETTLES);
    await fake.command('contextCompactor.sessions.pin')!(flat(await rows())[1]!.row.element);
    const pinned = host.api.focus.pinned!;
    fake.answers.warning.push('Compact');
    await fake.command('contextCompactor.compact')!();
    await vi.waitFor(() => expect(host!.api.focus.pinned).not.toBe(pinned), HOST_SETTLES);
    fake.answers.warning.push(UNDO_TRASH);
    await fake.command('contextCompactor.undo')!();
    expect(host.api.focus.pinned).toBe(pinned);
    await vi.waitFor(async () => expect(meterTotal()).toBe(await claudeTokens(file)), HOST_SETTLES);
  });

  it("the inspector's Undo (the store's undo of the original) does the same", async () => {
    const { before, written } = await compactedClaudeSession();
    const originalKey = host!.api.store.keys().find((k) => k.includes(CLAUDE_ID))!;
    fake.answers.warning.push(UNDO_TRASH);
    expect(await host!.api.store.undo(originalKey)).toBe(true);
    expect(existsSync(written)).toBe(false);
    await vi.waitFor(() => expect(meterTotal()).toBe(before), HOST_SETTLES);
  });

  it.runIf(process.platform === 'linux')(
    "where VS Code's file system has no trash (a remote server), the written session goes to the freedesktop trash of its machine",
    async () => {
      fake.state.fileSystemTrash = false;
      const { written } = await compactedClaudeSession();
      fake.answers.warning.push(UNDO_TRASH);
      await fake.command('contextCompactor.undo')!();
      const trash = join(w.home, '.local', 'share', 'Trash');
      const name = written.split('/').at(-1)!;
      expect(existsSync(written)).toBe(false);
      expect(existsSync(join(trash, 'files', name))).toBe(true);
      const info = readFileSync(join(trash, 'info', `${name}.trashinfo`), 'utf8');
      expect(info).toMatch(/^\[Trash Info\]\nPath=\/.+\nDeletionDate=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\n$/);
      expect(decodeURIComponent(/Path=(.+)/.exec(info)![1]!)).toBe(written);
      expect(fake.messages.at(-1)!.message).toContain(`The compacted session was moved to the trash (${join(trash, 'files', name)}).`);
    },
  );

  it("a Codex rollout: our row leaves Codex's index with the file", async () => {
    const codexHome = join(w.home, '.codex');
    const db = join(codexHome, 'state_5.sqlite');
    writeFileIn(join(codexHome, 'config.toml'), 'model = "m"\n');
    const sqlite = (script: string) => spawnSync('sqlite3', ['-bail', '-json', db], { input: script, encoding: 'utf8' });
    expect(sqlite(`PRAGMA journal_mode=WAL;\n${readFileSync(join(fixturesDir, 'codex-state_5-0.171.0.sql'), 'utf8')}\n`).status).toBe(0);
    const rollout = writeFileIn(
      join(codexHome, 'sessions', '2026', '01', '01', `rollout-2026-01-01T00-00-00-${CODEX_ID}.jsonl`),
      jsonl(codexLines({ id: CODEX_ID, cwd: w.work, turns: ['alpha', 'bravo', 'charlie', 'delta'].map((t) => bigTurn(t)) })),
    );
    host = activateHost(createEngine());
    await vi.waitFor(() => expect(meterTotal()).toBeDefined(), HOST_SETTLES);
    fake.answers.warning.push('Compact');
    await fake.command('contextCompactor.compact')!();
    const ids = () => JSON.parse(sqlite('SELECT id, rollout_path FROM threads;\n').stdout.trim() || '[]') as { id: string; rollout_path: string }[];
    await vi.waitFor(() => expect(ids()).toHaveLength(1), HOST_SETTLES);
    const row = ids()[0]!;
    expect(existsSync(row.rollout_path)).toBe(true);
    fake.answers.warning.push(UNDO_TRASH);
    await fake.command('contextCompactor.undo')!();
    expect(ids()).toEqual([]);
    expect(existsSync(row.rollout_path)).toBe(false);
    expect(existsSync(rollout)).toBe(true);
  });
});
