// The Sessions view and the meter that follows the live agent session, in the host against the
// vscode fake, on a fake home: what is listed and how it is grouped, an append reaching the meter
// through the file watcher, the follow modes, the source settings, Compact writing a new Claude
// Code session beside an untouched original, Resume in Terminal, and the handoff for a Cline task.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../src/extension/engineModules';
import { formatTokenCount } from '../../src/extension/meter/meterText';
import { rowTitle } from '../../src/extension/sessions/sessionText';
import { SESSION_MAX_BYTES } from '../../src/sessions/diskReads';
import { claudeProjectDir } from '../../src/sessions/locations';
import { bigTurn, claudeLines, codexLines, jsonl, writeFileIn } from '../helpers/agentSessions';
import { addOpencodeSession, hasSqlite3, placeOpencodeStore } from '../helpers/opencodeStore';
import { activateHost, HOST_SETTLES, type ActivatedHost } from '../fakes/extensionHost';
import { commands, fake, type MarkdownString } from '../fakes/vscode';
import {
  appendTurn,
  CLAUDE_ID,
  claudeSession,
  claudeTokens,
  CODEX_ID,
  flat,
  meter,
  meterTotal,
  OLDER_ID,
  rowOf,
  rows,
  setupSessionsWorld,
  teardownSessionsWorld,
  VIEW,
} from '../helpers/sessionsHost';

let root: string;
let home: string;
let work: string;
let host: ActivatedHost | undefined;

function start(): ActivatedHost {
  host = activateHost(createEngine());
  return host;
}

beforeEach(() => {
  ({ root, home, work } = setupSessionsWorld());
});

afterEach(() => {
  host?.deactivate();
  host = undefined;
  teardownSessionsWorld();
});

