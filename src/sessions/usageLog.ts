// A session's usage records read from its file (engine/conversation/usageHistory.ts says what they
// are): the last one, read from the end of the file, so the meter can show a session the moment it
// is found — one line, however long the session — and all of them, for the chart of the context
// over time. Only lines that can hold a record are parsed.

import { open, readFile } from 'node:fs/promises';
import { isUsageLogFormat, usageHistory, usageLine, type UsageHistory, type UsageLine } from '../engine/conversation/usageHistory';
import type { SourceFormat } from '../engine/conversation/model';

/** What a line must contain to hold a record of either agent (a cheap test before parsing). */
const HINTS = ['"usage"', 'compact_boundary', 'token_count', '"compacted"', 'session_meta'];
/** Read from the end in blocks of this size… */
const TAIL_BLOCK = 64 * 1024;
/** …at most this much: a session whose last record is further back is counted, not glanced at. */
export const TAIL_MAX_BYTES = 8 * 1024 * 1024;

function mayHold(line: string): boolean {
  return HINTS.some((h) => line.includes(h));
}

function parse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

export type LastUsage = Extract<UsageLine, { kind: 'request' }>;

/** The newest request record of a session file, read backwards from its end; undefined for a format
 *  without such records, a file without one in its last TAIL_MAX_BYTES, or one that cannot be read.
 *  Its `line` counts from the end (-1: the last line). */
export async function readLastUsage(file: string, format: SourceFormat | undefined, maxBytes = TAIL_MAX_BYTES): Promise<LastUsage | undefined> {
  if (!isUsageLogFormat(format)) return undefined;
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = (await handle.stat()).size;
    let end = size;
    let carry = Buffer.alloc(0);
    let fromEnd = 0;
    while (end > 0 && size - end < maxBytes) {
      const start = Math.max(0, end - TAIL_BLOCK);
      const block = Buffer.alloc(end - start);
      await handle.read(block, 0, block.length, start);
      const buf = Buffer.concat([block, carry]);
      // The first (partial) line of the block waits for the next block, unless the file starts here.
      const firstBreak = start === 0 ? -1 : buf.indexOf(0x0a);
      const whole = buf.subarray(firstBreak + 1);
      carry = firstBreak >= 0 ? buf.subarray(0, firstBreak + 1) : Buffer.alloc(0);
      const lines = whole.toString('utf8').split('\n');
      for (let i = lines.length - 1; i >= 0; i--) {
        const text = lines[i]!;
        if (text.trim() === '') continue;
        fromEnd--;
        if (!mayHold(text)) continue;
        const u = usageLine(parse(text), fromEnd, format);
        if (u?.kind === 'request') return u;
      }
      end = start;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/** Every request and compaction a session file records (an empty history for other formats). */
export async function readUsageHistory(file: string, format: SourceFormat | undefined): Promise<UsageHistory> {
  if (!isUsageLogFormat(format)) return { requests: [], compactions: [] };
  const text = await readFile(file, 'utf8');
  return usageHistory(linesOf(text), format);
}

function* linesOf(text: string): Iterable<{ line: number; value: unknown }> {
  let line = 0;
  let at = 0;
  while (at <= text.length) {
    const next = text.indexOf('\n', at);
    const end = next === -1 ? text.length : next;
    line++;
    const l = text.slice(at, end);
    if (mayHold(l)) yield { line, value: parse(l) };
    if (next === -1) break;
    at = next + 1;
  }
}
