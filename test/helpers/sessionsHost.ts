// The world the sessions host tests run in: a fake home with the agents' folders, a workspace
// folder (with a space in its name), stand-ins for the agents' programs on the PATH, the vscode
// fake reset, and the environment variables that move the agents' folders cleared (restored after).
// With helpers to write Claude Code sessions and read the Sessions view and the meter.
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { tokenReport } from '../../src/engine/tokens/report';
import { rowTitle } from '../../src/extension/sessions/sessionText';
import { claudeProjectDir } from '../../src/sessions/locations';
import { bigTurn, claudeLines, jsonl, writeFileIn } from './agentSessions';
import { fake, resetFake, treeRows, type FakeStatusBarItem, type FakeTreeRow } from '../fakes/vscode';

export const VIEW = 'contextCompactor.sessions';
export const CLAUDE_ID = '11111111-1111-4111-8111-000000000001';
export const OLDER_ID = '11111111-1111-4111-8111-000000000002';
export const CODEX_ID = '22222222-2222-4222-8222-000000000001';

/** Environment variables that move an agent's folders: cleared so the fake home is the only one. */
const AGENT_ENV = ['HOME', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'CLINE_DIR', 'CLINE_DATA_DIR', 'CLINE_SESSION_DATA_DIR', 'XDG_DATA_HOME', 'OPENCODE_DB', 'PATH'];

export interface SessionsWorld {
  root: string;
  home: string;
  /** The workspace folder. */
  work: string;
}

let world: SessionsWorld;
const savedEnv: Record<string, string | undefined> = {};

/** A fresh world (call in beforeEach). */
export function setupSessionsWorld(): SessionsWorld {
  resetFake();
  for (const k of AGENT_ENV) {
    savedEnv[k] = process.env[k];
    delete process.env[k];
  }
  const root = mkdtempSync(join(tmpdir(), 'ctxc-sessions-ui-'));
  world = { root, home: join(root, 'home'), work: join(root, 'work space') };
  mkdirSync(world.home, { recursive: true });
  mkdirSync(world.work, { recursive: true });
  process.env['HOME'] = world.home;
  // The agents' programs Resume in Terminal looks for on the PATH: stand-ins that are never run.
  const bin = join(root, 'bin');
  for (const program of ['claude', 'codex']) writeFileIn(join(bin, program), '#!/bin/sh\nexit 0\n');
  for (const program of ['claude', 'codex']) chmodSync(join(bin, program), 0o755);
  process.env['PATH'] = `${bin}${delimiter}${savedEnv['PATH'] ?? ''}`;
  fake.setWorkspaceRoot(world.work);
  return world;
}

/** Restores the environment and removes the world's folders (call in afterEach). */
export function teardownSessionsWorld(): void {
  for (const k of AGENT_ENV) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
  rmSync(world.root, { recursive: true, force: true });
}

export const meter = (): FakeStatusBarItem => fake.statusBarItem('contextCompactor.meter')!;
export const meterTotal = (): number | undefined => {
  const m = /: (\d+) \/ (\d+) tokens/.exec(meter().visible ? (meter().accessibilityInformation?.label ?? '') : '');
  return m ? Number(m[1]) : undefined;
};

/** The tokens the meter should show for a Claude Code session file: the chain the CLI resumes,
 *  counted with the session's own model (the same rule as `ctxc count`). */
export async function claudeTokens(file: string): Promise<number> {
  const { conversation } = importTranscript(readFileSync(file, 'utf8'), { sourcePath: file, format: 'claude-code' });
  return tokenReport(conversation.messages, await createTokenCounter(conversation.meta.model)).total;
}

export function claudeSession(id: string, turns: string[], opts: { cwd?: string; mtime?: number } = {}): string {
  const cwd = opts.cwd ?? world.work;
  const file = writeFileIn(
    join(claudeProjectDir({}, world.home, cwd), `${id}.jsonl`),
    jsonl(claudeLines({ sessionId: id, cwd, turns: turns.map((t) => bigTurn(t)) })),
  );
  if (opts.mtime) utimesSync(file, opts.mtime / 1000, opts.mtime / 1000);
  return file;
}

/** Appends one more turn to a Claude Code session, chained to its last line. */
export function appendTurn(file: string, name: string): void {
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { uuid: string; sessionId: string; cwd: string });
  const last = lines.at(-1)!;
  const more = claudeLines({ sessionId: last.sessionId, cwd: last.cwd, turns: [bigTurn(name)], start: 1000 + lines.length, parent: last.uuid });
  appendFileSync(file, jsonl(more));
}

export async function rows(): Promise<FakeTreeRow[]> {
  return treeRows(fake.treeView(VIEW)!);
}

export function flat(list: FakeTreeRow[], depth = 0): { depth: number; label: string; description: string; context?: string; row: FakeTreeRow }[] {
  return list.flatMap((r) => [
    {
      depth,
      label: String(r.item.label),
      description: String(r.item.description ?? ''),
      ...(r.item.contextValue ? { context: r.item.contextValue } : {}),
      row: r,
    },
    ...flat(r.children, depth + 1),
  ]);
}

/** The row of the session titled `title` (its label is the title cut to ROW_TITLE_CHARS). */
export async function rowOf(title: string): Promise<FakeTreeRow> {
  const label = rowTitle({ title, id: title });
  const found = flat(await rows()).find((r) => r.label === label);
  if (!found) throw new Error(`no row "${label}" in ${JSON.stringify(flat(await rows()).map((r) => r.label))}`);
  return found.row;
}
