// Reading another program's SQLite database while it runs, and never disturbing it: rows of a
// table, whole or by an indexed column, from one consistent snapshot (sqliteFile.ts: the file and
// its write-ahead log, no lock, no write). When the owner checkpoints or restarts its log during
// the read, the read is made again on a fresh snapshot, a few times at most; the caller gets the
// rows of one moment or an error saying the file kept changing.
//
// Why not the SQLite library: Node has it only from 22.13 (the CLI runs on Node 20, and so do VS
// Code builds before 1.101), a native module would have to be built per Electron and platform, and
// any real connection takes locks the owner waits on and checkpoints the log when it closes last.

import { setTimeout as sleep } from 'node:timers/promises';
import { compareValues, indexRange, scanTable, tableRow, type SqlValue } from './btree';
import { readSchema, type SqliteSchema, type TableInfo } from './schema';
import { SqliteFormatError, SqliteSnapshot } from './sqliteFile';

export type { SqlValue } from './btree';
export { SqliteFormatError } from './sqliteFile';

export type SqlRow = Record<string, SqlValue>;

/** The file changed under every attempt to read it. */
export class SqliteBusyReadError extends Error {
  override name = 'SqliteBusyReadError';
}

/** What a read can ask of one snapshot. */
export interface SqliteTables {
  readonly file: string;
  hasTable(name: string): boolean;
  /** The columns of `table` that exist (a newer or older schema may lack some). */
  columnsOf(table: string): readonly string[];
  /** Every row of `table` with the named columns (a column the table lacks reads as null);
   *  `keep` filters rows as they are read. */
  rows(table: string, columns: readonly string[], keep?: (row: SqlRow) => boolean): Promise<SqlRow[]>;
  /** The rows whose `column` equals `value`, through an index that starts with that column when
   *  the database has one (else a full scan), in the index's order. */
  rowsWhere(table: string, column: string, value: string, columns: readonly string[]): Promise<SqlRow[]>;
}

export interface SqliteReadOptions {
  /** Snapshots tried before giving up (default 5). */
  attempts?: number;
}

/**
 * `read` run on a snapshot of the database at `file`, again on a fresh one while the owner changed
 * the file under it. A read that meets a page that is not what it should be (a half-made change
 * seen between a checkpoint's writes) is tried again too; one that meets it every time throws.
 */
export async function readSqlite<T>(file: string, read: (db: SqliteTables) => Promise<T>, opts: SqliteReadOptions = {}): Promise<T> {
  const attempts = Math.max(1, opts.attempts ?? 5);
  let lastFormatError: SqliteFormatError | undefined;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await sleep(10 * 2 ** i);
    const snapshot = await SqliteSnapshot.open(file);
    try {
      let value: T;
      try {
        value = await read(new Tables(snapshot, await readSchema(snapshot)));
      } catch (e) {
        if (!(e instanceof SqliteFormatError || e instanceof RangeError)) throw e;
        // Damage seen in a snapshot that changed meanwhile is the change, not damage.
        if (await snapshot.unchanged()) throw e instanceof SqliteFormatError ? e : new SqliteFormatError(file, 'a record', 'a complete record', e.message);
        lastFormatError = e instanceof SqliteFormatError ? e : undefined;
        continue;
      }
      if (await snapshot.unchanged()) return value;
    } finally {
      await snapshot.close();
    }
  }
  throw new SqliteBusyReadError(
    `${file} changed during each of ${attempts} reads (its owner is writing to it)${lastFormatError ? `; last: ${lastFormatError.message}` : ''}`,
  );
}

class Tables implements SqliteTables {
  constructor(
    private readonly db: SqliteSnapshot,
    private readonly schema: SqliteSchema,
  ) {}

  get file(): string {
    return this.db.file;
  }

  hasTable(name: string): boolean {
    return this.schema.tables.has(name);
  }

  columnsOf(table: string): readonly string[] {
    return this.schema.tables.get(table)?.columns ?? [];
  }

  private table(name: string): TableInfo {
    const t = this.schema.tables.get(name);
    if (!t) throw new SqliteFormatError(this.db.file, 'the schema', `a table '${name}'`, 'none');
    if (t.withoutRowid) throw new SqliteFormatError(this.db.file, `table '${name}'`, 'a rowid table', 'a WITHOUT ROWID table (not read here)');
    return t;
  }

  /** Turns a record into a row of the named columns. */
  private shaper(t: TableInfo, columns: readonly string[]): { last: number; shape: (rowid: number, values: readonly SqlValue[]) => SqlRow } {
    const at = columns.map((c) => t.columns.indexOf(c));
    return {
      last: Math.max(-1, ...at),
      shape: (rowid, values) => {
        const row: SqlRow = {};
        columns.forEach((c, i) => {
          const k = at[i]!;
          row[c] = c === t.rowidColumn ? rowid : k < 0 ? null : (values[k] ?? null);
        });
        return row;
      },
    };
  }

  async rows(table: string, columns: readonly string[], keep?: (row: SqlRow) => boolean): Promise<SqlRow[]> {
    const t = this.table(table);
    const { last, shape } = this.shaper(t, columns);
    const out: SqlRow[] = [];
    await scanTable(this.db, t.root, last, ({ rowid, values }) => {
      const row = shape(rowid, values);
      if (!keep || keep(row)) out.push(row);
    });
    return out;
  }

  async rowsWhere(table: string, column: string, value: string, columns: readonly string[]): Promise<SqlRow[]> {
    const t = this.table(table);
    const index = this.schema.indexes.find((i) => i.table === table && i.columns[0] === column);
    if (!index) return this.rows(table, columns, (row) => row[column] === value);
    const { last, shape } = this.shaper(t, columns);
    const keys = await indexRange(this.db, index.root, (key) => compareValues(key[0] ?? null, value));
    const out: SqlRow[] = [];
    for (const key of keys) {
      const rowid = key[key.length - 1];
      if (typeof rowid !== 'number') throw new SqliteFormatError(this.db.file, `index '${index.name}'`, 'entries ending with a rowid', String(rowid));
      const row = await tableRow(this.db, t.root, rowid, last);
      // An index entry without its row is a snapshot caught between two writes: read again.
      if (!row) throw new SqliteFormatError(this.db.file, `table '${table}'`, `the row ${rowid} index '${index.name}' names`, 'none');
      out.push(shape(row.rowid, row.values));
    }
    return out;
  }
}
