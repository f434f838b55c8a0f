// A SQLite database file as it stands now, its write-ahead log included, read without SQLite and
// without taking any lock: the file is opened for reading only, the log's shared-memory index is
// never opened, nothing is ever written. An agent that keeps its sessions in SQLite (opencode) is
// never blocked by us and never finds its database changed by us — even a read-only connection of
// the real SQLite library checkpoints the log into the database when it is the last to close.
//
// The log is read as SQLite's own recovery reads it: frames whose salts match the log's header and
// whose running checksum holds, up to the last frame that commits a transaction; a page found there
// replaces the database file's. A page is read when it is needed (positioned reads), so a large
// database costs what is looked at.
//
// Without locks the owner may checkpoint or restart its log while we read. Both show: a checkpoint
// writes the database file (its size or modification time changes), a restart rewrites the log's
// header (new salts). `unchanged()` says whether the snapshot still stands; sqliteReader.ts reads
// again when it does not.

import type { Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';

/** The file does not hold what SQLite writes: named with the file, the place, and what was expected. */
export class SqliteFormatError extends Error {
  override name = 'SqliteFormatError';
  constructor(
    readonly file: string,
    readonly where: string,
    readonly expected: string,
    readonly found: string,
  ) {
    super(`${file}: ${where}: expected ${expected}, found ${found}`);
  }
}

const MAGIC = 'SQLite format 3\u0000';
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
/** Pages kept in memory per snapshot (interior pages are read again and again; leaves seldom). */
const PAGE_CACHE = 2048;

export interface SqliteHeader {
  pageSize: number;
  /** Bytes of a page the b-tree uses (the page less its reserved tail). */
  usableSize: number;
  /** 1 UTF-8, 2 UTF-16le, 3 UTF-16be. */
  textEncoding: number;
}

interface WalScan {
  /** Page number → offset of the frame that holds its newest committed image. */
  pages: Map<number, number>;
  /** Database size in pages after the last commit, when the log has one. */
  dbPages?: number;
  /** Where the committed frames end. */
  end: number;
}

export class SqliteSnapshot {
  private readonly cache = new Map<number, Buffer>();

  private constructor(
    readonly file: string,
    private readonly db: FileHandle,
    private readonly dbStat: Stats,
    private readonly wal: FileHandle | undefined,
    /** The log's first bytes as read at the start (a log that holds nothing committed included). */
    private readonly walHeader: Buffer | undefined,
    private readonly walScan: WalScan | undefined,
    readonly header: SqliteHeader,
    /** Pages of the database as of the snapshot. */
    readonly pageCount: number,
  ) {}

  /** The database at `file` now. Throws a SqliteFormatError for a file that is not a SQLite
   *  database, an ENOENT error when there is none. */
  static async open(file: string): Promise<SqliteSnapshot> {
    const db = await open(file, 'r');
    let wal: FileHandle | undefined;
    try {
      const dbStat = await db.stat();
      wal = await open(`${file}-wal`, 'r').catch(() => undefined);
      const head = await readAt(db, 0, Math.min(100, dbStat.size));
      const walHeader = wal ? await readAt(wal, 0, WAL_HEADER_BYTES) : undefined;
      const walScan = wal ? await scanWal(wal, head.length === 100 ? pageSizeOf(file, head) : undefined) : undefined;
      let header: SqliteHeader;
      if (head.length === 100) header = headerOf(file, head);
      else if (walScan?.pages.has(1)) header = headerOf(file, await readAt(wal!, walScan.pages.get(1)! + FRAME_HEADER_BYTES, 100));
      else throw new SqliteFormatError(file, 'byte 0', 'a SQLite database (a 100-byte header)', `${dbStat.size} bytes`);
      const fromHeader = head.length === 100 && head.readUInt32BE(24) === head.readUInt32BE(92) ? head.readUInt32BE(28) : 0;
      const pageCount = walScan?.dbPages ?? (fromHeader || Math.floor(dbStat.size / header.pageSize));
      return new SqliteSnapshot(file, db, dbStat, wal, walHeader, walScan, header, pageCount);
    } catch (e) {
      await db.close();
      await wal?.close();
      throw e;
    }
  }

  /** Page `n` (1-based) as of the snapshot. */
  async page(n: number): Promise<Buffer> {
    const hit = this.cache.get(n);
    if (hit) return hit;
    if (!Number.isInteger(n) || n < 1 || n > this.pageCount)
      throw new SqliteFormatError(this.file, `page ${n}`, `a page number from 1 to ${this.pageCount}`, String(n));
    const size = this.header.pageSize;
    const frame = this.walScan?.pages.get(n);
    const buf = frame !== undefined ? await readAt(this.wal!, frame + FRAME_HEADER_BYTES, size) : await readAt(this.db, (n - 1) * size, size);
    // A page past the end of the database file (a file being extended) reads as zeros: the b-tree
    // reader then finds no valid page there and the read is tried again.
    const page = buf.length === size ? buf : Buffer.concat([buf, Buffer.alloc(size - buf.length)]);
    if (this.cache.size >= PAGE_CACHE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(n, page);
    return page;
  }

  /** Whether what was read still stands: the database file was not written (a checkpoint) and the
   *  log was not restarted or cut back under the frames read. */
  async unchanged(): Promise<boolean> {
    const now = await stat(this.file).catch(() => undefined);
    if (!now || now.size !== this.dbStat.size || now.mtimeMs !== this.dbStat.mtimeMs || now.ino !== this.dbStat.ino) return false;
    const wal = await stat(`${this.file}-wal`).catch(() => undefined);
    if (!this.wal || !this.walHeader) return !wal || wal.size === 0;
    if (!wal || wal.size < (this.walScan?.end ?? 0)) return false;
    const header = await readAt(this.wal, 0, WAL_HEADER_BYTES).catch(() => Buffer.alloc(0));
    return header.equals(this.walHeader);
  }

  async close(): Promise<void> {
    this.cache.clear();
    await this.db.close();
    await this.wal?.close();
  }
}

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await fh.read(buf, got, length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got === length ? buf : buf.subarray(0, got);
}

function pageSizeOf(file: string, head: Buffer): number {
  if (head.toString('latin1', 0, 16) !== MAGIC)
    throw new SqliteFormatError(file, 'byte 0', `the header "SQLite format 3"`, JSON.stringify(head.toString('latin1', 0, 16)));
  const raw = head.readUInt16BE(16);
  const size = raw === 1 ? 65536 : raw;
  if (size < 512 || size > 65536 || (size & (size - 1)) !== 0)
    throw new SqliteFormatError(file, 'byte 16', 'a page size, a power of two from 512 to 65536', String(raw));
  return size;
}

function headerOf(file: string, head: Buffer): SqliteHeader {
  const pageSize = pageSizeOf(file, head);
  const reserved = head.readUInt8(20);
  const textEncoding = head.readUInt32BE(56) || 1;
  if (textEncoding < 1 || textEncoding > 3) throw new SqliteFormatError(file, 'byte 56', 'a text encoding of 1, 2 or 3', String(textEncoding));
  return { pageSize, usableSize: pageSize - reserved, textEncoding };
}

/** SQLite's log checksum over `data` (a multiple of 8 bytes), continued from `s`. */
function walChecksum(data: Buffer, bigEndian: boolean, s: [number, number]): [number, number] {
  let [s1, s2] = s;
  for (let i = 0; i + 8 <= data.length; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s1 = (s1 + x0 + s2) >>> 0;
    s2 = (s2 + x1 + s1) >>> 0;
  }
  return [s1, s2];
}

/** The committed frames of a log, as SQLite's recovery finds them. A log that is empty, of another
 *  page size than the database, or whose header does not check out holds nothing committed. */
async function scanWal(wal: FileHandle, dbPageSize: number | undefined): Promise<WalScan | undefined> {
  const header = await readAt(wal, 0, WAL_HEADER_BYTES);
  if (header.length < WAL_HEADER_BYTES) return undefined;
  const magic = header.readUInt32BE(0);
  if ((magic & 0xfffffffe) !== 0x377f0682) return undefined;
  const bigEndian = (magic & 1) === 1;
  const pageSize = header.readUInt32BE(8);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return undefined;
  if (dbPageSize !== undefined && pageSize !== dbPageSize) return undefined;
  let sum = walChecksum(header.subarray(0, 24), bigEndian, [0, 0]);
  if (sum[0] !== header.readUInt32BE(24) || sum[1] !== header.readUInt32BE(28)) return undefined;
  const salt1 = header.readUInt32BE(16);
  const salt2 = header.readUInt32BE(20);
  const { size } = await wal.stat();
  const frameBytes = FRAME_HEADER_BYTES + pageSize;
  const committed = new Map<number, number>();
  const pending = new Map<number, number>();
  let dbPages: number | undefined;
  let end = WAL_HEADER_BYTES;
  // Frames are read in chunks: a log holds up to about a thousand pages between checkpoints.
  const perChunk = Math.max(1, Math.floor((1 << 20) / frameBytes));
  for (let at = WAL_HEADER_BYTES; at + frameBytes <= size;) {
    const chunk = await readAt(wal, at, Math.min(perChunk, Math.floor((size - at) / frameBytes)) * frameBytes);
    let k = 0;
    for (; k + frameBytes <= chunk.length; k += frameBytes) {
      const frame = chunk.subarray(k, k + frameBytes);
      if (frame.readUInt32BE(8) !== salt1 || frame.readUInt32BE(12) !== salt2) return result();
      sum = walChecksum(frame.subarray(0, 8), bigEndian, sum);
      sum = walChecksum(frame.subarray(FRAME_HEADER_BYTES), bigEndian, sum);
      if (sum[0] !== frame.readUInt32BE(16) || sum[1] !== frame.readUInt32BE(20)) return result();
      const pgno = frame.readUInt32BE(0);
      if (pgno === 0) return result();
      pending.set(pgno, at + k);
      const commit = frame.readUInt32BE(4);
      if (commit > 0) {
        for (const [p, o] of pending) committed.set(p, o);
        pending.clear();
        dbPages = commit;
        end = at + k + frameBytes;
      }
    }
    if (k === 0) break;
    at += k;
  }
  return result();

  function result(): WalScan {
    return { pages: committed, ...(dbPages !== undefined ? { dbPages } : {}), end };
  }
}
