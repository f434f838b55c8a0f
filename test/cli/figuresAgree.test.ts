// One number for one thing (design invariant 9): the before → after of ONE compaction of the shared
// kiliman Claude Code session, read on every surface that shows it, agree — the extension's meter,
// Sessions view, inspector header, confirmation and notification (against the vscode fake, with the
// real engine), `ctxc compact` (its stderr line and --format json, also with --to), the MCP tools
// (count_context, list_sessions, compact_session, in process through the SDK's own client) and the
// Copilot tools. The session records a cwd of another machine: the new session goes where Claude
// Code will look for it from this workspace, is listed, the meter follows it, and before its agent
// has answered it is counted as the confirmation said (±3%), on the meter, the Sessions view and in
// `ctxc count`. A usage record below our count of what is sent never makes a figure negative or a
// share over 100%, and Compact works on it.

import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as vscode from 'vscode';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { createMcpServer } from '../../src/cli/mcp/mcpServer';
import { createEngine } from '../../src/extension/engineModules';
import { LM_TOOLS } from '../../src/extension/ids';
import type { HostToWebview } from '../../src/shared/protocol';
import { claudeProjectDir } from '../../src/sessions/locations';
import { bigTurn, claudeLines, codexLines, jsonl, writeFileIn } from '../helpers/agentSessions';
import { transcriptPath } from '../helpers/transcripts';
import { activateHost, HOST_SETTLES, type ActivatedHost } from '../fakes/extensionHost';
import { CancellationTokenSource, fake, resetFake, treeRows, type FakeTreeRow, type LanguageModelTextPart, type MarkdownString } from '../fakes/vscode';

