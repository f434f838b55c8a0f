// Temporal relevance: recency decay × a category multiplier, capped at 1.
//
// Recency has two factors, multiplied:
// - time: 1 − days_old · TEMPORAL_DECAY_PER_DAY (floored at 0), when the transcript has
//   timestamps. "Now" is AnalyzeOptions.now, else the latest timestamp in the conversation (never
//   the wall clock: the engine is deterministic). A message without a timestamp takes the
//   nearest earlier one (else the nearest later one).
// - position: 1 − POSITION_DECAY_MAX · (messages after it / (n − 1)): the last message keeps 1,
//   the first keeps 1 − POSITION_DECAY_MAX. This makes transcripts without timestamps decay too,
//   and orders the messages of one busy afternoon, which time alone would score all alike.

import type { Message } from '../conversation/model';
import type { TemporalCategory } from '../result';
import { AnalyzeOptionsError, type AnalyzeConstants } from './constants';
import type { ContentScan } from './contentScan';

const ORDER: readonly Exclude<TemporalCategory, 'timeless'>[] = ['immediate', 'current_phase', 'future_relevant', 'historical'];
/** The categories in the order they are checked (patterns: TEMPORAL_KEYWORDS in keywords.ts). */
export function temporalCategory(scan: ContentScan): TemporalCategory {
  for (const cat of ORDER) if (scan.has(cat)) return cat;
  return 'timeless';
}

export function categoryMultiplier(cat: TemporalCategory, c: AnalyzeConstants): number {
  switch (cat) {
    case 'immediate':
      return c.TEMPORAL_MULT_IMMEDIATE;
    case 'current_phase':
      return c.TEMPORAL_MULT_CURRENT_PHASE;
    case 'future_relevant':
      return c.TEMPORAL_MULT_FUTURE_RELEVANT;
    case 'historical':
      return c.TEMPORAL_MULT_HISTORICAL;
    default:
      return c.TEMPORAL_MULT_TIMELESS;
  }
}

const DAY_MS = 24 * 3600 * 1000;

/** Milliseconds since the epoch of an ISO 8601 timestamp, or undefined when absent or unreadable. */
export function parseTimestamp(value: string | undefined): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : undefined;
}

/** Validate AnalyzeOptions.now (a clear error for a bad value) and read it. */
export function parseNow(now: string | undefined): number | undefined {
  if (now === undefined) return undefined;
  const t = parseTimestamp(now);
  if (t === undefined) {
    throw new AnalyzeOptionsError(`AnalyzeOptions.now: expected an ISO 8601 date-time such as 2025-01-31T12:00:00Z, got ${JSON.stringify(now)}`);
  }
  return t;
}

/** Reads the timestamps of messages[from…] into `times` (those before `from` were read into it
 *  already): a conversation that grew reads only its new messages. */
export function advanceTimestamps(times: (number | undefined)[], messages: readonly Message[], from: number): void {
  for (let i = from; i < messages.length; i++) times.push(parseTimestamp(messages[i]!.timestamp));
}

/** Recency per message (time factor × position factor, each 0..1), from each message's
 *  timestamp (parseTimestamp; undefined where it has none). */
export function recencyFactors(parsed: readonly (number | undefined)[], now: number | undefined, c: AnalyzeConstants): number[] {
  const n = parsed.length;
  const times = parsed.slice();
  // Fill gaps: nearest earlier timestamp, else nearest later one.
  let last: number | undefined;
  for (let i = 0; i < n; i++) {
    if (times[i] === undefined) times[i] = last;
    else last = times[i];
  }
  let next: number | undefined;
  for (let i = n - 1; i >= 0; i--) {
    if (times[i] === undefined) times[i] = next;
    else next = times[i];
  }
  let reference = now;
  if (reference === undefined) {
    for (const t of times) if (t !== undefined && (reference === undefined || t > reference)) reference = t;
  }
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const t = times[i];
    let time = 1;
    if (t !== undefined && reference !== undefined) {
      const days = Math.max(0, (reference - t) / DAY_MS);
      time = Math.max(0, 1 - days * c.TEMPORAL_DECAY_PER_DAY);
    }
    const position = n <= 1 ? 1 : Math.max(0, 1 - c.POSITION_DECAY_MAX * ((n - 1 - i) / (n - 1)));
    out[i] = time * position;
  }
  return out;
}

export function temporalScore(recency: number, cat: TemporalCategory, c: AnalyzeConstants): number {
  return Math.min(1, recency * categoryMultiplier(cat, c));
}
