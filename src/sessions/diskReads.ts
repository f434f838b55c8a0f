// The few disk reads discovery needs, all asynchronous and all tolerant of a folder that is not
// there: listing a folder, statting a file, and reading only the head of a file (the first line of a
// Codex rollout or a Claude Code session tells where it belongs without reading megabytes).

import type { Dirent, Stats } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';

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

/** Up to `maxBytes` from the start of a file, as text (a multi-byte character cut at the end is
 *  dropped); undefined when the file cannot be read. */
export async function readHead(path: string, maxBytes: number): Promise<string | undefined> {
  let fh;
  try {
    fh = await open(path, 'r');
    const buf = Buffer.alloc(maxBytes);
    const { bytesRead } = await fh.read(buf, 0, maxBytes, 0);
    return new TextDecoder('utf-8').decode(buf.subarray(0, bytesRead)).replace(/\uFFFD+$/, '');
  } catch {
    return undefined;
  } finally {
    await fh?.close();
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
