// A SQLite database that another program owns (an agent's index of its sessions), opened for a
// short read or one small write. Through Node's own SQLite (`node:sqlite`: Node 22.13 and later
// unflagged, so also the VS Code extension host on an Electron with Node 22 or later), else the
// `sqlite3` command-line shell when it is on the PATH (macOS ships one, Linux distributions package
// it), else not at all — the caller says so and carries on without the database.
//
// Both are the real SQLite library, so they take and respect SQLite's file locks (and a WAL
// database's shared memory) exactly as the owner does: a write is one IMMEDIATE transaction that
// waits at most `busyTimeoutMs` for the owner's lock and otherwise gives up with nothing written.
// No npm dependency: a native module built for the CLI's Node does not load in Electron, and the
// WebAssembly builds (sql.js, node-sqlite3-wasm) have no file locking — they would write a live
// database behind its owner's back.

import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';

export type SqlValue = string | number | null;
export type SqlRow = Record<string, SqlValue>;

export interface SqlStatement {
  /** One statement; `?` marks each parameter (the SQL itself holds no other `?`). */
  sql: string;
  params?: readonly SqlValue[];
}

export interface SqliteDatabase {
  readonly engine: 'node:sqlite' | 'sqlite3 shell';
  /** The rows of one statement that reads. */
  all(st: SqlStatement): Promise<SqlRow[]>;
  /** The statements in one IMMEDIATE transaction, all or nothing: the rows each changed (rows
   *  that triggers changed not included). */
  write(sts: readonly SqlStatement[]): Promise<number[]>;
  close(): void;
}

/** The owner held its lock longer than we wait: nothing was read or written. */
export class SqliteBusyError extends Error {
  override readonly name = 'SqliteBusyError';
}

export interface SqliteOpenOptions {
  /** Where `sqlite3` is looked for (PATH). */
  env: Record<string, string | undefined>;
  busyTimeoutMs: number;
  /** Leave node:sqlite aside (tests of the shell path on a Node that has it). */
  noBuiltin?: boolean;
}

export type SqliteOpened = { db: SqliteDatabase } | { unavailable: string };

/** The minimum of node:sqlite this uses (its types are not in @types/node 20). */
interface NodeSqliteModule {
  DatabaseSync: new (path: string) => {
    exec(sql: string): void;
    prepare(sql: string): { all(...p: SqlValue[]): SqlRow[]; run(...p: SqlValue[]): { changes: number | bigint } };
    close(): void;
  };
}

/** An existing database file (never created here), or why it cannot be opened. */
export async function openSqlite(file: string, opts: SqliteOpenOptions): Promise<SqliteOpened> {
  if (!(await stat(file).catch(() => undefined))?.isFile()) return { unavailable: `${file} is not there` };
  const builtin = opts.noBuiltin ? undefined : nodeSqlite();
  if (builtin) return { db: builtinDatabase(builtin, file, opts.busyTimeoutMs) };
  const shell = await shellVersion(opts.env);
  if (typeof shell === 'string') return { unavailable: `this Node (${process.version}) has no node:sqlite (Node 22.13 or later) and ${shell}` };
  return { db: shellDatabase(file, opts) };
}

/** node:sqlite when this runtime has it; loaded without its one-time "experimental" warning on stderr. */
function nodeSqlite(): NodeSqliteModule | undefined {
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof get !== 'function') return undefined;
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite/i.test(text)) return;
    (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    const mod = get.call(process, 'node:sqlite') as NodeSqliteModule | undefined;
    return mod && typeof mod.DatabaseSync === 'function' ? mod : undefined;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emit;
  }
}

function isBusy(e: unknown): boolean {
  return /database is locked|SQLITE_BUSY|database table is locked/i.test(String((e as Error)?.message ?? e));
}

