// opencode's store: one SQLite database for every folder, `$XDG_DATA_HOME/opencode/opencode.db`
// (default ~/.local/share; OPENCODE_DB names another, relative to that folder; builds of other
// channels write `opencode-<channel>.db` beside it). Tables `session` (directory = the working
// folder, parent_id for a sub-agent's session, metadata JSON), `message` and `part` (their `data`
// JSON, without the ids, which are columns). Recent writes sit in its write-ahead log.
//
// Read with src/files/sqlite: without SQLite, without a lock, without writing anything (not even
// the log's index), so opencode is never blocked and its database never changed by us. A session is
// given on as `opencode export` prints it, and read with the opencode importer. A session is named
// `<database>#<session id>`: that is its `file` in the listing, for `ctxc count|compact|inspect`
// and the MCP tools alike.

import { basename, isAbsolute, join, resolve } from 'node:path';
import { isObject } from '../../../engine/conversation/importers/jsonShape';
import { readSqlite, type SqlRow, type SqliteTables } from '../../../files/sqlite/sqliteReader';
import { entriesOf } from '../../diskReads';
import type { Env } from '../../locations';

/** `$XDG_DATA_HOME/opencode`, default ~/.local/share/opencode (on every platform, as opencode has it). */
export function opencodeDataDir(env: Env, home: string): string {
  return join(env['XDG_DATA_HOME'] || join(home, '.local', 'share'), 'opencode');
}

const DATABASE = /^opencode(?:-[A-Za-z0-9._-]+)?\.db$/;

/** The databases opencode may keep sessions in: OPENCODE_DB's, else every channel's in the data folder. */
export async function opencodeDatabases(env: Env, home: string): Promise<string[]> {
  const dir = opencodeDataDir(env, home);
  const named = env['OPENCODE_DB'];
  if (named) return named === ':memory:' ? [] : [isAbsolute(named) ? named : resolve(dir, named)];
  return (await entriesOf(dir))
    .filter((e) => e.isFile() && DATABASE.test(e.name))
    .map((e) => join(dir, e.name))
    .sort((a, b) => (basename(a) === 'opencode.db' ? -1 : basename(b) === 'opencode.db' ? 1 : a.localeCompare(b)));
}

const SEPARATOR = '#';
const SESSION_ID = /^ses_[A-Za-z0-9]+$/;

/** How a stored session is named: `<database>#<session id>`. */
export function storedSessionPath(db: string, id: string): string {
  return `${db}${SEPARATOR}${id}`;
}

/** The database and the session id a name holds, when it is one. */
export function parseStoredSessionPath(file: string): { db: string; id: string } | undefined {
  const at = file.lastIndexOf(SEPARATOR);
  if (at < 0) return undefined;
  const db = file.slice(0, at);
  const id = file.slice(at + 1);
  return DATABASE.test(db.split(/[\\/]/).pop() ?? '') && SESSION_ID.test(id) ? { db, id } : undefined;
}

/** A session row, as the listing needs it. */
export interface StoredSession {
  id: string;
  directory: string;
  title: string;
  parentId?: string;
  version?: string;
  created: number;
  updated: number;
  archived: boolean;
  metadata?: Record<string, unknown>;
}

const SESSION_COLUMNS = [
  'id',
  'project_id',
  'parent_id',
  'slug',
  'directory',
  'path',
  'title',
  'version',
  'agent',
  'model',
  'metadata',
  'time_created',
  'time_updated',
  'time_archived',
];

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
const int = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined);

