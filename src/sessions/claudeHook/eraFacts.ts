// What the hook reads of a session to repair a compaction, and only that: the conversation since
// the last compact boundary (what Claude Code sends, and so what the next compaction summarizes),
// its must-keep facts, and the usage Claude Code recorded for its last request. The facts of
// earlier eras are not read again: the state carries them on from the compactions before
// (withCarried), so a fact an earlier summary dropped still counts.
//
// Claude Code waits for the hook, so no run reads more than ERA_MAX_BYTES back from the end: an
// era larger than that (a long session from before the hook was installed, with no compaction
// yet) is read from a line boundary that far back, and the log says so.

import { importClaudeCode } from '../../engine/conversation/importers/claudeCode';
import { isObject, obj, str } from '../../engine/conversation/importers/jsonShape';
import { apiUsage } from '../../engine/conversation/importers/reportedUsage';
import { SYNTHETIC_MODEL } from '../../engine/conversation/importers/claudeCodeChain';
import { mustKeepItems, RESTORE_CATEGORIES, type RestoreItem } from '../../engine/validate/restoreFacts';
import { normalizeForMatch } from '../../engine/validate/factMatch';
import { isBoundary, visibleText } from './compactionInTranscript';
import { MAX_CARRIED_FACTS, type EraFacts } from './hookState';
import { parseLine, type TranscriptFile } from './transcriptFile';

const BOUNDARY_MARK = Buffer.from('"compact_boundary"');
/** The most of an era a run reads (an era of a million-token window is about this size). */
export const ERA_MAX_BYTES = 16 * 1024 * 1024;
/** Characters of the unanswered prompt kept with the facts. */
const WAITING_MAX_CHARS = 20_000;
const USAGE_MARK = Buffer.from('"usage"');

/** Byte offset of the last compact boundary line before `end` (0 when there is none: the era is
 *  the whole file), read backwards; `cut` when the era is longer than ERA_MAX_BYTES and starts at
 *  the first whole line within that much of `end` instead. */
export async function eraStart(file: TranscriptFile, end: number): Promise<{ start: number; cut: boolean }> {
  const floor = end - ERA_MAX_BYTES;
  let earliest = end;
  for await (const l of file.linesBackward(end)) {
    if (l.start < floor) return { start: earliest, cut: true };
    if (l.bytes.includes(BOUNDARY_MARK) && isBoundary(parseLine(l.bytes))) return { start: l.start, cut: false };
    earliest = l.start;
  }
  return { start: 0, cut: false };
}

/** The usage Claude Code recorded for the last request before `end` (input and cache tokens of
 *  the last main-chain answer), read backwards no further than the era's boundary. */
export async function recordedUsage(file: TranscriptFile, end: number): Promise<number | undefined> {
  for await (const l of file.linesBackward(end)) {
    if (l.start < end - ERA_MAX_BYTES) return undefined;
    if (l.bytes.includes(BOUNDARY_MARK) && isBoundary(parseLine(l.bytes))) return undefined;
    if (!l.bytes.includes(USAGE_MARK)) continue;
    const v = parseLine(l.bytes);
    if (!v || v['type'] !== 'assistant' || v['isSidechain'] === true) continue;
    const message = obj(v, 'message');
    if (!message || str(message, 'model') === SYNTHETIC_MODEL) continue;
    const figure = apiUsage(message['usage']);
    if (figure) return figure.tokens;
  }
  return undefined;
}

export type EraRead = { ok: true; facts: EraFacts } | { ok: false; reason: string };

/** The must-keep facts of the era that ends at `end`: `cached` when it holds that very range, else
 *  read from the file (the chain Claude Code sends, from the era's boundary). */
export async function readEraFacts(file: TranscriptFile, end: number, cached?: EraFacts): Promise<EraRead> {
  const { start, cut } = await eraStart(file, end);
  if (cached && cached.start === start && cached.end === end) return { ok: true, facts: cached };
  try {
    const { conversation } = importClaudeCode(await file.text(start, end), { sourcePath: file.path });
    const model = conversation.meta.model;
    const messages = conversation.messages;
    // A prompt not answered yet is sent after the summary verbatim (Claude Code keeps it): what it
    // says needs no putting back.
    let k = messages.length;
    while (k > 0 && messages[k - 1]!.role !== 'assistant') k--;
    const waiting = messages.slice(k).map(visibleText).join('\n').slice(0, WAITING_MAX_CHARS);
    return {
      ok: true,
      facts: { start, end, items: mustKeepItems(messages), ...(waiting ? { waiting } : {}), ...(model ? { model } : {}), ...(cut ? { cut: true } : {}) },
    };
  } catch (e) {
    return { ok: false, reason: `${file.path} (bytes ${start}–${end}) cannot be read as a Claude Code session: ${(e as Error).message}` };
  }
}

const keyOf = (i: RestoreItem) => `${i.category}\u0000${normalizeForMatch(i.fact.value)}`;

/**
 * The era's facts, then those carried on from earlier eras that it does not repeat, in the
 * restore's order (most important category first; within one, the era's before the older ones).
 * An earlier task list counts only when the era has none of its own (the latest list is the plan).
 */
export function withCarried(items: readonly RestoreItem[], carried: readonly RestoreItem[] = []): RestoreItem[] {
  const seen = new Set(items.map(keyOf));
  const hasTasks = items.some((i) => i.category === 'task');
  const older = carried.filter((i) => !seen.has(keyOf(i)) && !(hasTasks && i.category === 'task') && isObject(i.fact));
  const all = [...items, ...older];
  const rank = (i: RestoreItem) => RESTORE_CATEGORIES.indexOf(i.category);
  return all
    .map((item, at) => ({ item, at }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.at - b.at)
    .map((x) => x.item);
}

/** What the next era carries on: this era's facts with the older ones, at most MAX_CARRIED_FACTS
 *  (the last of each category's list — the oldest — go first, requests and files before
 *  instructions). */
export function carryOn(items: readonly RestoreItem[], carried: readonly RestoreItem[] = []): RestoreItem[] {
  const all = withCarried(items, carried);
  if (all.length <= MAX_CARRIED_FACTS) return all;
  const keep = new Set<RestoreItem>();
  for (const c of RESTORE_CATEGORIES) {
    for (const i of all) {
      if (keep.size >= MAX_CARRIED_FACTS) break;
      if (i.category === c) keep.add(i);
    }
  }
  return all.filter((i) => keep.has(i));
}
