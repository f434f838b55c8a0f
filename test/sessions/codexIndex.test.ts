// Codex's thread index ($CODEX_HOME/state_5.sqlite) as we add a compacted rollout's row to it: on
// an index built from the schema the real Codex 0.171.0 made (fixtures/codex-state_5-0.171.0.sql),
// in WAL mode as Codex keeps it, through the same SQLite access the product uses (node:sqlite where
// this Node has it, else the sqlite3 shell). Only our row is ever written; a locked index, a table
// we do not know and a runtime without SQLite leave the index as it was and say why.

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addToCodexIndex,
  CODEX_DEFAULT_PROVIDER,
  configuredProvider,
  removeFromCodexIndex,
  threadSettings,
  type CodexThreadRow,
} from '../../src/sessions/agents/codex/codexIndex';
import { fixturesDir } from '../helpers/transcripts';

const root = mkdtempSync(join(tmpdir(), 'ctxc-codex-index-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env['PATH'] };
const SCHEMA = readFileSync(join(fixturesDir, 'codex-state_5-0.171.0.sql'), 'utf8');
const CODEX_ROW_ID = '01a21a51-a59d-73f2-8d95-a6dc5f798aad';
let homes = 0;

function sqlite(db: string, script: string): string {
  const r = spawnSync('sqlite3', ['-bail', '-json', db], { input: script, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sqlite3: ${r.stderr}`);
  return r.stdout;
}

function rows(db: string, sql: string): Record<string, unknown>[] {
  const out = sqlite(db, `${sql};\n`).trim();
  return out === '' ? [] : (JSON.parse(out) as Record<string, unknown>[]);
}

/** A CODEX_HOME whose index holds one thread Codex wrote (an exec run in /w, provider openai). */
function codexHome(schema = SCHEMA): { home: string; db: string } {
  const home = join(root, `home-${++homes}`);
  mkdirSync(home, { recursive: true });
  const db = join(home, 'state_5.sqlite');
  sqlite(db, `PRAGMA journal_mode=WAL;\n${schema}\n`);
  if (schema === SCHEMA)
    sqlite(
      db,
      `INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, sandbox_policy, approval_mode, tokens_used, cli_version, first_user_message, created_at_ms, updated_at_ms, preview, history_mode, originator, thread_source, model)
       VALUES ('${CODEX_ROW_ID}', '/h/sessions/2026/11/27/rollout-x-${CODEX_ROW_ID}.jsonl', 1795737888, 1795737888, 'exec', 'openai', '/w', 'hello', '{"type":"read-only"}', 'never', 10081, '0.171.0', 'hello', 1795737888160, 1795737888279, 'hello', 'paginated', 'codex_exec', 'user', 'gpt-5.1-codex');\n`,
    );
  return { home, db };
}

function ourRow(id: string, over: Partial<CodexThreadRow> = {}): CodexThreadRow {
  return {
    id,
    rolloutPath: `/h/sessions/2026/11/28/rollout-2026-11-28T10-00-00-${id}.jsonl`,
    createdAtMs: 1795800000000,
    updatedAtMs: 1795800000123,
    source: 'exec',
    modelProvider: 'openai',
    cwd: '/w',
    title: '  TURN-alpha: read the notes  ',
    cliVersion: '0.171.0',
    originator: 'context_compactor',
    threadSource: 'user',
    sandboxPolicy: '{"type":"read-only"}',
    approvalMode: 'never',
    ...over,
  };
}

const OURS = '5b2f6a9e-0c1d-4e2f-8a3b-4c5d6e7f8a9b';
/** Which SQLite this Node reaches Codex's index through (Node 20: the shell; 22.13 and later: its own). */
const ENGINE = (() => {
  try {
    return process.getBuiltinModule?.('node:sqlite') ? 'node:sqlite' : 'sqlite3 shell';
  } catch {
    return 'sqlite3 shell';
  }
})();

describe("Codex's index gets our row, as Codex would make it from the rollout", () => {
  it('adds exactly our row, listed first by `--last` in its folder, and leaves Codex’s own row as it was', async () => {
    const { home, db } = codexHome();
    const before = rows(db, `SELECT * FROM threads WHERE id = '${CODEX_ROW_ID}'`);
    const outcome = await addToCodexIndex(home, ourRow(OURS), { env });
    expect(outcome).toMatchObject({ status: 'added', latestInFolder: true, engine: ENGINE });
    expect(rows(db, `SELECT * FROM threads WHERE id = '${CODEX_ROW_ID}'`)).toEqual(before);
    const [row] = rows(db, `SELECT * FROM threads WHERE id = '${OURS}'`);
    expect(row).toMatchObject({
      rollout_path: ourRow(OURS).rolloutPath,
      source: 'exec',
      model_provider: 'openai',
      cwd: '/w',
      title: 'TURN-alpha: read the notes',
      first_user_message: 'TURN-alpha: read the notes',
      preview: 'TURN-alpha: read the notes',
      created_at: 1795800000,
      created_at_ms: 1795800000000,
      updated_at_ms: 1795800000123,
      // Filled by Codex's own trigger from updated_at_ms, as for a row Codex inserts.
      recency_at_ms: 1795800000123,
      history_mode: 'legacy',
      thread_source: 'user',
      originator: 'context_compactor',
      tokens_used: 0,
      archived: 0,
    });
    // The query Codex's `exec resume --last` makes in /w with provider openai picks ours.
    expect(
      rows(db, "SELECT id FROM threads WHERE archived = 0 AND cwd = '/w' AND model_provider = 'openai' ORDER BY updated_at_ms DESC, id DESC LIMIT 1"),
    ).toEqual([{ id: OURS }]);
    expect(rows(db, 'SELECT count(*) AS n FROM threads')).toEqual([{ n: 2 }]);
  });

  it('a thread of the folder updated after ours is noted (that one is what `--last` picks)', async () => {
    const { home } = codexHome();
    expect(await addToCodexIndex(home, ourRow(OURS, { updatedAtMs: 1700000000000, createdAtMs: 1700000000000 }), { env })).toMatchObject({
      status: 'added',
      latestInFolder: false,
    });
  });

  it('an id already in the index is not written over', async () => {
    const { home, db } = codexHome();
    const before = rows(db, `SELECT * FROM threads WHERE id = '${CODEX_ROW_ID}'`);
    expect(await addToCodexIndex(home, ourRow(CODEX_ROW_ID), { env })).toEqual({
      status: 'not-added',
      reason: `Codex's index already has a thread ${CODEX_ROW_ID}`,
    });
    expect(rows(db, `SELECT * FROM threads WHERE id = '${CODEX_ROW_ID}'`)).toEqual(before);
  });

  it('removes only our row, and only while it points at our rollout', async () => {
    const { home, db } = codexHome();
    await addToCodexIndex(home, ourRow(OURS), { env });
    expect(await removeFromCodexIndex(home, OURS, '/somewhere/else.jsonl', { env })).toBe(false);
    expect(await removeFromCodexIndex(home, OURS, ourRow(OURS).rolloutPath, { env })).toBe(true);
    expect(rows(db, 'SELECT id FROM threads')).toEqual([{ id: CODEX_ROW_ID }]);
  });

  it('what the rollout does not say comes from the original thread’s row, else the newest, else Codex’s defaults', async () => {
    const { home } = codexHome();
    expect(await threadSettings(home, CODEX_ROW_ID, { env })).toEqual({
      sandboxPolicy: '{"type":"read-only"}',
      approvalMode: 'never',
      modelProvider: 'openai',
      model: 'gpt-5.1-codex',
    });
    expect(await threadSettings(home, 'not-there', { env })).toEqual({ sandboxPolicy: '{"type":"read-only"}', approvalMode: 'never' });
    const empty = join(root, 'no-index');
    mkdirSync(empty, { recursive: true });
    expect((await threadSettings(empty, undefined, { env })).approvalMode).toBe('on-request');
  });

  it('the model provider of a session from another agent is the one config.toml names, else openai', async () => {
    const home = join(root, 'config-home');
    mkdirSync(home, { recursive: true });
    expect(await configuredProvider(home)).toBe(CODEX_DEFAULT_PROVIDER);
    writeFileSync(join(home, 'config.toml'), 'model = "m"\nmodel_provider = "fake"\n\n[model_providers.fake]\nmodel_provider = "no"\n');
    expect(await configuredProvider(home)).toBe('fake');
    writeFileSync(join(home, 'config.toml'), '[model_providers.fake]\nmodel_provider = "inside a table"\n');
    expect(await configuredProvider(home)).toBe(CODEX_DEFAULT_PROVIDER);
  });
});