describe('the Sessions view', () => {
  it("lists this workspace's sessions by agent, newest first, with sub-agents and compactions under their session and an unreadable file with its error", async () => {
    const now = Date.now();
    claudeSession(OLDER_ID, ['alpha'], { mtime: now - 3 * 3600_000 });
    const main = claudeSession(CLAUDE_ID, ['bravo', 'charlie'], { mtime: now - 60_000 });
    writeFileIn(
      join(claudeProjectDir({}, home, work), CLAUDE_ID, 'subagents', 'agent-a1.jsonl'),
      jsonl(claudeLines({ sessionId: CLAUDE_ID, cwd: work, turns: [bigTurn('sub', 3)], sidechain: true })),
    );
    writeFileIn(
      join(claudeProjectDir({}, home, work), CLAUDE_ID, 'subagents', 'agent-a1.meta.json'),
      JSON.stringify({ agentType: 'general-purpose', description: 'inspect the tables' }),
    );
    writeFileIn(join(claudeProjectDir({}, home, work), 'broken.jsonl'), Buffer.from([0x7b, 0x00, 0x01, 0xff, 0x0a]));
    utimesSync(join(claudeProjectDir({}, home, work), 'broken.jsonl'), (now - 7200_000) / 1000, (now - 7200_000) / 1000);
    const codex = writeFileIn(
      join(home, '.codex', 'sessions', '2026', '01', '01', `rollout-2026-01-01T00-00-00-${CODEX_ID}.jsonl`),
      jsonl(codexLines({ id: CODEX_ID, cwd: work, turns: [bigTurn('delta')] })),
    );
    utimesSync(codex, (now - 600_000) / 1000, (now - 600_000) / 1000);
    // Another folder's sessions are not this workspace's.
    claudeSession('33333333-3333-4333-8333-000000000001', ['elsewhere'], { cwd: join(root, 'other') });
    start();
    fake.treeView(VIEW)!.setVisible(true);
    await vi.waitFor(async () => expect(flat(await rows()).length).toBe(7), HOST_SETTLES);

    const shown = flat(await rows()).map((r) => `${'  '.repeat(r.depth)}${r.label}${r.context ? ` [${r.context}]` : ''}`);
    expect(shown).toEqual([
      'Claude Code [agent]',
      `  ${rowTitle({ title: 'TURN-bravo: read notes-bravo.txt and restate it', id: '' })} [session.resumable]`,
      '    inspect the tables [session.subagent]',
      '  broken [session.error]',
      `  ${rowTitle({ title: 'TURN-alpha: read notes-alpha.txt and restate it', id: '' })} [session.resumable]`,
      'Codex [agent]',
      `  ${rowTitle({ title: 'TURN-delta: read notes-delta.txt and restate it', id: '' })} [session.resumable]`,
    ]);

    const row = flat(await rows()).find((r) => r.label.startsWith('TURN-bravo'))!;
    const tokens = await claudeTokens(main);
    // The meter's numbers (tokens / window · %) and how long ago.
    expect(row.description).toBe(`${formatTokenCount(tokens)} / 200k · ${Math.round((tokens / 200_000) * 100)}% · 1 min. ago`);
    const tooltip = (row.row.item.tooltip as MarkdownString).value;
    expect(tooltip).toContain(`${tokens.toLocaleString('en')} of 200,000 tokens`);
    expect(tooltip.replace(/\\/g, '')).toContain(main);
    const broken = flat(await rows()).find((r) => r.label === 'broken')!;
    expect(broken.description).toMatch(/^cannot be read · /);
    expect((broken.row.item.tooltip as MarkdownString).value.replace(/\\/g, '')).toMatch(
      /This session cannot be read: .*broken\.jsonl: byte 1: expected text \(UTF-8\), found a NUL byte/,
    );
    expect(fake.treeView(VIEW)!.message).toBeUndefined();
  });

  it('shows a title from the session as plain text, and escapes it in the tooltip', async () => {
    const file = writeFileIn(
      join(claudeProjectDir({}, home, work), `${CLAUDE_ID}.jsonl`),
      jsonl(claudeLines({ sessionId: CLAUDE_ID, cwd: work, turns: [{ ...bigTurn('x'), user: 'see [the docs](command:workbench.action.quit) **now**' }] })),
    );
    start();
    await vi.waitFor(async () => expect(flat(await rows()).length).toBe(2), HOST_SETTLES);
    const row = flat(await rows())[1]!;
    // Cut to ROW_TITLE_CHARS so the numbers after it stay in sight; the tooltip has it all.
    expect(row.label).toBe('see [the docs](command:workbench.ac…');
    const tooltip = row.row.item.tooltip as MarkdownString;
    expect(tooltip.isTrusted).toBe(false);
    expect(tooltip.value).not.toContain('](command:');
    expect(tooltip.value).not.toContain('**now**');
    expect(readFileSync(file, 'utf8')).toContain('command:workbench');
  });

  it('each source setting hides its agent, and the meter stops following a hidden one', async () => {
    claudeSession(CLAUDE_ID, ['alpha']);
    writeFileIn(
      join(home, '.codex', 'sessions', '2026', '01', '01', `rollout-2026-01-01T00-00-00-${CODEX_ID}.jsonl`),
      jsonl(codexLines({ id: CODEX_ID, cwd: work, turns: [bigTurn('delta')] })),
    );
    utimesSync(join(home, '.codex', 'sessions', '2026', '01', '01', `rollout-2026-01-01T00-00-00-${CODEX_ID}.jsonl`), 1_700_000_000, 1_700_000_000);
    start();
    const groups = async () => (await rows()).map((r) => String(r.item.label));
    await vi.waitFor(async () => expect(await groups()).toEqual(['Claude Code', 'Codex']), HOST_SETTLES);
    await vi.waitFor(() => expect(host!.api.store.active()?.label).toBe('Claude Code: TURN-alpha: read notes-alpha.txt and restate it'), HOST_SETTLES);

    fake.setConfig('contextCompactor.sessions.codex', false);
    await vi.waitFor(async () => expect(await groups()).toEqual(['Claude Code']), HOST_SETTLES);
    fake.setConfig('contextCompactor.sessions.codex', true);
    fake.setConfig('contextCompactor.sessions.claudeCode', false);
    await vi.waitFor(async () => expect(await groups()).toEqual(['Codex']), HOST_SETTLES);
    // The Claude Code session left the meter; the Codex one, now the newest, took it.
    await vi.waitFor(() => expect(host!.api.store.active()?.label).toBe('Codex: TURN-delta: read notes-delta.txt and restate it'), HOST_SETTLES);
    for (const agent of ['codex', 'cline', 'rooCode', 'copilotChat', 'aider']) fake.setConfig(`contextCompactor.sessions.${agent}`, false);
    await vi.waitFor(async () => expect(await groups()).toEqual([]), HOST_SETTLES);
    await vi.waitFor(() => expect(meter().visible).toBe(false), HOST_SETTLES);
  });
});