function builtinDatabase(mod: NodeSqliteModule, file: string, busyTimeoutMs: number): SqliteDatabase {
  const db = new mod.DatabaseSync(file);
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  const busy = <T>(f: () => T): T => {
    try {
      return f();
    } catch (e) {
      if (isBusy(e)) throw new SqliteBusyError(String((e as Error).message));
      throw e;
    }
  };
  return {
    engine: 'node:sqlite',
    all: async (st) => busy(() => db.prepare(st.sql).all(...(st.params ?? []))),
    write: async (sts) =>
      busy(() => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const changes = sts.map((st) => Number(db.prepare(st.sql).run(...(st.params ?? [])).changes));
          db.exec('COMMIT');
          return changes;
        } catch (e) {
          db.exec('ROLLBACK');
          throw e;
        }
      }),
    close: () => db.close(),
  };
}

/** The shell's version when it is usable (3.33 and later print JSON), else why not. */
async function shellVersion(env: SqliteOpenOptions['env']): Promise<string | { version: string }> {
  const r = await runShell(['-version'], '', env, 10_000);
  if (r.missing) return 'there is no sqlite3 on the PATH';
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(r.stdout.trim());
  if (r.code !== 0 || !m) return `sqlite3 -version failed (${(r.stderr || r.stdout).trim().slice(0, 120)})`;
  const [maj, min] = [Number(m[1]), Number(m[2])];
  if (maj < 3 || (maj === 3 && min < 33)) return `the sqlite3 on the PATH is ${m[0]}, older than 3.33`;
  return { version: m[0] };
}

function shellDatabase(file: string, opts: SqliteOpenOptions): SqliteDatabase {
  // A run that waits on the owner's lock ends by itself after busyTimeoutMs; this is only the
  // backstop against a shell that hangs.
  const limit = opts.busyTimeoutMs + 20_000;
  const exec = async (script: string): Promise<SqlRow[][]> => {
    const r = await runShell(['-bail', '-json', '-cmd', `.timeout ${Math.max(0, Math.floor(opts.busyTimeoutMs))}`, file], script, opts.env, limit);
    if (r.code !== 0) {
      const why = (r.stderr || r.stdout || `exit ${r.code}`).trim();
      if (isBusy(why)) throw new SqliteBusyError(why);
      throw new Error(`sqlite3: ${why.slice(0, 300)}`);
    }
    return jsonValues(r.stdout) as SqlRow[][];
  };
  return {
    engine: 'sqlite3 shell',
    all: async (st) => (await exec(`${bind(st)};\n`))[0] ?? [],
    write: async (sts) => {
      const body = sts.map((st) => `${bind(st)};\nSELECT changes() AS changes;\n`).join('');
      const sets = await exec(`BEGIN IMMEDIATE;\n${body}COMMIT;\n`);
      return sts.map((_, i) => Number(sets[i]?.[0]?.['changes'] ?? 0));
    },
    close: () => undefined,
  };
}

/** The statement with its parameters written in: text as a hex blob cast to TEXT (no quoting to
 *  get wrong, any character), integers as they are. */
export function bind(st: SqlStatement): string {
  const params = st.params ?? [];
  let k = 0;
  const sql = st.sql.replace(/\?/g, () => {
    if (k >= params.length) throw new Error(`more ? than parameters in: ${st.sql}`);
    const v = params[k++]!;
    if (v === null) return 'NULL';
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) throw new Error(`only integers are bound here, got ${v}`);
      return String(v);
    }
    return `CAST(X'${Buffer.from(v, 'utf8').toString('hex')}' AS TEXT)`;
  });
  if (k !== params.length) throw new Error(`${params.length} parameters for ${k} ? in: ${st.sql}`);
  return sql;
}

/** The JSON values the shell printed one after another (one array per statement that returned rows). */
function jsonValues(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      if (depth++ === 0) start = i;
    } else if ((c === ']' || c === '}') && --depth === 0) out.push(JSON.parse(text.slice(start, i + 1)));
  }
  return out;
}

interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
  missing?: boolean;
}

function runShell(args: string[], input: string, env: SqliteOpenOptions['env'], timeoutMs: number): Promise<ShellRun> {
  return new Promise((resolve) => {
    let child;
    try {
      const childEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
      child = spawn('sqlite3', args, { env: { ...childEnv, PATH: env['PATH'] ?? '', LANG: 'C.UTF-8' }, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch {
      resolve({ code: null, stdout: '', stderr: '', missing: true });
      return;
    }
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: String(e.message), missing: e.code === 'ENOENT' });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
