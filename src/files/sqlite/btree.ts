// SQLite's b-trees, read: table trees (rows by rowid) and index trees (keys in order), their cells,
// overflow chains and records, as the file format documents them (sqlite.org/fileformat2.html).
// Only what a reader needs: a full scan of a table, a row by its rowid, and the entries of an index
// within a range. Every structure read is checked (page type, cell bounds, depth, chain length), so
// a damaged or changing file ends in a SqliteFormatError, never in a loop or a wrong row.

import { SqliteFormatError, type SqliteSnapshot } from './sqliteFile';

export type SqlValue = null | number | bigint | string | Uint8Array;

const TABLE_INTERIOR = 5;
const TABLE_LEAF = 13;
const INDEX_INTERIOR = 2;
const INDEX_LEAF = 10;
/** Deeper than any real b-tree (a depth of 20 holds more rows than a file can). */
const MAX_DEPTH = 40;

interface Page {
  n: number;
  type: number;
  buf: Buffer;
  /** Offsets of the cells, in key order. */
  cells: number[];
  /** Interior pages: the child after the last cell. */
  right?: number;
}

/** A cell's payload: the bytes on the page, and where the rest continues. */
interface Payload {
  size: number;
  local: Buffer;
  overflow: number;
}

async function pageAt(db: SqliteSnapshot, n: number, expected: readonly number[]): Promise<Page> {
  const buf = await db.page(n);
  const at = n === 1 ? 100 : 0;
  const type = buf[at]!;
  if (!expected.includes(type)) throw new SqliteFormatError(db.file, `page ${n}`, `a b-tree page of type ${expected.join(' or ')}`, `type ${type}`);
  const interior = type === TABLE_INTERIOR || type === INDEX_INTERIOR;
  const count = buf.readUInt16BE(at + 3);
  const pointers = at + (interior ? 12 : 8);
  if (pointers + 2 * count > buf.length) throw new SqliteFormatError(db.file, `page ${n}`, 'a cell count that fits the page', String(count));
  const cells: number[] = [];
  for (let i = 0; i < count; i++) {
    const c = buf.readUInt16BE(pointers + 2 * i);
    if (c < pointers + 2 * count || c >= db.header.usableSize) throw new SqliteFormatError(db.file, `page ${n}`, 'cell offsets inside the page', String(c));
    cells.push(c);
  }
  return { n, type, buf, cells, ...(interior ? { right: buf.readUInt32BE(at + 8) } : {}) };
}

/** A varint at `at`: its value (a 9-byte one as 64 bits, two's complement) and its length. */
export function varint(buf: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const b = buf[at + i];
    if (b === undefined) throw new RangeError('varint past the end');
    v = v * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) return [v, i + 1];
  }
  const last = buf[at + 8];
  if (last === undefined) throw new RangeError('varint past the end');
  const big = BigInt.asIntN(64, (BigInt(v) << 8n) | BigInt(last));
  return [Number(big), 9];
}

/** How much of a payload of `size` bytes stays on the page (the file format's rule). */
function localSize(size: number, usable: number, table: boolean): number {
  const max = table ? usable - 35 : Math.floor(((usable - 12) * 64) / 255) - 23;
  if (size <= max) return size;
  const min = Math.floor(((usable - 12) * 32) / 255) - 23;
  const k = min + ((size - min) % (usable - 4));
  return k <= max ? k : min;
}

function payloadAt(db: SqliteSnapshot, page: Page, at: number, table: boolean): Payload {
  const [size, n] = varint(page.buf, at);
  let p = at + n;
  if (table) p += varint(page.buf, p)[1];
  const local = localSize(size, db.header.usableSize, table);
  if (p + local + (local < size ? 4 : 0) > page.buf.length)
    throw new SqliteFormatError(db.file, `page ${page.n}`, 'a cell inside the page', `${size} bytes at offset ${at}`);
  return { size, local: page.buf.subarray(p, p + local), overflow: local < size ? page.buf.readUInt32BE(p + local) : 0 };
}