describe('the meter follows the live session', () => {
  it('shows the newest session of the workspace with no file open, and moves when the agent appends to it', async () => {
    const file = claudeSession(CLAUDE_ID, ['alpha', 'bravo']);
    start();
    const before = await claudeTokens(file);
    await vi.waitFor(() => expect(meterTotal()).toBe(before), HOST_SETTLES);
    expect(host!.api.store.active()!.label).toBe('Claude Code: TURN-alpha: read notes-alpha.txt and restate it');
    expect(fake.state.documents).toEqual([]);

    appendTurn(file, 'charlie');
    expect(fake.fileEvent(file, 'change')).toBeGreaterThan(0);
    const after = await claudeTokens(file);
    expect(after).toBeGreaterThan(before);
    await vi.waitFor(() => expect(meterTotal()).toBe(after), HOST_SETTLES);
    // The view's row moved with it.
    await vi.waitFor(
      async () => expect(flat(await rows())[1]!.description).toMatch(new RegExp(`^${formatTokenCount(after).replace('.', '\\.')} / `)),
      HOST_SETTLES,
    );
  });

  it('its tooltip says how far a session is followed; one grown past that is listed with its size and left', async () => {
    const file = claudeSession(CLAUDE_ID, ['alpha', 'bravo']);
    start();
    fake.treeView(VIEW)!.setVisible(true);
    await vi.waitFor(() => expect(meterTotal()).toBeGreaterThan(0), HOST_SETTLES);
    const limit = Math.round(SESSION_MAX_BYTES / 1024 / 1024);
    expect((meter().tooltip as MarkdownString).value).toContain(
      `Followed as its agent writes it, up to ${limit} MB: a larger session file is not read (the Sessions view lists it with its size).`,
    );
    // The agent writes past the limit (a sparse file: nothing lands on the disk).
    truncateSync(file, SESSION_MAX_BYTES + 8 * 1024 * 1024);
    expect(fake.fileEvent(file, 'change')).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(flat(await rows())[1]!.description).toMatch(/^cannot be read · /), HOST_SETTLES);
    expect((flat(await rows())[1]!.row.item.tooltip as MarkdownString).value).toContain(`the file is ${limit + 8} MB, more than the ${limit} MB read`);
    // The meter no longer shows it.
    await vi.waitFor(() => expect(meter().visible).toBe(false), HOST_SETTLES);
  });

  it('a new session of the workspace takes the meter once it is written', async () => {
    claudeSession(CLAUDE_ID, ['alpha'], { mtime: Date.now() - 60_000 });
    start();
    await vi.waitFor(() => expect(host!.api.store.active()?.label).toMatch(/TURN-alpha/), HOST_SETTLES);
    const second = claudeSession(OLDER_ID, ['zulu']);
    fake.fileEvent(second, 'create');
    await vi.waitFor(() => expect(host!.api.store.active()?.label).toMatch(/TURN-zulu/), HOST_SETTLES);
    expect(meterTotal()).toBe(await claudeTokens(second));
  });

  it('follow modes: a focused transcript editor wins in auto; editor shows editors only; off follows nothing by itself', async () => {
    const file = claudeSession(CLAUDE_ID, ['alpha']);
    const transcript = writeFileIn(
      join(work, 'chat.json'),
      JSON.stringify({
        messages: [
          { role: 'user', content: 'hello there' },
          { role: 'assistant', content: 'hi' },
        ],
      }),
    );
    start();
    const sessionLabel = 'Claude Code: TURN-alpha: read notes-alpha.txt and restate it';
    const active = () => host!.api.store.active()?.label;
    await vi.waitFor(() => expect(active()).toBe(sessionLabel), HOST_SETTLES);

    // auto: the focused transcript editor wins, also when the agent writes.
    const { window, workspace } = await import('../fakes/vscode');
    const doc = await workspace.openTextDocument((await import('../fakes/vscode')).Uri.file(transcript));
    await window.showTextDocument(doc);
    await vi.waitFor(() => expect(active()).toBe('chat.json'), HOST_SETTLES);
    appendTurn(file, 'bravo');
    fake.fileEvent(file, 'change');
    await vi.waitFor(
      async () => expect(flat(await rows())[1]!.description).toMatch(new RegExp(`^${formatTokenCount(await claudeTokens(file)).replace('.', '\\.')} `)),
      HOST_SETTLES,
    );
    expect(active()).toBe('chat.json');
    // Focus leaves the transcript: the next write takes the meter back.
    const plain = await workspace.openTextDocument({ content: 'notes', language: 'plaintext' });
    await window.showTextDocument(plain);
    appendTurn(file, 'charlie');
    fake.fileEvent(file, 'change');
    await vi.waitFor(() => expect(active()).toBe(sessionLabel), HOST_SETTLES);
    expect(meterTotal()).toBe(await claudeTokens(file));

    // editor: the session leaves the meter, writes do not bring it back.
    fake.setConfig('contextCompactor.follow', 'editor');
    await vi.waitFor(() => expect(meter().visible).toBe(false), HOST_SETTLES);
    appendTurn(file, 'delta');
    fake.fileEvent(file, 'change');
    await vi.waitFor(
      async () => expect(flat(await rows())[1]!.description).toMatch(new RegExp(`^${formatTokenCount(await claudeTokens(file)).replace('.', '\\.')} `)),
      HOST_SETTLES,
    );
    expect(meter().visible).toBe(false);
    await window.showTextDocument(doc);
    await vi.waitFor(() => expect(active()).toBe('chat.json'), HOST_SETTLES);

    // off: focusing a transcript changes nothing; the session is not followed either.
    fake.setConfig('contextCompactor.follow', 'off');
    await window.showTextDocument(plain);
    host!.api.store.setActive(undefined);
    await window.showTextDocument(doc);
    appendTurn(file, 'echo');
    fake.fileEvent(file, 'change');
    await vi.waitFor(
      async () => expect(flat(await rows())[1]!.description).toMatch(new RegExp(`^${formatTokenCount(await claudeTokens(file)).replace('.', '\\.')} `)),
      HOST_SETTLES,
    );
    expect(meter().visible).toBe(false);

    // auto again: the live session is followed at once.
    fake.setConfig('contextCompactor.follow', 'auto');
    await window.showTextDocument(plain);
    await vi.waitFor(() => expect(active()).toBe(sessionLabel), HOST_SETTLES);
  });
});

