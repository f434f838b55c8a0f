// The lock-free SQLite reader (src/files/sqlite) against the real SQLite library: databases made by
// the `sqlite3` shell (small pages, so rows overflow and trees have several levels; every integer
// width, floats, blobs, NULLs, a column added by ALTER TABLE, text and INTEGER PRIMARY KEY tables,
// indexes) read the same through our reader as through SQLite; a database in WAL mode copied while
// SQLite still had it open is read with the log's committed frames, and without a frame that is
// torn, of a restarted log, or not committed. Reading writes nothing (no -shm is made, no byte or
// time of the files changes). A file that changes during a read is read again.

import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSqlite, SqliteFormatError, type SqlRow } from '../../src/files/sqlite/sqliteReader';

const root = mkdtempSync(join(tmpdir(), 'ctxc-sqlite-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const hasSqlite3 = spawnSync('sqlite3', ['-version'], { encoding: 'utf8' }).status === 0;

function sqlite(db: string, script: string, ...flags: string[]): string {
  const r = spawnSync('sqlite3', [...flags, db], { input: script, encoding: 'utf8', cwd: root });
  if (r.status !== 0) throw new Error(`sqlite3 failed: ${r.stderr}`);
  return r.stdout;
}

/** Rows as SQLite gives them with -json (blobs asked for as hex). */
function sqliteRows(db: string, sql: string): SqlRow[] {
  const out = sqlite(db, `${sql};\n`, '-json', '-readonly');
  return out.trim() === '' ? [] : (JSON.parse(out) as SqlRow[]);
}

const hex = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex').toUpperCase() : v);

/** A text of `n` characters that is not one repeated byte (so a misplaced overflow page shows). */
function textOf(seed: number, n: number): string {
  let s = '';
  for (let i = 0; s.length < n; i++) s += `${seed}:${i}·é${String.fromCharCode(97 + ((seed + i) % 26))} `;
  return s.slice(0, n);
}

function fileState(path: string): { bytes: Buffer; mtimeMs: number } | undefined {
  return existsSync(path) ? { bytes: readFileSync(path), mtimeMs: statSync(path).mtimeMs } : undefined;
}

describe.skipIf(!hasSqlite3)('the SQLite reader against SQLite', () => {
  const db = join(root, 'formats.db');
  const ints = [0, 1, -1, 127, -128, 128, 32767, -32768, 8388607, -8388608, 2147483647, -2147483648, 140737488355327, -140737488355328, 9007199254740991];
  const inserts: string[] = [];
  for (let i = 0; i < 120; i++) {
    const n = [0, 5, 100, 400, 480, 900, 2000, 5000][i % 8]!;
    const int = ints[i % ints.length]!;
    const blob = i % 5 === 0 ? 'NULL' : `X'${Buffer.from(textOf(i, (i * 37) % 700)).toString('hex')}'`;
    inserts.push(`INSERT INTO t VALUES (${i * 3 + 1}, '${textOf(i, n).replace(/'/g, "''")}', ${blob}, ${i % 4 === 0 ? 'NULL' : i * 1.25 - 7}, ${int});`);
  }
  const later: string[] = [];
  for (let i = 120; i < 160; i++) later.push(`INSERT INTO t VALUES (${i * 3 + 1}, 'later ${i}', NULL, ${i / 3}, ${i}, 'added ${i}');`);
  const session = (k: number) => `ses_${String(k % 7).padStart(3, '0')}`;
  const messages: string[] = [];
  for (let i = 0; i < 300; i++)
    messages.push(`INSERT INTO message VALUES ('msg_${String(1000 + i)}', '${session(i)}', ${1700000000000 + i * 13}, '${textOf(i, (i * 91) % 3000)}');`);

  it('reads every value of every row as SQLite does, through overflow pages and interior pages', async () => {
    sqlite(
      db,
      [
        'PRAGMA page_size=512;',
        'CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b BLOB, c REAL, d INT);',
        ...inserts,
        'ALTER TABLE t ADD COLUMN e TEXT;',
        ...later,
        'CREATE INDEX t_a ON t (a);',
        'CREATE TABLE `message` (`id` text PRIMARY KEY, `session_id` text NOT NULL, `time_created` integer NOT NULL, `data` text NOT NULL);',
        'CREATE INDEX `message_session_time_idx` ON `message` (`session_id`,`time_created`,`id`);',
        ...messages,
        'CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;',
        "INSERT INTO kv VALUES ('a', 'b');",
      ].join('\n'),
    );
    const expected = sqliteRows(db, 'SELECT id, a, hex(b) AS b, c, d, e FROM t ORDER BY id');
    const got = await readSqlite(db, (r) => r.rows('t', ['id', 'a', 'b', 'c', 'd', 'e']));
    expect(got.map((row) => ({ ...row, b: row['b'] === null ? '' : hex(row['b']) }))).toEqual(expected);
    expect(expected.length).toBe(160);

    for (const s of [session(0), session(3), session(6), 'ses_none']) {
      const want = sqliteRows(db, `SELECT id, session_id, time_created, data FROM message WHERE session_id = '${s}' ORDER BY session_id, time_created, id`);
      const byIndex = await readSqlite(db, (r) => r.rowsWhere('message', 'session_id', s, ['id', 'session_id', 'time_created', 'data']));
      expect(byIndex).toEqual(want);
    }
    // A table without an index on the column is scanned.
    const scanned = await readSqlite(db, (r) => r.rowsWhere('t', 'e', 'added 150', ['id', 'e']));
    expect(scanned).toEqual([{ id: 451, e: 'added 150' }]);
    await expect(readSqlite(db, (r) => r.rows('kv', ['k']))).rejects.toThrow(/WITHOUT ROWID/);
    await expect(readSqlite(db, (r) => r.rows('nope', ['k']))).rejects.toThrow(/a table 'nope'/);
  });

  it("sees a WAL database's committed frames, and nothing torn, stale or uncommitted", async () => {
    const live = join(root, 'live.db');
    const copy = join(root, 'copy.db');
    // The copy is taken while SQLite still holds the database open: the rows are in the log only.
    sqlite(
      live,
      [
        'PRAGMA page_size=1024;',
        'PRAGMA journal_mode=WAL;',
        'PRAGMA wal_autocheckpoint=0;',
        'CREATE TABLE m (id TEXT PRIMARY KEY, body TEXT);',
        "INSERT INTO m VALUES ('first', 'in the log');",
        ...Array.from({ length: 30 }, (_, i) => `INSERT INTO m VALUES ('row-${String(i).padStart(2, '0')}', '${textOf(i, 1500)}');`),
        `.shell cp ${live} ${copy} && cp ${live}-wal ${copy}-wal`,
      ].join('\n'),
    );
    expect(statSync(`${copy}-wal`).size).toBeGreaterThan(30 * 1024);
    const before = [copy, `${copy}-wal`].map(fileState);
    const rows = await readSqlite(copy, (r) => r.rows('m', ['id']));
    expect(rows.map((r) => r['id'])).toEqual(['first', ...Array.from({ length: 30 }, (_, i) => `row-${String(i).padStart(2, '0')}`)]);
    // Nothing was written: no shared-memory file, the same bytes and times.
    expect(existsSync(`${copy}-shm`)).toBe(false);
    expect([copy, `${copy}-wal`].map(fileState)).toEqual(before);
    // SQLite itself agrees on the copy (its read checkpoints and removes the log, so it reads a copy).
    const again = join(root, 'again.db');
    copyFileSync(copy, again);
    copyFileSync(`${copy}-wal`, `${again}-wal`);
    expect(sqliteRows(again, 'SELECT id FROM m ORDER BY rowid').map((r) => r['id'])).toEqual(rows.map((r) => r['id']));

    // A torn last frame (the log cut inside it): the transaction it ends is not seen.
    const walBytes = readFileSync(`${copy}-wal`);
    const torn = join(root, 'torn.db');
    copyFileSync(copy, torn);
    writeFileSync(`${torn}-wal`, walBytes.subarray(0, walBytes.length - 100));
    const tornRows = await readSqlite(torn, (r) => r.rows('m', ['id']));
    expect(tornRows.length).toBe(30);
    // A checksum that does not hold in the last frame: the same.
    const bad = join(root, 'bad.db');
    copyFileSync(copy, bad);
    const flipped = Buffer.from(walBytes);
    flipped[flipped.length - 10]! ^= 0xff;
    writeFileSync(`${bad}-wal`, flipped);
    expect((await readSqlite(bad, (r) => r.rows('m', ['id']))).length).toBe(30);
    // Frames of an older log (salts other than the header's) after the header: none of them
    // counts, and the database file alone (here: empty of tables) is what is read.
    const stale = join(root, 'stale.db');
    copyFileSync(copy, stale);
    const salted = Buffer.from(walBytes);
    salted.writeUInt32BE((salted.readUInt32BE(32 + 8) + 1) >>> 0, 32 + 8);
    writeFileSync(`${stale}-wal`, salted);
    expect(await readSqlite(stale, async (r) => r.hasTable('m'))).toBe(false);
    // A log whose header does not check out holds nothing either; the table it would have made is
    // missing, and that is said (the file did not change, so it is not read again and again).
    const broken = join(root, 'broken.db');
    copyFileSync(copy, broken);
    const header = Buffer.from(walBytes);
    header[20]! ^= 0xff;
    writeFileSync(`${broken}-wal`, header);
    await expect(readSqlite(broken, (r) => r.rows('m', ['id']))).rejects.toThrow(/expected a table 'm', found none/);
  });
});

describe('the SQLite reader on files that are not what it expects', () => {
  it('names the file and what it found', async () => {
    const notDb = join(root, 'not.db');
    writeFileSync(notDb, 'hello, this is text and not a database at all; '.repeat(10));
    const err = await readSqlite(notDb, (r) => r.rows('x', [])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqliteFormatError);
    expect(String(err)).toContain(notDb);
    expect(String(err)).toMatch(/expected the header "SQLite format 3"/);
    await expect(readSqlite(join(root, 'missing.db'), (r) => r.rows('x', []))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.skipIf(!hasSqlite3)('reads again when the file changes during a read, and gives up after a few tries', async () => {
    const file = join(root, 'changing.db');
    sqlite(file, "CREATE TABLE a (x TEXT); INSERT INTO a VALUES ('one');");
    let reads = 0;
    const rows = await readSqlite(file, async (r) => {
      reads++;
      // The owner checkpoints during the first read: the database file's time changes.
      if (reads === 1) utimesSync(file, new Date(), new Date(Date.now() + 5000));
      return r.rows('a', ['x']);
    });
    expect(rows).toEqual([{ x: 'one' }]);
    expect(reads).toBe(2);
    let always = 0;
    const err = await readSqlite(
      file,
      async (r) => {
        appendFileSync(file, Buffer.alloc(0));
        utimesSync(file, new Date(), new Date(Date.now() + 10_000 + ++always * 1000));
        return r.rows('a', ['x']);
      },
      { attempts: 3 },
    ).catch((e: unknown) => e);
    expect(String(err)).toMatch(/changed during each of 3 reads/);
  });
});