/** The first `upTo` bytes of a payload (all by default), following its overflow chain as far as needed. */
async function payloadBytes(db: SqliteSnapshot, p: Payload, upTo = p.size): Promise<Buffer> {
  const want = Math.min(upTo, p.size);
  if (want <= p.local.length) return p.local.subarray(0, want);
  const parts = [p.local];
  let have = p.local.length;
  let next = p.overflow;
  const per = db.header.usableSize - 4;
  for (let hops = 0; have < want; hops++) {
    if (next === 0 || hops > db.pageCount)
      throw new SqliteFormatError(db.file, `page ${next}`, 'an overflow chain as long as its payload', `${have} of ${p.size} bytes`);
    const page = await db.page(next);
    const take = Math.min(per, p.size - have);
    parts.push(page.subarray(4, 4 + take));
    have += take;
    next = page.readUInt32BE(0);
  }
  return Buffer.concat(parts).subarray(0, want);
}

const decoder = new TextDecoder('utf-8');

function serialSize(t: number): number {
  if (t >= 12) return Math.floor((t - 12) / 2);
  return [0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0][t] ?? 0;
}

function valueOf(t: number, b: Buffer, at: number, textEncoding: number): SqlValue {
  switch (t) {
    case 0:
      return null;
    case 1:
      return b.readInt8(at);
    case 2:
      return b.readInt16BE(at);
    case 3:
      return b.readIntBE(at, 3);
    case 4:
      return b.readInt32BE(at);
    case 5:
      return b.readIntBE(at, 6);
    case 6: {
      const v = b.readBigInt64BE(at);
      return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
    }
    case 7:
      return b.readDoubleBE(at);
    case 8:
      return 0;
    case 9:
      return 1;
    default: {
      const len = serialSize(t);
      const bytes = b.subarray(at, at + len);
      if (t % 2 === 0) return new Uint8Array(bytes);
      if (textEncoding === 1) return decoder.decode(bytes);
      const swapped = textEncoding === 3 ? Buffer.from(bytes).swap16() : bytes;
      return swapped.toString('utf16le');
    }
  }
}

/** The record in a payload: its values from the first up to column `last` (all by default); the
 *  overflow chain is followed only as far as those columns reach. */
async function record(db: SqliteSnapshot, p: Payload, last = Number.MAX_SAFE_INTEGER): Promise<SqlValue[]> {
  let head = await payloadBytes(db, p, Math.min(p.size, 64));
  const [headerSize] = varint(head, 0);
  if (headerSize > head.length) head = await payloadBytes(db, p, headerSize);
  const types: number[] = [];
  let end = headerSize;
  for (let at = varint(head, 0)[1]; at < headerSize && types.length <= last;) {
    const [t, n] = varint(head, at);
    types.push(t);
    end += serialSize(t);
    at += n;
  }
  if (end > p.size) throw new SqliteFormatError(db.file, 'a record', `values within its ${p.size} bytes`, `${end} bytes`);
  const bytes = await payloadBytes(db, p, end);
  const out: SqlValue[] = [];
  let at = headerSize;
  for (const t of types) {
    out.push(valueOf(t, bytes, at, db.header.textEncoding));
    at += serialSize(t);
  }
  return out;
}

export interface TableRow {
  rowid: number;
  values: SqlValue[];
}

/** Every row of the table whose tree starts at `root`, in rowid order, each decoded up to column
 *  `last`; `visit` returns false to stop. */
