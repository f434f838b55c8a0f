// The few disk reads discovery needs, all asynchronous and all tolerant of a folder that is not
// there: listing a folder, statting a file, and reading only the head of a file (the first line of a
// Codex rollout or a Claude Code session tells where it belongs without reading megabytes).
//
// Every file is opened without blocking and read only when it is a regular file: a FIFO in a
// sessions folder would otherwise hang the read until something writes to it. A session's own
// content is read only from the file itself, never through a symbolic link (openRegularFile).

import { constants, type Dirent, type Stats } from 'node:fs';
import { lstat, open, readdir, stat, type FileHandle } from 'node:fs/promises';

/** The most of a session file read: the same limit as the CLI's reader, larger than any real
 *  session, small enough to fail fast on a mistaken file. */
export const SESSION_MAX_BYTES = 64 * 1024 * 1024;

/** A folder's entries; none when it does not exist or cannot be read. */
export async function entriesOf(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

export async function statOf(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}

/** The entry itself (a symbolic link as a link), or undefined when there is none. */
export async function entryStatOf(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch {
    return undefined;
  }
}

/** A folder entry that may be a session file: anything but a folder. Links, FIFOs and the like
 *  are listed, and their read says what they are (openRegularFile), rather than left out unsaid. */
export function mayBeSessionFile(e: Dirent): boolean {
  return !e.isDirectory();
}

/** What a path that is not a regular file is, in words ("a symbolic link", "a named pipe (FIFO)"). */
export function describeEntry(s: Stats): string {
  if (s.isSymbolicLink()) return 'a symbolic link';
  if (s.isFIFO()) return 'a named pipe (FIFO)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  if (s.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/** The flags of every open here: never block (a FIFO with no writer), and, for a session's own
 *  content, never through a link. Windows has neither flag and no FIFOs in its file system. */
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** A regular file opened for reading with its stats, or why it is not one: `notFile` says what the
 *  path is instead ("a symbolic link", "a named pipe (FIFO)"), `code` the error for a missing or
 *  unreadable path. `followLinks: false` (a session's content) does not open through a link. */
export async function openRegularFile(
  path: string,
  opts: { followLinks: boolean },
): Promise<{ fh: FileHandle; stats: Stats } | { notFile: string } | { code: string }> {
  let fh: FileHandle;
  try {
    fh = await open(path, constants.O_RDONLY | NONBLOCK | (opts.followLinks ? 0 : NOFOLLOW));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
    // O_NOFOLLOW on a link fails with ELOOP (EMLINK on some BSDs): say what it is.
    const entry = code === 'ELOOP' || code === 'EMLINK' || code === 'ENXIO' ? await entryStatOf(path) : undefined;
    return entry && !entry.isFile() ? { notFile: describeEntry(entry) } : { code };
  }
  const stats = await fh.stat().catch(() => undefined);
  if (stats?.isFile()) return { fh, stats };
  await fh.close().catch(() => undefined);
  return stats ? { notFile: describeEntry(stats) } : { code: 'EIO' };
}

/** A session file's bytes, at most `maxBytes`: read from the file itself (not through a link, not
 *  from a FIFO), or the error to list it with, naming the file and what it is. */
export async function readSessionBytes(path: string, maxBytes: number): Promise<{ bytes: Buffer } | { error: string }> {
  const opened = await openRegularFile(path, { followLinks: false });
  if ('notFile' in opened) return { error: notAFileError(path, opened.notFile) };
  if ('code' in opened) return { error: `${path}: cannot be read (${opened.code})` };
  const { fh, stats } = opened;
  try {
    if (stats.size > maxBytes) return { error: overLimitError(stats.size, maxBytes) };
    return { bytes: await fh.readFile() };
  } catch (e) {
    return { error: `${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** The error a session is listed with when its path is not a regular file. */
export function notAFileError(path: string, what: string): string {
  return `${path}: ${what}, not a regular file: a session is read only from the file itself`;
}

/** The error a session is listed with when its file is over the limit (the listing, the live meter). */
export function overLimitError(size: number, maxBytes: number): string {
  return `the file is ${Math.round(size / 1024 / 1024)} MB, more than the ${Math.round(maxBytes / 1024 / 1024)} MB read`;
}

/** Up to `maxBytes` from the start of a file, as text (a multi-byte character cut at the end is
 *  dropped); undefined when the file cannot be read or is not a regular file. */
export async function readHead(path: string, maxBytes: number): Promise<string | undefined> {
  const opened = await openRegularFile(path, { followLinks: true });
  if (!('fh' in opened)) return undefined;
  const { fh } = opened;
  try {
    const buf = Buffer.alloc(maxBytes);
    const { bytesRead } = await fh.read(buf, 0, maxBytes, 0);
    return new TextDecoder('utf-8').decode(buf.subarray(0, bytesRead)).replace(/\uFFFD+$/, '');
  } catch {
    return undefined;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** The complete lines at the head of a file (the last, maybe cut, line left out when the head
 *  does not reach the end of the file), parsed; lines that are not JSON are left out. */
export async function headLines(path: string, maxBytes: number): Promise<unknown[]> {
  const head = await readHead(path, maxBytes);
  if (head === undefined) return [];
  const lines = head.split('\n');
  if (Buffer.byteLength(head) >= maxBytes) lines.pop();
  const out: unknown[] = [];
  for (const l of lines) {
    if (l.trim() === '') continue;
    try {
      out.push(JSON.parse(l));
    } catch {
      // a line being written, or not JSON: the full read reports it
    }
  }
  return out;
}

/** The first line of a file parsed, reading no further than needed (a Codex rollout's first line
 *  holds the whole system prompt: tens of kilobytes); undefined when it is not one JSON value. */
export async function firstLineOf(path: string, maxBytes = 4 * 1024 * 1024): Promise<unknown> {
  for (const size of [64 * 1024, maxBytes]) {
    const head = await readHead(path, size);
    if (head === undefined) return undefined;
    const nl = head.indexOf('\n');
    if (nl === -1 && Buffer.byteLength(head) >= size && size < maxBytes) continue;
    try {
      return JSON.parse(nl === -1 ? head : head.slice(0, nl));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A JSON file parsed, or undefined (missing, unreadable, not JSON). */
export async function readJsonFile(path: string, maxBytes = 16 * 1024 * 1024): Promise<unknown> {
  const s = await statOf(path);
  if (!s || !s.isFile() || s.size > maxBytes) return undefined;
  const text = await readHead(path, s.size);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