function json(v: unknown): unknown {
  if (typeof v !== 'string') return undefined;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

/** Every session of a database (a database without the table has none). */
export async function storedSessions(db: string): Promise<StoredSession[]> {
  return readSqlite(db, async (r) => {
    if (!r.hasTable('session')) return [];
    const rows = await r.rows('session', SESSION_COLUMNS);
    return rows.flatMap((row) => {
      const id = text(row['id']);
      const directory = text(row['directory']);
      if (!id || !directory) return [];
      const metadata = json(row['metadata']);
      return [
        {
          id,
          directory,
          title: text(row['title']) ?? '',
          ...(text(row['parent_id']) ? { parentId: text(row['parent_id'])! } : {}),
          ...(text(row['version']) ? { version: text(row['version'])! } : {}),
          created: int(row['time_created']) ?? 0,
          updated: int(row['time_updated']) ?? int(row['time_created']) ?? 0,
          archived: row['time_archived'] !== null && row['time_archived'] !== undefined,
          ...(isObject(metadata) ? { metadata } : {}),
        },
      ];
    });
  });
}

/** The session's `info`, as `opencode export` gives it. */
function sessionInfo(row: SqlRow): Record<string, unknown> {
  const model = json(row['model']);
  const metadata = json(row['metadata']);
  const info: Record<string, unknown> = {
    id: row['id'],
    slug: row['slug'],
    projectID: row['project_id'],
    directory: row['directory'],
    ...(text(row['path']) ? { path: row['path'] } : {}),
    ...(text(row['parent_id']) ? { parentID: row['parent_id'] } : {}),
    title: row['title'],
    ...(text(row['agent']) ? { agent: row['agent'] } : {}),
    ...(isObject(model) ? { model } : {}),
    version: row['version'],
    ...(isObject(metadata) ? { metadata } : {}),
    time: { created: int(row['time_created']), updated: int(row['time_updated']) },
  };
  return info;
}

/** A stored session too large or not there. */
export class StoredSessionError extends Error {
  override name = 'StoredSessionError';
}

/**
 * The session as `opencode export` prints it ({info, messages: [{info, parts}]}), as text. A row
 * whose data is not JSON is kept as an entry the importer names and skips. Throws a
 * StoredSessionError naming the session when it is not there or holds more than `maxBytes`.
 */
export async function readStoredSession(file: string, maxBytes: number): Promise<string> {
  const named = parseStoredSessionPath(file);
  if (!named) throw new StoredSessionError(`${file}: not an opencode session (expected <database>#ses_…)`);
  return readSqlite(named.db, (r) => exportOf(r, named.id, file, maxBytes));
}

async function exportOf(r: SqliteTables, id: string, file: string, maxBytes: number): Promise<string> {
  const [row] = r.hasTable('session') ? await r.rowsWhere('session', 'id', id, SESSION_COLUMNS) : [];
  if (!row) throw new StoredSessionError(`${file}: no session ${id} in ${r.file}`);
  const messages = await r.rowsWhere('message', 'session_id', id, ['id', 'time_created', 'data']);
  const parts = await r.rowsWhere('part', 'session_id', id, ['id', 'message_id', 'data']);
  let bytes = 0;
  for (const m of [...messages, ...parts]) bytes += typeof m['data'] === 'string' ? m['data'].length : 0;
  if (bytes > maxBytes)
    throw new StoredSessionError(
      `${file}: the session holds ${Math.round(bytes / 1024 / 1024)} MB, more than the ${Math.round(maxBytes / 1024 / 1024)} MB read`,
    );
  const byMessage = new Map<string, Record<string, unknown>[]>();
  const unreadable: Record<string, unknown>[] = [];
  parts.sort((a, b) => String(a['message_id']).localeCompare(String(b['message_id'])) || String(a['id']).localeCompare(String(b['id'])));
  for (const p of parts) {
    const data = json(p['data']);
    const messageID = String(p['message_id']);
    if (!isObject(data)) {
      unreadable.push({ unreadablePart: p['id'], message: messageID });
      continue;
    }
    const list = byMessage.get(messageID) ?? [];
    list.push({ ...data, id: p['id'], sessionID: id, messageID });
    byMessage.set(messageID, list);
  }
  const out = messages.map((m) => {
    const data = json(m['data']);
    if (!isObject(data)) return { unreadableMessage: m['id'] };
    const mid = String(m['id']);
    return { info: { ...data, id: mid, sessionID: id }, parts: byMessage.get(mid) ?? [] };
  });
  return JSON.stringify({ info: sessionInfo(row), messages: [...out, ...unreadable] });
}

/** The model the session's last user message names (the one opencode goes on with). */
export async function lastUserModel(db: string, id: string): Promise<{ providerID: string; modelID: string } | undefined> {
  const rows = await readSqlite(db, (r) => (r.hasTable('message') ? r.rowsWhere('message', 'session_id', id, ['data']) : Promise.resolve([])));
  for (let i = rows.length - 1; i >= 0; i--) {
    const data = json(rows[i]!['data']);
    const model = isObject(data) && data['role'] === 'user' ? data['model'] : undefined;
    if (isObject(model) && typeof model['providerID'] === 'string' && typeof model['modelID'] === 'string')
      return { providerID: model['providerID'], modelID: model['modelID'] };
  }
  return undefined;
}