export async function scanTable(db: SqliteSnapshot, root: number, last: number, visit: (row: TableRow) => boolean | void): Promise<void> {
  const walk = async (n: number, depth: number): Promise<boolean> => {
    if (depth > MAX_DEPTH) throw new SqliteFormatError(db.file, `page ${n}`, `a b-tree at most ${MAX_DEPTH} levels deep`, 'a deeper one');
    const page = await pageAt(db, n, [TABLE_INTERIOR, TABLE_LEAF]);
    if (page.type === TABLE_LEAF) {
      for (const c of page.cells) {
        const [, n1] = varint(page.buf, c);
        const [rowid] = varint(page.buf, c + n1);
        if (visit({ rowid, values: await record(db, payloadAt(db, page, c, true), last) }) === false) return false;
      }
      return true;
    }
    for (const c of page.cells) if (!(await walk(page.buf.readUInt32BE(c), depth + 1))) return false;
    return walk(page.right!, depth + 1);
  };
  await walk(root, 0);
}

/** The row with `rowid` of the table at `root`, decoded up to column `last`, if there is one. */
export async function tableRow(db: SqliteSnapshot, root: number, rowid: number, last: number): Promise<TableRow | undefined> {
  let n = root;
  for (let depth = 0; depth <= MAX_DEPTH; depth++) {
    const page = await pageAt(db, n, [TABLE_INTERIOR, TABLE_LEAF]);
    const keyOf = (c: number) => (page.type === TABLE_LEAF ? varint(page.buf, c + varint(page.buf, c)[1])[0] : varint(page.buf, c + 4)[0]);
    // The first cell whose key is at least rowid.
    let lo = 0;
    let hi = page.cells.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keyOf(page.cells[mid]!) < rowid) lo = mid + 1;
      else hi = mid;
    }
    if (page.type === TABLE_LEAF) {
      const c = page.cells[lo];
      if (c === undefined || keyOf(c) !== rowid) return undefined;
      return { rowid, values: await record(db, payloadAt(db, page, c, true), last) };
    }
    n = lo < page.cells.length ? page.buf.readUInt32BE(page.cells[lo]!) : page.right!;
  }
  throw new SqliteFormatError(db.file, `page ${root}`, `a b-tree at most ${MAX_DEPTH} levels deep`, 'a deeper one');
}

/** Where an index key stands against a range: before it (< 0), in it (0), after it (> 0). */
export type KeyRange = (key: readonly SqlValue[]) => number;

/** The keys (the indexed columns, then the rowid) of the index at `root` within `range`, in order.
 *  Subtrees wholly before the range are not read. */
export async function indexRange(db: SqliteSnapshot, root: number, range: KeyRange): Promise<SqlValue[][]> {
  const out: SqlValue[][] = [];
  /** false once a key after the range was seen: nothing later can be in it. */
  const walk = async (n: number, depth: number): Promise<boolean> => {
    if (depth > MAX_DEPTH) throw new SqliteFormatError(db.file, `page ${n}`, `a b-tree at most ${MAX_DEPTH} levels deep`, 'a deeper one');
    const page = await pageAt(db, n, [INDEX_INTERIOR, INDEX_LEAF]);
    const interior = page.type === INDEX_INTERIOR;
    for (const c of page.cells) {
      const key = await record(db, payloadAt(db, page, interior ? c + 4 : c, false));
      const where = range(key);
      // Every key under a cell's left child sorts before the cell's own key.
      if (interior && where >= 0 && !(await walk(page.buf.readUInt32BE(c), depth + 1))) return false;
      if (where > 0) return false;
      if (where === 0) out.push(key);
    }
    return interior ? walk(page.right!, depth + 1) : true;
  };
  await walk(root, 0);
  return out;
}

/** SQLite's order of values of different storage classes (BINARY collation for text): NULL, then
 *  numbers, then text, then blobs. */
export function compareValues(a: SqlValue, b: SqlValue): number {
  const rank = (v: SqlValue) => (v === null ? 0 : typeof v === 'number' || typeof v === 'bigint' ? 1 : typeof v === 'string' ? 2 : 3);
  const d = rank(a) - rank(b);
  if (d !== 0) return d;
  if (a === null || b === null) return 0;
  if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}