const KILIMAN = 'claude-code/kiliman__claude-transcript__test2.jsonl';
const KILIMAN_ID = '5b539e53-47c8-4996-bc4e-3896a787c8ab';
/** The window the meter, the view and the tools show the session against (claude-opus-4). */
const WINDOW = 200_000;
/** Environment variables that move an agent's folders: cleared so the fake home is the only one. */
const AGENT_ENV = ['HOME', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME'];

const fmt = (n: number) => n.toLocaleString('en-US');
const numbers = (text: string, re: RegExp): [number, number] => {
  const m = re.exec(text);
  if (!m) throw new Error(`no figures matching ${re} in: ${text}`);
  return [Number(m[1]!.replace(/,/g, '')), Number(m[2]!.replace(/,/g, ''))];
};
/** "69,822 → 40,728 tokens": the first before → after pair in a text. */
const PAIR = /([\d,]+) → ([\d,]+) tokens/;

let root: string;
let home: string;
let work: string;
let project: string;
const savedEnv: Record<string, string | undefined> = {};

function setHome(): void {
  for (const k of AGENT_ENV) {
    savedEnv[k] = process.env[k];
    delete process.env[k];
  }
  root = mkdtempSync(join(tmpdir(), 'ctxc-figures-'));
  home = join(root, 'home');
  work = join(root, 'work');
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  process.env['HOME'] = home;
  project = claudeProjectDir({}, home, work);
}

function restoreHome(): void {
  for (const k of AGENT_ENV) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
  rmSync(root, { recursive: true, force: true });
}

/** The kiliman session as a Claude Code session of the workspace: its bytes as they are (it records
 *  the cwd of the machine it was written on, which this one does not have). */
function placeKiliman(): string {
  mkdirSync(project, { recursive: true });
  const file = join(project, `${KILIMAN_ID}.jsonl`);
  copyFileSync(transcriptPath(KILIMAN), file);
  return file;
}

async function ctxc(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = { code: 0, out: '', err: '' };
  const io: CliIO = { out: (t) => void (r.out += t), err: (t) => void (r.err += t), env: { HOME: home }, cwd: work };
  r.code = await main(args, io);
  return r;
}

/** The figures of one compaction as `ctxc compact --format json` prints them: the reference every
 *  other surface is held to. */
interface Reference {
  before: number;
  after: number;
  inFile: { before: number; after: number };
  notInFile: { before: number; after: number };
}

async function reference(file: string): Promise<Reference> {
  const r = await ctxc(['compact', file, '--format', 'json']);
  expect(r.code, r.err).toBe(0);
  const j = JSON.parse(r.out) as { tokensBefore: number; tokensAfter: number; inFile: Reference['inFile']; notInFile: Reference['notInFile'] };
  // The stderr line says the same pair, and the part not in the file beside it.
  expect(numbers(r.err, PAIR)).toEqual([j.tokensBefore, j.tokensAfter]);
  expect(r.err).toContain(`${fmt(j.notInFile.before)} of each not in the file: system prompt, tools`);
  return { before: j.tokensBefore, after: j.tokensAfter, inFile: j.inFile, notInFile: j.notInFile };
}

const within3 = (value: number, expected: number) => expect(Math.abs(value - expected) / expected, `${value} against ${expected}`).toBeLessThanOrEqual(0.03);

describe('one compaction of the shared kiliman session: the same before → after on every surface', () => {
  let file: string;
  let ref: Reference;
  beforeAll(async () => {
    setHome();
    file = placeKiliman();
    ref = await reference(file);
  });
  afterAll(restoreHome);

  it('has a part not in the file (the usage Claude Code recorded) on both sides, and shrinks the file’s part', () => {
    expect(ref.notInFile.before).toBeGreaterThan(25_000);
    expect(ref.notInFile.after).toBe(ref.notInFile.before);
    expect(ref.before).toBe(ref.inFile.before + ref.notInFile.before);
    expect(ref.after).toBe(ref.inFile.after + ref.notInFile.after);
    expect(ref.inFile.after).toBeLessThan(ref.inFile.before / 2);
  });

  describe('in VS Code', () => {
    let host: ActivatedHost;
    beforeEach(() => {
      resetFake();
      fake.setWorkspaceRoot(work);
    });
    afterEach(() => {
      host?.deactivate();
      for (const f of readdirSync(project)) if (f !== `${KILIMAN_ID}.jsonl`) rmSync(join(project, f));
    });

    const meterLabel = () => fake.statusBarItem('contextCompactor.meter')!.accessibilityInformation?.label ?? '';
    const meterTotal = () => Number(/^Context Compactor: (\d+) \//.exec(meterLabel())?.[1] ?? NaN);
    const rows = async (): Promise<FakeTreeRow[]> => {
      const flat = (list: FakeTreeRow[]): FakeTreeRow[] => list.flatMap((r) => [r, ...flat(r.children)]);
      return flat(await treeRows(fake.treeView('contextCompactor.sessions')!)).filter((r) => r.item.contextValue?.startsWith('session'));
    };
    /** The tokens a row of the Sessions view shows (its tooltip: "69,822 of 200,000 tokens"). */
    const rowTokens = (r: FakeTreeRow) => numbers((r.item.tooltip as MarkdownString).value, /([\d,]+) of ([\d,]+) tokens/)[0];

    it('Show Context Chart: the inspector on the session with its chart in view, the cost of compacting from the same figures', async () => {
      host = activateHost(createEngine());
      await vi.waitFor(async () => expect((await rows()).map(rowTokens)).toEqual([ref.before]), HOST_SETTLES);
      await fake.command('contextCompactor.sessions.chart')!((await rows())[0]!.element);
      const panel = fake.state.webviewPanels.at(-1)!;
      panel.webview.receive({ type: 'ready' });
      const init = await vi.waitFor(() => {
        const m = (panel.webview.posted as HostToWebview[]).find((x) => x.type === 'init');
        if (!m || m.type !== 'init' || !m.model) throw new Error('no init yet');
        return m;
      }, HOST_SETTLES);
      expect(init.reveal).toBe('chart');
      const { history, cost, biggest, offloadNote } = init.model!;
      // Every request Claude Code recorded; the last one is what the meter builds on.
      expect(history).toMatchObject({ source: 'reported', recordedBy: 'Claude Code' });
      expect(history!.points).toHaveLength(131);
      expect(history!.trigger).toBe(Math.round(history!.window * 0.8));
      expect([cost.wouldRead, cost.rewritten, cost.savedPerRequest]).toEqual([ref.inFile.before, ref.inFile.after, ref.before - ref.after]);
      expect(cost.price?.family).toMatch(/Claude/);
      expect(cost.paysOffAfter).toBeGreaterThanOrEqual(0);
      // A compaction of this session is written as a new one: its tool results are not offloaded alone.
      expect(offloadNote).toMatch(/written as a new session/);
      expect(biggest.length).toBeGreaterThan(0);
      expect(biggest.every((b) => !b.offloadable)).toBe(true);
    });

    it('meter, Sessions view, inspector, confirmation and notification; then the meter and the view follow the new session', async () => {
      host = activateHost(createEngine());
      // Followed with no file open: the meter names the agent and the session.
      await vi.waitFor(() => expect(meterTotal()).toBe(ref.before), HOST_SETTLES);
      expect(meterLabel()).toMatch(/ — Claude Code: /);
      expect(fake.statusBarItem('contextCompactor.meter')!.text).toMatch(/ · Claude Code: /);
      await vi.waitFor(async () => expect((await rows()).map(rowTokens)).toEqual([ref.before]), HOST_SETTLES);
      const row = (await rows())[0]!;

      // The inspector's header, on the same session.
      await fake.command('contextCompactor.sessions.inspect')!(row.element);
      const panel = fake.state.webviewPanels.at(-1)!;
      panel.webview.receive({ type: 'ready' });
      const init = await vi.waitFor(() => {
        const m = (panel.webview.posted as HostToWebview[]).find((x) => x.type === 'init');
        if (!m || m.type !== 'init' || !m.model) throw new Error('no init yet');
        return m.model;
      }, HOST_SETTLES);
      expect([init.header.tokensBefore, init.header.tokensAfter]).toEqual([ref.before, ref.after]);
      expect(init.header.notInFile).toEqual({ before: ref.notInFile.before, after: ref.notInFile.after });

      // Compact…: the confirmation, then the notification.
      fake.answers.warning.push('Compact');
      await fake.command('contextCompactor.sessions.compact')!(row.element);
      const modal = fake.messages.find((m) => m.modal)!;
      expect(numbers(modal.message, PAIR)).toEqual([ref.before, ref.after]);
      expect(modal.detail).toContain(`In the file: ${fmt(ref.inFile.before)} → ${fmt(ref.inFile.after)}. Not in the file`);
      expect(modal.detail).toContain(`: ${fmt(ref.notInFile.before)} of each; compaction does not shrink it.`);
      const done = fake.messages.find((m) => m.message.startsWith('Compacted into a new Claude Code session'))!;
      expect(numbers(done.message, PAIR)).toEqual([ref.before, ref.after]);
      expect(done.message).toContain(`${fmt(ref.notInFile.before)} of each not in the file`);

      // The session records a folder this machine does not have: the new one is written where
      // Claude Code looks from this workspace, said so, and listed under its original.
      const written = readdirSync(project).filter((f) => f !== `${KILIMAN_ID}.jsonl`);
      expect(written).toHaveLength(1);
      expect(done.message).toContain(`Written to ${join(project, written[0]!)}, resumed from ${work}.`);
      expect(done.message).not.toContain('It is not among the sessions of this workspace');
      const newFile = join(project, written[0]!);

      // The meter follows the new session, and shows the confirmation's after before Claude Code
      // has answered in it (what the original measured is inherited).
      await vi.waitFor(() => expect(host.api.store.active()?.key).toContain(written[0]!.replace('.jsonl', '')), HOST_SETTLES);
      within3(meterTotal(), ref.after);
      // The switch is said in the status bar, naming what the meter shows now.
      expect(fake.state.statusBarMessages.at(-1)?.text).toMatch(/^\$\(arrow-swap\) The meter now shows Claude Code: .+ \(was Claude Code: .+\)\.$/);
      await vi.waitFor(async () => expect(await rows()).toHaveLength(2), HOST_SETTLES);
      const newRow = (await rows()).find((r) => (r.item.tooltip as MarkdownString).value.replace(/\\/g, '').includes(written[0]!))!;
      within3(rowTokens(newRow), ref.after);
      expect((newRow.item.tooltip as MarkdownString).value).toContain(
        `Of these, ${fmt(ref.notInFile.after)} are not in the file (system prompt, tools), as recorded when Compact wrote this session.`,
      );
      expect((row.item.tooltip as MarkdownString).value).toContain(
        `Of these, ${fmt(ref.notInFile.before)} are not in the file (system prompt, tools), from the usage the agent reported.`,
      );
      // One count per session: the view's and the meter's are the same number.
      expect(rowTokens(newRow)).toBe(meterTotal());

      // ctxc counts the new session as the meter does.
      const count = await ctxc(['count', newFile, '--json']);
      const j = JSON.parse(count.out) as { total: number; window: number; inherited: { overhead: number } | null };
      expect(j.total).toBe(meterTotal());
      expect(j.inherited?.overhead).toBe(ref.notInFile.after);
      within3(j.total, ref.after);
      expect(j.window).toBe(WINDOW);
    });

    it('the Copilot tools: the session’s size, and the compaction’s before → after', async () => {
      host = activateHost(createEngine());
      const token = () => new CancellationTokenSource().token as unknown as vscode.CancellationToken;
      const text = (r: unknown) => ((r as { content: LanguageModelTextPart[] }).content as LanguageModelTextPart[]).map((p) => p.value).join('');
      const tool = (name: string) => fake.lmTool(name)!;
      const usage = text(await tool(LM_TOOLS.sessionUsage).invoke({ input: {}, toolInvocationToken: undefined }, token()));
      expect(usage).toContain(`- claude-code ${KILIMAN_ID}: ${fmt(ref.before)} / ${fmt(WINDOW)} (`);
      expect(usage).toContain(`(claude-code ${KILIMAN_ID}, ${fmt(ref.before)} of ${fmt(WINDOW)} tokens`);
      expect(usage).toContain(`- Not in the file (system prompt, tools): ${fmt(ref.notInFile.before)} tokens`);
      const compacted = text(await tool(LM_TOOLS.compactSession).invoke({ input: {}, toolInvocationToken: undefined }, token()));
      expect(numbers(compacted, PAIR)).toEqual([ref.before, ref.after]);
      expect(compacted).toContain(`${fmt(ref.notInFile.before)} of each not in the file`);
    });
  });

  it('ctxc: --to claude-code prints the same pair in JSON and on stderr, and the new session counts as its after', async () => {
    const r = await ctxc(['compact', file, '--to', 'claude-code', '--format', 'json']);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as { file: string; cwd: string; tokensBefore: number; tokensAfter: number };
    expect([j.tokensBefore, j.tokensAfter]).toEqual([ref.before, ref.after]);
    expect(numbers(r.err, PAIR)).toEqual([ref.before, ref.after]);
    // Not the recorded folder of another machine: the current one.
    expect(j.cwd).toBe(work);
    const count = JSON.parse((await ctxc(['count', j.file, '--json'])).out) as { total: number };
    within3(count.total, ref.after);
    rmSync(j.file);
  });

  it('into Codex: the after is the file’s part plus Codex’s own overhead, and the new rollout counts so', async () => {
    const r = await ctxc(['compact', file, '--to', 'codex', '--format', 'json']);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as {
      file: string;
      tokensBefore: number;
      tokensAfter: number;
      notInFile: { before: number; after: number; afterSource: string };
    };
    expect(j.tokensBefore).toBe(ref.before);
    expect(j.notInFile).toMatchObject({ before: ref.notInFile.before, after: 10_000, afterSource: 'estimate' });
    expect(j.tokensAfter).toBe(ref.inFile.after + 10_000);
    expect(r.err).toContain(`not in the file (system prompt, tools): ${fmt(ref.notInFile.before)} before, 10,000 after`);
    const count = JSON.parse((await ctxc(['count', j.file, '--json'])).out) as { total: number; overhead: number };
    expect(count.overhead).toBe(10_000);
    within3(count.total, j.tokensAfter);
    rmSync(j.file);
  });

  it('over MCP: count_context and list_sessions give the meter’s before; compact_session the same pair', async () => {
    const server = createMcpServer({ env: { HOME: home }, home, cwd: work });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'figures', version: '1.0.0' });
    await Promise.all([server.connect(a), client.connect(b)]);
    const call = async (name: string, args: Record<string, unknown>) =>
      JSON.parse(((await client.callTool({ name, arguments: args })) as { content: { text: string }[] }).content[0]!.text) as Record<string, unknown>;
    try {
      const counted = await call('count_context', { file });
      expect(counted).toMatchObject({ total: ref.before, inFile: ref.inFile.before, notInFile: ref.notInFile.before, window: WINDOW });
      for (const share of Object.values(counted['share'] as Record<string, number>)) expect(share).toBeGreaterThanOrEqual(0);
      const listed = (await call('list_sessions', {}))['sessions'] as { id: string; tokens: number }[];
      expect(listed.find((s) => s.id === KILIMAN_ID)!.tokens).toBe(ref.before);
      const compacted = await call('compact_session', { session_id: KILIMAN_ID, to: 'claude-code' });
      expect([compacted['tokensBefore'], compacted['tokensAfter']]).toEqual([ref.before, ref.after]);
      expect(compacted['notInFile']).toMatchObject({ before: ref.notInFile.before, after: ref.notInFile.after });
      const recount = await call('count_context', { file: compacted['file'] as string });
      within3(recount['total'] as number, ref.after);
      rmSync(compacted['file'] as string);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('a Codex session compacted into Codex', () => {
  beforeAll(setHome);
  afterAll(restoreHome);

  it('keeps the model it ran with and the window Codex stated; before its agent answers, it counts as the after', async () => {
    const id = '22222222-2222-4222-8222-000000000009';
    const file = writeFileIn(
      join(home, '.codex', 'sessions', '2026', '01', '01', `rollout-2026-01-01T00-00-00-${id}.jsonl`),
      jsonl(codexLines({ id, cwd: work, turns: ['alpha', 'bravo', 'charlie', 'delta'].map((t) => bigTurn(t, 12)) })),
    );
    const before = JSON.parse((await ctxc(['count', file, '--json'])).out) as { model: string; window: number; overhead: number };
    expect(before).toMatchObject({ model: 'gpt-5.1-codex', window: 258_400 });
    expect(before.overhead).toBeGreaterThan(0);
    const r = await ctxc(['compact', file, '--to', 'codex', '--format', 'json']);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as { file: string; tokensAfter: number; notInFile: { after: number; afterSource: string } };
    expect(j.notInFile.afterSource).toBe('reported');
    const after = JSON.parse((await ctxc(['count', j.file, '--json'])).out) as { model: string; window: number; total: number; inherited: unknown };
    // Not gpt-4o's 128k: the rollout Compact wrote names no model of its own yet.
    expect(after).toMatchObject({ model: 'gpt-5.1-codex', window: 258_400, inherited: { model: 'gpt-5.1-codex', window: 258_400 } });
    // The measured overhead, plus the harness messages the new rollout leaves out (Codex sends its
    // own): what the compaction's after says is not in the file.
    expect((after.inherited as { overhead: number }).overhead).toBeGreaterThanOrEqual(before.overhead);
    expect(j.notInFile.after).toBe((after.inherited as { overhead: number }).overhead);
    within3(after.total, j.tokensAfter);
  });
});

describe('a usage record below our count of what is sent', () => {
  const ID = '77777777-7777-4777-8777-000000000001';
  let file: string;
  beforeAll(() => {
    setHome();
    const lines = claudeLines({ sessionId: ID, cwd: work, turns: ['alpha', 'bravo', 'charlie', 'delta'].map((t) => bigTurn(t)) });
    // The last answer records 3 tokens of input: nothing that size was ever sent.
    const last = lines.at(-1)! as { message: Record<string, unknown> };
    last.message['usage'] = { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 20 };
    file = writeFileIn(join(project, `${ID}.jsonl`), jsonl(lines));
  });
  afterAll(restoreHome);

  it('ctxc count: flagged, not used; no category negative, no share over 100%', async () => {
    const r = await ctxc(['count', file, '--json']);
    const j = JSON.parse(r.out) as {
      total: number;
      counted: number;
      overhead: number;
      reported: unknown;
      implausible: { tokens: number };
      byCategory: Record<string, number>;
    };
    expect(j).toMatchObject({ total: j.counted, overhead: 0, reported: null, implausible: { tokens: 3 } });
    for (const n of Object.values(j.byCategory)) expect(n).toBeGreaterThanOrEqual(0);
    const text = (await ctxc(['count', file])).out;
    expect(text).toContain('Source: our count: the usage recorded (3, Claude Code, line');
    for (const m of text.matchAll(/ (-?\d+\.\d)%$/gm)) {
      expect(Number(m[1])).toBeLessThanOrEqual(100);
      expect(Number(m[1])).toBeGreaterThanOrEqual(0);
    }
  });

  it('in VS Code: the meter says so, and Compact writes the new session', async () => {
    resetFake();
    fake.setWorkspaceRoot(work);
    const host = activateHost(createEngine());
    try {
      await vi.waitFor(() => expect(host.api.store.active()?.report.implausible?.usage.tokens).toBe(3), HOST_SETTLES);
      const report = host.api.store.active()!.report;
      expect(report.total).toBe(report.counted);
      for (const n of Object.values(report.byCategory)) expect(n).toBeGreaterThanOrEqual(0);
      expect((fake.statusBarItem('contextCompactor.meter')!.tooltip as MarkdownString).value).toContain('that figure cannot be what was sent');
      fake.answers.warning.push('Compact');
      await fake.command('contextCompactor.compact')!();
      expect(fake.messages.find((m) => m.modal)!.message).toMatch(/^Compact this conversation\? [\d,]+ → [\d,]+ tokens \(estimated\)$/);
      expect(fake.messages.some((m) => m.kind === 'error')).toBe(false);
      expect(readdirSync(project).filter((f) => f !== `${ID}.jsonl`)).toHaveLength(1);
    } finally {
      host.deactivate();
    }
  });
});
