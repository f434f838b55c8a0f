// Codex's index of its threads: `$CODEX_HOME/state_5.sqlite`, table `threads` (seen in Codex 0.169
// and 0.171). `codex resume --last`, `codex exec resume --last`, the resume picker and the app
// server's thread/list read it, filtered by the folder, the model provider and (except `exec
// resume`) interactive sources; a rollout another program wrote is missing there until Codex
// resumes it by id, so `--last` silently continues an older thread. After writing a rollout we
// add its row as Codex's own indexing would from that rollout: the values Codex derives (title,
// preview and first_user_message from the first user_message event, source, cwd, cli_version,
// originator from session_meta, history_mode legacy, tokens_used 0 before any request) and, for
// what the rollout does not say (sandbox policy, approval mode), the original thread's values, else
// those of the newest thread, else Codex's defaults.
//
// Only our row is written: one INSERT … ON CONFLICT DO NOTHING in an IMMEDIATE transaction that
// waits at most INDEX_BUSY_TIMEOUT_MS for Codex's own lock. Nothing is written when the database is
// locked past that, when its `threads` table is not one we know (a column we need is missing, or
// one we do not fill has no default), or when this runtime has no SQLite (src/files/sqlite.ts); the
// rollout still resumes by id, and the outcome says why.

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readTextIfExists } from '../../../files/readTextIfExists';
import { openSqlite, SqliteBusyError, type SqlRow, type SqliteDatabase, type SqlValue } from '../../../files/sqlite';

export const CODEX_INDEX_FILE = 'state_5.sqlite';
/** How long a write waits for Codex's lock. node:sqlite waits synchronously: kept short so the
 *  extension host is never held long. Codex's own writes last milliseconds. */
export const INDEX_BUSY_TIMEOUT_MS = 1500;
/** Codex's default model provider (config.toml without `model_provider`). */
export const CODEX_DEFAULT_PROVIDER = 'openai';
/** What Codex 0.171 records for a rollout with no turn_context (seen when it indexed one). */
const DEFAULT_SANDBOX_POLICY =
  '{"type":"managed","file_system":{"type":"restricted","entries":[{"path":{"type":"special","value":{"kind":"root"}},"access":"read"}]},"network":"restricted"}';
const DEFAULT_APPROVAL_MODE = 'on-request';

export interface CodexThreadRow {
  id: string;
  rolloutPath: string;
  createdAtMs: number;
  updatedAtMs: number;
  source: string;
  modelProvider: string;
  cwd: string;
  /** The first user_message, as Codex derives the title from it. */
  title: string;
  cliVersion: string;
  originator: string;
  threadSource: string;
  model?: string;
  sandboxPolicy: string;
  approvalMode: string;
}

export type CodexIndexOutcome =
  | { status: 'added'; engine: SqliteDatabase['engine']; latestInFolder: boolean }
  /** This Codex keeps no index (it finds rollouts by scanning the sessions folder). */
  | { status: 'no-index' }
  | { status: 'not-added'; reason: string };

export interface IndexAccess {
  env: Record<string, string | undefined>;
  busyTimeoutMs?: number;
  /** Tests: the sqlite3 shell even where node:sqlite exists. */
  noBuiltin?: boolean;
}

/** Columns without which a row cannot be what Codex lists. */
const REQUIRED = ['id', 'rollout_path', 'created_at', 'updated_at', 'source', 'model_provider', 'cwd', 'title', 'sandbox_policy', 'approval_mode'];

function rowValues(r: CodexThreadRow): Record<string, SqlValue> {
  const title = r.title.trim();
  return {
    id: r.id,
    rollout_path: r.rolloutPath,
    created_at: Math.floor(r.createdAtMs / 1000),
    updated_at: Math.floor(r.updatedAtMs / 1000),
    created_at_ms: Math.floor(r.createdAtMs),
    updated_at_ms: Math.floor(r.updatedAtMs),
    source: r.source,
    model_provider: r.modelProvider,
    cwd: r.cwd,
    title,
    first_user_message: title,
    preview: title,
    sandbox_policy: r.sandboxPolicy,
    approval_mode: r.approvalMode,
    tokens_used: 0,
    has_user_event: 0,
    archived: 0,
    cli_version: r.cliVersion,
    originator: r.originator,
    thread_source: r.threadSource,
    history_mode: 'legacy',
    memory_mode: 'enabled',
    model: r.model ?? null,
  };
}

interface Column {
  name: string;
  notnull: number;
  dflt_value: SqlValue;
  pk: number;
}

/** The database, or why it is not there to write: absent (no index), another generation (state_N), … */
async function open(codexHome: string, access: IndexAccess): Promise<{ db: SqliteDatabase } | { outcome: CodexIndexOutcome }> {
  const file = join(codexHome, CODEX_INDEX_FILE);
  const opened = await openSqlite(file, {
    env: access.env,
    busyTimeoutMs: access.busyTimeoutMs ?? INDEX_BUSY_TIMEOUT_MS,
    ...(access.noBuiltin ? { noBuiltin: true } : {}),
  });
  if ('db' in opened) return opened;
  const names = await readdir(codexHome).catch(() => [] as string[]);
  const other = names.find((n) => /^state_\d+\.sqlite$/.test(n) && n !== CODEX_INDEX_FILE);
  if (other) return { outcome: { status: 'not-added', reason: `Codex's index is ${other}, a format this version does not know` } };
  if (!names.includes(CODEX_INDEX_FILE)) return { outcome: { status: 'no-index' } };
  return { outcome: { status: 'not-added', reason: `Codex's index cannot be opened: ${opened.unavailable}` } };
}