describe('the meter names what it follows, and can be pinned', () => {
  const label = () => meter().accessibilityInformation?.label ?? '';

  it('pinned to a session, it stays there when another is written, follows that one as it grows, and moves on once unpinned', async () => {
    const older = claudeSession(OLDER_ID, ['alpha'], { mtime: Date.now() - 60_000 });
    claudeSession(CLAUDE_ID, ['bravo']);
    start();
    // The newest session, named in the status bar: its agent and its first request.
    await vi.waitFor(() => expect(label()).toMatch(/ — Claude Code: TURN-bravo/), HOST_SETTLES);
    expect(meter().text).toMatch(/^\$\(pulse\) .* · Claude Code: TURN-bravo/);

    await fake.command('contextCompactor.sessions.pin')!((await rowOf('TURN-alpha: read notes-alpha.txt and restate it')).element);
    await vi.waitFor(() => expect(label()).toMatch(/ — Claude Code: TURN-alpha.* \(pinned\)$/), HOST_SETTLES);
    expect(meter().text).toMatch(/^\$\(pinned\) /);
    expect((meter().tooltip as MarkdownString).value).toContain('The meter is pinned to this conversation.');

    // Another session is written: listed, but the meter stays where it is pinned.
    const third = claudeSession('11111111-1111-4111-8111-000000000003', ['charlie']);
    fake.fileEvent(third, 'create');
    await vi.waitFor(
      async () => expect(flat(await rows()).map((r) => r.label)).toContain(rowTitle({ title: 'TURN-charlie: read notes-charlie.txt and restate it', id: '' })),
      HOST_SETTLES,
    );
    expect(label()).toMatch(/TURN-alpha/);
    // The pinned session grows: the meter follows it.
    appendTurn(older, 'delta');
    fake.fileEvent(older, 'change');
    const grown = await claudeTokens(older);
    await vi.waitFor(() => expect(meterTotal()).toBe(grown), HOST_SETTLES);

    // Unpinned, the meter follows the session written last again, and says it moved.
    await fake.command('contextCompactor.unpinMeter')!();
    await vi.waitFor(() => expect(label()).not.toMatch(/\(pinned\)$/), HOST_SETTLES);
    appendTurn(third, 'echo');
    fake.fileEvent(third, 'change');
    await vi.waitFor(() => expect(label()).toMatch(/TURN-charlie/), HOST_SETTLES);
    expect(fake.state.statusBarMessages.at(-1)?.text).toMatch(/The meter now shows Claude Code: TURN-charlie.* \(was Claude Code: TURN-alpha/);
  });

  it('a compaction of the pinned session into its agent moves the pin to the session it wrote', async () => {
    claudeSession(OLDER_ID, ['alpha', 'bravo', 'charlie', 'delta'], { mtime: Date.now() - 60_000 });
    claudeSession(CLAUDE_ID, ['echo']);
    start();
    await vi.waitFor(async () => expect(flat(await rows()).length).toBe(3), HOST_SETTLES);
    const row = (await rowOf('TURN-alpha: read notes-alpha.txt and restate it')).element;
    await fake.command('contextCompactor.sessions.pin')!(row);
    await vi.waitFor(() => expect(label()).toMatch(/TURN-alpha.*\(pinned\)$/), HOST_SETTLES);
    fake.answers.warning.push('Compact');
    await fake.command('contextCompactor.sessions.compact')!(row);
    const written = readdirSync(claudeProjectDir({}, home, work)).find((f) => f !== `${OLDER_ID}.jsonl` && f !== `${CLAUDE_ID}.jsonl`)!;
    await vi.waitFor(() => expect(host!.api.focus.pinned).toContain(written.replace('.jsonl', '')), HOST_SETTLES);
    expect(host!.api.store.active()!.key).toBe(host!.api.focus.pinned);
    expect(label()).toMatch(/\(pinned\)$/);
  });
});

describe('compacting a session back into its agent', () => {
  /** The files of the Claude Code project folder, with the original's bytes and time. */
  function projectFiles(): string[] {
    return readdirSync(claudeProjectDir({}, home, work))
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
  }

  it('Compact… writes a new Claude Code session beside an untouched original, lists it under the original, and resumes it in a terminal in the session folder', async () => {
    const file = claudeSession(CLAUDE_ID, ['alpha', 'bravo', 'charlie', 'delta', 'echo']);
    const original = readFileSync(file);
    const mtime = statSync(file).mtimeMs;
    start();
    await vi.waitFor(async () => expect(flat(await rows()).length).toBe(2), HOST_SETTLES);
    const before = await claudeTokens(file);

    fake.answers.warning.push('Compact');
    fake.answers.info.push('Resume in Terminal');
    await fake.command('contextCompactor.sessions.compact')!((await rowOf('TURN-alpha: read notes-alpha.txt and restate it')).element);

    const modal = fake.messages.find((m) => m.modal)!;
    expect(modal.message).toMatch(new RegExp(`^Compact this conversation\\? ${before.toLocaleString('en')} → [\\d,]+ tokens \\(estimated\\)$`));
    expect(modal.detail).toContain(
      'Compact writes a new Claude Code session from the summary and the recent turns, and leaves this one as it is: Undo switches back to it.',
    );
    expect(modal.items).toEqual(['Compact', 'Inspect First…']);

    const files = projectFiles();
    expect(files).toHaveLength(2);
    const newId = files.find((f) => f !== `${CLAUDE_ID}.jsonl`)!.replace('.jsonl', '');
    expect(newId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The original: the same bytes, the same time.
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(statSync(file).mtimeMs).toBe(mtime);
    const written = readFileSync(join(claudeProjectDir({}, home, work), `${newId}.jsonl`), 'utf8').split('\n');
    expect(JSON.parse(written[0]!)).toMatchObject({ type: 'system', subtype: 'compact_boundary', parentUuid: null, sessionId: newId, cwd: work });
    expect(JSON.parse(written[1]!).message.content).toContain('## Primary Request and Intent');

    // The result says what happened and how to undo it; Resume runs the agent in the session's folder.
    const done = fake.messages.find((m) => m.message.startsWith('Compacted into a new Claude Code session'))!;
    expect(done.message).toMatch(
      /: [\d,]+ → [\d,]+ tokens \([\d.]+x\)\. Written to .+, resumed from .+\. The original session is untouched: Undo Last Compaction switches back to it\.$/,
    );
    expect(done.message).toContain(`Written to ${join(claudeProjectDir({}, home, work), `${newId}.jsonl`)}, resumed from ${work}.`);
    // The confirmation's estimate is what was written: the preview is planned as the new session is
    // (nothing archived here, so the summary does not offer an undo it cannot keep).
    const after = (text: string) => / → ([\d,]+) tokens/.exec(text)![1];
    expect(after(done.message)).toBe(after(modal.message));
    expect(written.join('\n')).not.toContain('can be restored with undo');
    await vi.waitFor(() => expect(fake.state.terminals).toHaveLength(1), HOST_SETTLES);
    const terminal = fake.state.terminals[0]!;
    expect(terminal.creationOptions.cwd).toBe(work);
    expect(terminal.sent).toEqual([`claude --resume ${newId}\n`]);
    expect(terminal.shown).toBe(true);

    // The view lists the new session under the one it came from.
    await vi.waitFor(async () => {
      const shown = flat(await rows());
      const child = shown.find((r) => r.depth === 2)!;
      expect(child).toBeDefined();
      expect((child.row.item.tooltip as MarkdownString).value.replace(/\\/g, '')).toContain(`${newId}.jsonl`);
    }, HOST_SETTLES);
    // The meter never showed the compaction on the original: its count is the file's.
    expect(host!.api.store.get(host!.api.store.keys().find((k) => k.includes(CLAUDE_ID))!)!.report.total).toBe(before);
  });

  it('the meter’s Compact on the followed session compacts back into the agent too', async () => {
    const file = claudeSession(CLAUDE_ID, ['alpha', 'bravo', 'charlie', 'delta']);
    start();
    await vi.waitFor(() => expect(meterTotal()).toBeDefined(), HOST_SETTLES);
    const key = host!.api.store.active()!.key;
    fake.answers.warning.push('Compact');
    await fake.command('contextCompactor.compact')!();
    expect(projectFiles()).toHaveLength(2);
    expect(fake.messages.some((m) => m.message.startsWith('Compacted into a new Claude Code session'))).toBe(true);
    // The original's conversation is as the file says, with no step of its own: it was never
    // changed. Undo switches back to it (extensionSessionUndo.test.ts).
    expect(host!.api.store.get(key)!.report.total).toBe(await claudeTokens(file));
    expect(host!.api.store.get(key)!.compactions).toBe(0);
    expect(host!.api.store.canUndo(key)).toBe(true);
    // The new session is now the newest of the workspace: the meter follows it.
    const written = join(
      claudeProjectDir({}, home, work),
      projectFiles().find((f) => !f.startsWith(CLAUDE_ID))!,
    );
    const writtenTokens = await claudeTokens(written);
    await vi.waitFor(() => expect(meterTotal()).toBe(writtenTokens), HOST_SETTLES);
  });

  it('Resume in Terminal runs `codex resume <id>` in the folder the rollout records', async () => {
    const sub = join(work, 'pkg');
    mkdirSync(sub);
    writeFileIn(
      join(home, '.codex', 'sessions', '2026', '01', '01', `rollout-2026-01-01T00-00-00-${CODEX_ID}.jsonl`),
      jsonl(codexLines({ id: CODEX_ID, cwd: sub, turns: [bigTurn('delta')] })),
    );
    start();
    await vi.waitFor(async () => expect(flat(await rows()).length).toBe(2), HOST_SETTLES);
    await fake.command('contextCompactor.sessions.resume')!((await rowOf('TURN-delta: read notes-delta.txt and restate it')).element);
    expect(fake.state.terminals).toHaveLength(1);
    expect(fake.state.terminals[0]).toMatchObject({ name: `Codex · ${CODEX_ID.slice(0, 8)}`, sent: [`codex resume ${CODEX_ID}\n`], shown: true });
    expect(fake.state.terminals[0]!.creationOptions.cwd).toBe(sub);
  });

  it("Resume in Terminal looks for the agent's program on the PATH first, and says so when it is not there", async () => {
    writeFileIn(
      join(home, '.codex', 'sessions', '2026', '01', '01', `rollout-2026-01-01T00-00-00-${CODEX_ID}.jsonl`),
      jsonl(codexLines({ id: CODEX_ID, cwd: work, turns: [bigTurn('delta')] })),
    );
    rmSync(join(root, 'bin', 'codex'));
    start();
    await vi.waitFor(async () => expect(flat(await rows()).length).toBe(2), HOST_SETTLES);
    await fake.command('contextCompactor.sessions.resume')!((await rowOf('TURN-delta: read notes-delta.txt and restate it')).element);
    expect(fake.state.terminals).toEqual([]);
    expect(fake.messages.find((m) => m.kind === 'error')!.message).toBe(
      `\`codex\` (Codex) is not on the PATH VS Code runs with, so no terminal was opened. Install Codex, or run \`codex resume ${CODEX_ID}\` in ${work} from a terminal where it is.`,
    );
  });

  it('a Resume in Terminal that fails after the compaction is a notification saying why', async () => {
    const folder = join(root, 'gone');
    mkdirSync(folder);
    fake.setWorkspaceRoot(folder);
    const file = claudeSession(CLAUDE_ID, ['alpha', 'bravo', 'charlie', 'delta'], { cwd: folder });
    start();
    await vi.waitFor(async () => expect(flat(await rows()).length).toBe(2), HOST_SETTLES);
    fake.answers.warning.push('Compact');
    // The folder goes away before the user clicks Resume in Terminal.
    fake.answers.info.push(() => {
      rmSync(folder, { recursive: true, force: true });
      return 'Resume in Terminal';
    });
    await fake.command('contextCompactor.sessions.compact')!((await rowOf('TURN-alpha: read notes-alpha.txt and restate it')).element);
    await vi.waitFor(() => expect(fake.messages.some((m) => m.kind === 'error')).toBe(true), HOST_SETTLES);
    expect(fake.messages.find((m) => m.kind === 'error')!.message).toBe(
      `Resume in Terminal failed: The folder this session ran in, ${folder}, does not exist any more; Claude Code resumes a session only from that folder.`,
    );
    expect(fake.state.terminals).toEqual([]);
    expect(existsSync(file)).toBe(true);
  });

  it('a Cline task becomes a handoff: the summary and the recent turns on the clipboard and a new Cline task, the task itself untouched', async () => {
    const h = start();
    // Cline keeps its tasks in VS Code's globalStorage, beside this extension's own folder.
    const cline = join(h.profile.storageDir, 'saoudrizwan.claude-dev');
    const messages = ['alpha', 'bravo', 'charlie', 'delta'].flatMap((t) => {
      const turn = bigTurn(t);
      return [
        { role: 'user', content: [{ type: 'text', text: `<task>\n${turn.user}\n</task>` }] },
        { role: 'assistant', content: [{ type: 'text', text: turn.answer }] },
        { role: 'user', content: [{ type: 'text', text: `[execute_command] Result:\n${turn.tool.output}` }] },
        { role: 'assistant', content: [{ type: 'text', text: `Done with ${t}.` }] },
      ];
    });
    const task = writeFileIn(join(cline, 'tasks', '1700000000001', 'api_conversation_history.json'), JSON.stringify(messages));
    writeFileIn(
      join(cline, 'state', 'taskHistory.json'),
      JSON.stringify([{ id: '1700000000001', task: 'review the tables', ts: 1, cwdOnTaskInitialization: work }]),
    );
    const original = readFileSync(task);
    const newTask: unknown[] = [];
    commands.registerCommand('cline.plusButtonClicked', () => newTask.push('opened'));
    fake.fileEvent(task, 'create');
    await vi.waitFor(async () => expect(flat(await rows()).map((r) => r.label)).toContain('Cline'), HOST_SETTLES);
    const row = flat(await rows()).find((r) => r.context === 'session.handoff')!;

    fake.answers.warning.push('Compact');
    await fake.command('contextCompactor.sessions.compact')!(row.row.element);
    const modal = fake.messages.find((m) => m.modal)!;
    expect(modal.detail).toContain(
      'Cline cannot resume a session from a file: Compact copies the summary and the recent turns as a prompt for a new chat, and changes nothing here.',
    );
    expect(fake.state.clipboard).toMatch(/^# Handoff: Cline: /);
    expect(fake.state.clipboard).toContain('Primary Request and Intent');
    expect(newTask).toEqual(['opened']);
    expect(fake.messages.at(-1)!.message).toBe(
      'Cline cannot resume a task from a file. A new task is open and the handoff (the summary and the recent turns) is on the clipboard: paste it as the task.',
    );
    expect(readFileSync(task).equals(original)).toBe(true);
    expect(readdirSync(join(cline, 'tasks'))).toEqual(['1700000000001']);
    expect(existsSync(join(home, '.claude'))).toBe(false);
  });

  it('a Copilot Chat session becomes a handoff in a new chat, its prompt in the input and not sent', async () => {
    const h = start();
    // The workspace's own storage folder holds its chat sessions.
    const requests = ['alpha', 'bravo', 'charlie', 'delta'].map((t, i) => ({
      requestId: `r${i}`,
      message: { text: bigTurn(t).user },
      response: [{ kind: 'markdownContent', value: { value: bigTurn(t).answer } }],
    }));
    const chat = writeFileIn(join(h.profile.storageDir, 'chatSessions', 'chat-1.json'), JSON.stringify({ version: 3, sessionId: 'chat-1', requests }));
    // A chat opened and never used: nothing to show but its id, so no row.
    const emptyId = '5f0e7d4c-1b2a-4c3d-9e8f-0a1b2c3d4e5f';
    writeFileIn(join(h.profile.storageDir, 'chatSessions', `${emptyId}.json`), JSON.stringify({ version: 3, sessionId: emptyId, requests: [] }));
    const opened: unknown[] = [];
    commands.registerCommand('workbench.action.chat.newChat', () => opened.push('new'));
    commands.registerCommand('workbench.action.chat.open', (arg: unknown) => opened.push(arg));
    fake.fileEvent(chat, 'create');
    await vi.waitFor(async () => expect(flat(await rows()).map((r) => r.label)).toContain('Copilot Chat'), HOST_SETTLES);
    expect(flat(await rows()).map((r) => r.label)).toEqual(['Copilot Chat', bigTurn('alpha').user.slice(0, 35) + '…']);
    expect(flat(await rows())[0]!.description).toBe('1 session');
    fake.answers.warning.push('Compact');
    await fake.command('contextCompactor.sessions.compact')!(flat(await rows()).find((r) => r.context === 'session.handoff')!.row.element);
    expect(opened[0]).toBe('new');
    expect(opened[1]).toEqual({ query: fake.state.clipboard, isPartialQuery: true });
    expect(fake.state.clipboard).toContain('Current Work');
    expect(fake.messages.at(-1)!.message).toMatch(/^Copilot Chat cannot resume a session from a file\. A new chat is open with the handoff/);
  });
});

describe('Reveal File', () => {
  it('shows the session file in the system file manager on the desktop, else opens it in an editor', async () => {
    const file = claudeSession(CLAUDE_ID, ['alpha']);
    start();
    await vi.waitFor(async () => expect(flat(await rows()).length).toBe(2), HOST_SETTLES);
    const row = (await rowOf('TURN-alpha: read notes-alpha.txt and restate it')).element;
    await fake.command('contextCompactor.sessions.reveal')!(row);
    expect(fake.state.shownDocuments.map((d) => d.uri.fsPath)).toEqual([file]);
    const revealed: unknown[] = [];
    commands.registerCommand('revealFileInOS', (uri: unknown) => revealed.push(uri));
    await fake.command('contextCompactor.sessions.reveal')!(row);
    expect(revealed.map((u) => (u as { fsPath: string }).fsPath)).toEqual([file]);
    expect(fake.state.shownDocuments).toHaveLength(1);
  });
});

describe('an opencode session', () => {
  it.skipIf(!hasSqlite3)(
    'is listed from opencode’s database, revealed as that file, and handed off when opencode is not there to import a compacted one',
    async () => {
      // The database the real opencode 1.18.33 wrote (test/fixtures/opencode/store), and a longer session of this workspace in it.
      const db = placeOpencodeStore(home);
      addOpencodeSession(db, {
        id: 'ses_0000000000ffBigSessionAbcd',
        directory: work,
        title: 'Ledger review',
        turns: ['alpha', 'bravo', 'charlie', 'delta'].map((t) => bigTurn(t)),
      });
      // (the sqlite3 shell that added it checkpointed the log into the database, as SQLite does on close)
      const files = [db, `${db}-wal`, `${db}-shm`].filter((f) => existsSync(f));
      const before = files.map((f) => readFileSync(f));
      const path = process.env['PATH'];
      process.env['PATH'] = join(root, 'no-opencode-here');
      try {
        start();
        await vi.waitFor(
          async () => expect(flat(await rows()).map((r) => r.label)).toContain(rowTitle({ title: 'TURN-alpha: read notes-alpha.txt and restate it', id: '' })),
          HOST_SETTLES,
        );
        const row = await rowOf('TURN-alpha: read notes-alpha.txt and restate it');
        const revealed: unknown[] = [];
        commands.registerCommand('revealFileInOS', (uri: unknown) => revealed.push(uri));
        await fake.command('contextCompactor.sessions.reveal')!(row.element);
        expect(revealed.map((u) => (u as { fsPath: string }).fsPath)).toEqual([db]);

        fake.answers.warning.push('Compact');
        await fake.command('contextCompactor.sessions.compact')!(row.element);
        expect(fake.messages.some((m) => /^opencode: opencode is not on the PATH.*handed off instead\.$/.test(m.message))).toBe(true);
        expect(fake.state.clipboard).toMatch(/^# Handoff: opencode/);
        expect(fake.state.clipboard).toContain('TURN-delta');
        // Nothing was written: the database is as it was.
        expect([db, `${db}-wal`, `${db}-shm`].filter((f) => existsSync(f))).toEqual(files);
        expect(files.map((f) => readFileSync(f))).toEqual(before);
      } finally {
        process.env['PATH'] = path;
      }
    },
  );
});