describe('when the index cannot take our row, nothing is written and the reason is said', () => {
  it('Codex holding its write lock: we wait briefly, then give up (the lock holder’s work stays whole)', async () => {
    const { home, db } = codexHome();
    // Another connection (Codex) in the middle of a write transaction.
    const holder = spawn('sqlite3', [db], { stdio: ['pipe', 'pipe', 'pipe'] });
    holder.stdin.write(`BEGIN IMMEDIATE;\nUPDATE threads SET tokens_used = 1 WHERE id = '${CODEX_ROW_ID}';\nSELECT 'locked';\n`);
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const t0 = Date.now();
    const outcome = await addToCodexIndex(home, ourRow(OURS), { env, busyTimeoutMs: 300 });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(outcome.status).toBe('not-added');
    expect(outcome.status === 'not-added' && outcome.reason).toMatch(/stayed locked/);
    holder.stdin.end('COMMIT;\n');
    await new Promise((resolve) => holder.on('close', resolve));
    expect(rows(db, 'SELECT id, tokens_used FROM threads')).toEqual([{ id: CODEX_ROW_ID, tokens_used: 1 }]);
  });

  it('a threads table with a column we would have to fill and do not know', async () => {
    const { home, db } = codexHome(
      'CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, source TEXT NOT NULL, model_provider TEXT NOT NULL, cwd TEXT NOT NULL, title TEXT NOT NULL, sandbox_policy TEXT NOT NULL, approval_mode TEXT NOT NULL, workspace_kind TEXT NOT NULL);',
    );
    const outcome = await addToCodexIndex(home, ourRow(OURS), { env });
    expect(outcome).toEqual({
      status: 'not-added',
      reason: "Codex's index is not one this version knows: its threads table needs values this version does not know (workspace_kind)",
    });
    expect(rows(db, 'SELECT count(*) AS n FROM threads')).toEqual([{ n: 0 }]);
  });

  it('a threads table without a column Codex lists by', async () => {
    const { home } = codexHome('CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL);');
    expect(await addToCodexIndex(home, ourRow(OURS), { env })).toMatchObject({
      status: 'not-added',
      reason: expect.stringMatching(/lacks created_at, updated_at, source/),
    });
  });

  it('no index at all (a Codex that lists by scanning its sessions folder), or an index of another generation', async () => {
    const bare = join(root, 'bare-home');
    mkdirSync(bare, { recursive: true });
    expect(await addToCodexIndex(bare, ourRow(OURS), { env })).toEqual({ status: 'no-index' });
    writeFileSync(join(bare, 'state_6.sqlite'), '');
    expect(await addToCodexIndex(bare, ourRow(OURS), { env })).toEqual({
      status: 'not-added',
      reason: "Codex's index is state_6.sqlite, a format this version does not know",
    });
  });

  it('a runtime with no SQLite (no node:sqlite, no sqlite3 on the PATH)', async () => {
    const { home, db } = codexHome();
    const outcome = await addToCodexIndex(home, ourRow(OURS), { env: { PATH: '' }, noBuiltin: true });
    expect(outcome).toMatchObject({ status: 'not-added', reason: expect.stringMatching(/has no node:sqlite .* and there is no sqlite3 on the PATH/) });
    expect(rows(db, 'SELECT count(*) AS n FROM threads')).toEqual([{ n: 1 }]);
  });
});