/** Why a `threads` table is not one we write to, or undefined when it is. */
export function schemaProblem(columns: readonly Column[], writing: readonly string[]): string | undefined {
  if (columns.length === 0) return 'it has no threads table';
  const have = new Set(columns.map((c) => c.name));
  const missing = REQUIRED.filter((c) => !have.has(c));
  if (missing.length > 0) return `its threads table lacks ${missing.join(', ')}`;
  const unfilled = columns.filter((c) => c.notnull && c.dflt_value === null && c.pk === 0 && !writing.includes(c.name)).map((c) => c.name);
  if (unfilled.length > 0) return `its threads table needs values this version does not know (${unfilled.join(', ')})`;
  return undefined;
}

/** Adds our row to Codex's index; never changes another row. */
export async function addToCodexIndex(codexHome: string, row: CodexThreadRow, access: IndexAccess): Promise<CodexIndexOutcome> {
  const opened = await open(codexHome, access);
  if ('outcome' in opened) return opened.outcome;
  const { db } = opened;
  try {
    const columns = (await db.all({ sql: 'PRAGMA table_info(threads)' })) as unknown as Column[];
    const values = rowValues(row);
    const writing = Object.keys(values).filter((k) => columns.some((c) => c.name === k));
    const problem = schemaProblem(columns, writing);
    if (problem) return { status: 'not-added', reason: `Codex's index is not one this version knows: ${problem}` };
    const [changes] = await db.write([
      {
        sql: `INSERT INTO threads (${writing.join(', ')}) VALUES (${writing.map(() => '?').join(', ')}) ON CONFLICT(id) DO NOTHING`,
        params: writing.map((k) => values[k]!),
      },
    ]);
    if (changes !== 1) return { status: 'not-added', reason: `Codex's index already has a thread ${row.id}` };
    const order = columns.some((c) => c.name === 'updated_at_ms') ? 'updated_at_ms' : 'updated_at';
    const newest = await db.all({
      sql: `SELECT id FROM threads WHERE archived = 0 AND cwd = ? AND model_provider = ? ORDER BY ${order} DESC, id DESC LIMIT 1`,
      params: [row.cwd, row.modelProvider],
    });
    return { status: 'added', engine: db.engine, latestInFolder: newest[0]?.['id'] === row.id };
  } catch (e) {
    if (e instanceof SqliteBusyError) return { status: 'not-added', reason: `Codex's index stayed locked (Codex is writing it): ${e.message}` };
    return { status: 'not-added', reason: `Codex's index could not be written: ${(e as Error).message}` };
  } finally {
    db.close();
  }
}

/** Our row as the index holds it, or undefined (no index, no row, no SQLite). */
export async function codexIndexRow(codexHome: string, id: string, access: IndexAccess): Promise<SqlRow | undefined> {
  const opened = await open(codexHome, access);
  if ('outcome' in opened) return undefined;
  try {
    return (await opened.db.all({ sql: 'SELECT * FROM threads WHERE id = ?', params: [id] }))[0];
  } catch {
    return undefined;
  } finally {
    opened.db.close();
  }
}

/** Removes the row we added (only if it still points at our rollout); whether one was removed. */
export async function removeFromCodexIndex(codexHome: string, id: string, rolloutPath: string, access: IndexAccess): Promise<boolean> {
  const opened = await open(codexHome, access);
  if ('outcome' in opened) return false;
  try {
    const [changes] = await opened.db.write([{ sql: 'DELETE FROM threads WHERE id = ? AND rollout_path = ?', params: [id, rolloutPath] }]);
    return changes === 1;
  } catch {
    return false;
  } finally {
    opened.db.close();
  }
}

/** What the rollout cannot say about a thread, from the index: the original thread's values when
 *  it is there, else the newest thread's, else Codex's defaults. */
export async function threadSettings(
  codexHome: string,
  originalId: string | undefined,
  access: IndexAccess,
): Promise<{ sandboxPolicy: string; approvalMode: string; modelProvider?: string; model?: string }> {
  const defaults = { sandboxPolicy: DEFAULT_SANDBOX_POLICY, approvalMode: DEFAULT_APPROVAL_MODE };
  const opened = await open(codexHome, access);
  if ('outcome' in opened) return defaults;
  try {
    const cols = 'sandbox_policy, approval_mode, model_provider, model';
    const own = originalId ? (await opened.db.all({ sql: `SELECT ${cols} FROM threads WHERE id = ?`, params: [originalId] }))[0] : undefined;
    const r = own ?? (await opened.db.all({ sql: `SELECT ${cols} FROM threads ORDER BY updated_at DESC LIMIT 1` }))[0];
    if (!r) return defaults;
    const text = (k: string) => (typeof r[k] === 'string' && r[k] !== '' ? (r[k] as string) : undefined);
    return {
      sandboxPolicy: text('sandbox_policy') ?? defaults.sandboxPolicy,
      approvalMode: text('approval_mode') ?? defaults.approvalMode,
      ...(own && text('model_provider') ? { modelProvider: text('model_provider')! } : {}),
      ...(own && text('model') ? { model: text('model')! } : {}),
    };
  } catch {
    return defaults;
  } finally {
    opened.db.close();
  }
}

/** The model provider Codex uses when the config names none in particular: config.toml's top-level
 *  `model_provider` (before its first table), else Codex's default. */
export async function configuredProvider(codexHome: string): Promise<string> {
  const text = await readTextIfExists(join(codexHome, 'config.toml')).catch(() => undefined);
  for (const line of (text ?? '').split(/\r?\n/)) {
    if (/^\s*\[/.test(line)) break;
    const m = /^\s*model_provider\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(line);
    if (m) return (m[1] ?? m[2] ?? '').trim() || CODEX_DEFAULT_PROVIDER;
  }
  return CODEX_DEFAULT_PROVIDER;
}
