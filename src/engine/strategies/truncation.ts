// Truncation helpers and the replacement messages strategies put in place of an
// original: a preview cut at a sentence boundary, a capped diff, a tool output cut to the budget
// left, a one-line placeholder. A replacement keeps the original's id, role, item type, tool calls
// and tool result id (pairing stays valid) and records how it was shortened, so
// it is never shortened twice. The full original is in the compaction's archive under its id.

import { hashHex, pureSha256, type ContentHasher } from '../archive/contentHasher';
import type { Message, TruncationRecord } from '../conversation/model';
import { messageText } from '../conversation/model';
import { SEGMENT_CONSTANTS } from '../segments/constants';
import { formatCount } from '../text/formatNumber';
import { CUT_MARKER_PATTERN, cutText } from '../text/textCut';
import type { CachedTokenCounter } from '../tokens/messageCounter';
import { CHARS_PER_TOKEN_ESTIMATE, STRATEGY_DEFAULTS } from './constants';
import { collapseRepeatedLines } from './repeatedLines';

/** Each retry of a cut that still counts over its token size keeps this share of the characters. */
const CUT_SHRINK_STEP = 0.8;
/** Retries of a cut before the last one is taken as it is. */
const CUT_MAX_TRIES = 6;
/** Share of a cut tool output kept from its head; the rest comes from its tail, where errors
 *  and final results usually are. */
const OUTPUT_HEAD_SHARE = 2 / 3;

/** The text cut at a sentence boundary to at most maxTokens, with a marker. */
export function cutToTokens(text: string, maxTokens: number, counter: CachedTokenCounter): { text: string; cut: boolean } {
  if (counter.count(text) <= maxTokens) return { text, cut: false };
  let chars = Math.max(1, Math.floor(maxTokens * CHARS_PER_TOKEN_ESTIMATE));
  let out = cutText(text, chars, SEGMENT_CONSTANTS).text;
  for (let k = 0; k < CUT_MAX_TRIES && counter.count(out) > maxTokens && chars > 1; k++) {
    chars = Math.max(1, Math.floor(chars * CUT_SHRINK_STEP));
    out = cutText(text, chars, SEGMENT_CONSTANTS).text;
  }
  return { text: out, cut: true };
}

/** A diff capped at `share` of the context window: whole lines from the top, then
 *  a marker saying how many lines were left out and why. */
export function capDiff(
  diff: string,
  windowTokens: number,
  counter: CachedTokenCounter,
  share: number = STRATEGY_DEFAULTS.DIFF_WINDOW_SHARE,
): { text: string; cutLines: number } {
  const cap = Math.max(1, Math.floor(windowTokens * share));
  if (counter.count(diff) <= cap) return { text: diff, cutLines: 0 };
  const lines = diff.split('\n');
  let used = 0;
  let keep = 0;
  for (; keep < lines.length; keep++) {
    const t = counter.count(`${lines[keep]!}\n`);
    if (used + t > cap) break;
    used += t;
  }
  const cutLines = lines.length - keep;
  const marker = `[… ${formatCount(cutLines)} more diff lines cut: a diff takes at most ${Math.round(share * 100)}% of the context window]`;
  return { text: [...lines.slice(0, keep), marker].join('\n'), cutLines };
}

/** A tool output cut to the tokens left: the head and the tail by whole lines,
 *  with a marker naming how many lines were left out. */
export function cutToolOutput(output: string, remainingTokens: number, counter: CachedTokenCounter): { text: string; cutLines: number } {
  const room = Math.max(0, Math.floor(remainingTokens));
  if (counter.count(output) <= room) return { text: output, cutLines: 0 };
  const lines = output.split('\n');
  if (lines.length <= 2) {
    const cut = cutToTokens(output, room, counter);
    return { text: cut.text, cutLines: 0 };
  }
  const headRoom = Math.floor(room * OUTPUT_HEAD_SHARE);
  const head: string[] = [];
  let used = 0;
  for (const l of lines) {
    const t = counter.count(`${l}\n`);
    if (used + t > headRoom) break;
    head.push(l);
    used += t;
  }
  const tail: string[] = [];
  for (let k = lines.length - 1; k >= head.length; k--) {
    const t = counter.count(`${lines[k]!}\n`);
    if (used + t > room) break;
    tail.unshift(lines[k]!);
    used += t;
  }
  const cutLines = lines.length - head.length - tail.length;
  return { text: [...head, `[… ${formatCount(cutLines)} lines of output cut to fit the budget]`, ...tail].join('\n'), cutLines };
}

/** Has this message been shortened already (by an importer, a formatter or an earlier pass)? */
export function alreadyTruncated(m: Message): boolean {
  return m.truncation !== undefined;
}

function withText(m: Message, text: string, record: TruncationRecord, args?: (string | undefined)[]): Message {
  const out: Message = { ...m, content: [{ type: 'text', text }], truncation: record };
  if (m.toolCalls && args) out.toolCalls = m.toolCalls.map((c, k) => (args[k] === undefined ? c : { ...c, arguments: args[k]! }));
  return out;
}

/** Where the full original is, when an archive that outlives the compaction holds it (the
 *  compaction archives the whole conversation first); undefined when none does: a note then says
 *  what was shortened and points nowhere. */
export function archiveRefText(m: Message, archived = true): string | undefined {
  return archived ? `message ${m.id} in this compaction's archive` : undefined;
}

/** "; the full text is <where>" when the original is archived, else nothing. */
function whereNote(m: Message, archived: boolean, what: string): string {
  const ref = archiveRefText(m, archived);
  return ref ? `; the full ${what} is ${ref}` : '';
}

/** The message with its text cut to a preview of about previewTokens (thinking left out). */
export function previewMessage(
  m: Message,
  originalTokens: number,
  previewTokens: number,
  by: TruncationRecord['by'],
  counter: CachedTokenCounter,
  archived = true,
): Message {
  const text = messageText(m);
  const cut = cutToTokens(text, previewTokens, counter);
  const note = `[shortened from ${formatCount(originalTokens)} tokens${whereNote(m, archived, 'text')}]`;
  const safe = cut.text.trim() ? `${cut.text}\n${note}` : note;
  const draft = withText(m, safe, { by, originalTokens, keptTokens: 0, archiveRef: m.id });
  return { ...draft, truncation: { ...draft.truncation!, keptTokens: counter.countMessage(draft) } };
}

/** Tool call arguments over maxTokens replaced by a preview, still valid JSON. undefined for a
 *  call left as it is. */
export function previewArguments(
  m: Message,
  maxTokens: number,
  previewTokens: number,
  counter: CachedTokenCounter,
  archived = true,
): (string | undefined)[] | undefined {
  if (!m.toolCalls?.some((c) => counter.count(c.arguments) > maxTokens)) return undefined;
  return m.toolCalls.map((c) => {
    const t = counter.count(c.arguments);
    if (t <= maxTokens) return undefined;
    const preview = cutToTokens(c.arguments, previewTokens, counter).text;
    return JSON.stringify({ preview, note: `arguments shortened from ${formatCount(t)} tokens${whereNote(m, archived, 'call')}` });
  });
}

/** A kept tool-block message with oversized arguments/result shortened to previews; undefined
 *  when nothing is over its limit. */
export function shortenToolMessage(
  m: Message,
  tokens: number,
  limits: { args: number; result: number; preview: number },
  counter: CachedTokenCounter,
  archived = true,
): Message | undefined {
  if (alreadyTruncated(m)) return undefined;
  if (m.toolResult) {
    if (tokens <= limits.result) return undefined;
    return previewMessage(m, tokens, limits.preview, 'selective', counter, archived);
  }
  const args = previewArguments(m, limits.args, limits.preview, counter, archived);
  if (!args) return undefined;
  const draft = withText(m, messageText(m), { by: 'selective', originalTokens: tokens, keptTokens: 0, archiveRef: m.id }, args);
  if (!messageText(m)) draft.content = m.content.filter((p) => p.type !== 'thinking');
  return { ...draft, truncation: { ...draft.truncation!, keptTokens: counter.countMessage(draft) } };
}

/** A preview shorter than this is left out (the marker says what was there). */
const EMERGENCY_PREVIEW_MIN_TOKENS = 6;

/** The message cut to about `toTokens` at the emergency level: its text cut at a sentence
 *  boundary and its tool-call arguments to previews, each with one short marker. Keeps its id,
 *  role, tool calls and tool result id, so pairing stays valid. Undefined when no shorter
 *  message comes of it. */
export function emergencyPreview(m: Message, tokens: number, toTokens: number, counter: CachedTokenCounter, archived = true): Message | undefined {
  const calls = m.toolCalls ?? [];
  const note = `[… message shortened from ${formatCount(tokens)} tokens${whereNote(m, archived, 'message')}]`;
  const noteTokens = counter.count(note);
  const text = messageText(m);
  const argTokens = calls.reduce((s, c) => s + counter.count(c.arguments), 0);
  const textTokens = text ? counter.count(text) : 0;
  // The room goes to text and arguments in proportion to their sizes.
  const room = Math.max(1, toTokens - noteTokens);
  const textRoom = argTokens + textTokens > 0 ? Math.max(1, Math.floor((room * textTokens) / (argTokens + textTokens))) : room;
  let newText = text;
  if (text && textTokens > textRoom) {
    // Below a few tokens a preview says nothing: the marker alone stands for the text.
    const cut = textRoom >= EMERGENCY_PREVIEW_MIN_TOKENS ? cutToTokens(text, textRoom, counter).text.replace(CUT_MARKER_PATTERN, '') : '';
    newText = cut.trim() ? `${cut} ${note}` : note;
  }
  const args = calls.map((c) => {
    const t = counter.count(c.arguments);
    const each = Math.max(0, Math.floor((room - Math.min(room, textRoom)) / calls.length));
    if (t <= each + noteTokens) return undefined;
    const preview = each >= EMERGENCY_PREVIEW_MIN_TOKENS ? cutToTokens(c.arguments, each, counter).text.replace(CUT_MARKER_PATTERN, '') : '';
    return JSON.stringify({ preview, note: `arguments shortened from ${formatCount(t)} tokens${whereNote(m, archived, 'call')}` });
  });
  if (newText === text && args.every((a) => a === undefined)) return undefined;
  const draft = withText(m, newText, { by: 'truncate', originalTokens: tokens, keptTokens: 0, archiveRef: m.id }, args);
  if (!text && m.content.length === 0) draft.content = [];
  const kept = counter.countMessage(draft);
  if (kept >= counter.countMessage(m)) return undefined;
  return { ...draft, truncation: { ...draft.truncation!, keptTokens: kept } };
}

/** A tool output with its runs of repeated lines collapsed (repeatedLines.ts); undefined when
 *  it has none, or is not plain text, or was shortened before. */
export function collapsedMessage(
  m: Message,
  tokens: number,
  minRun: number,
  counter: CachedTokenCounter,
  archived = true,
): { message: Message; collapsedLines: number } | undefined {
  if (!m.toolResult || alreadyTruncated(m) || !m.content.every((p) => p.type === 'text')) return undefined;
  const ref = archiveRefText(m, archived);
  const c = collapseRepeatedLines(messageText(m), minRun, ref ? `the full output is ${ref}` : undefined);
  if (c.runs === 0) return undefined;
  const draft = withText(m, c.text, { by: 'collapse', originalTokens: tokens, keptTokens: 0, archiveRef: m.id });
  const kept = counter.countMessage(draft);
  if (kept >= tokens) return undefined;
  return { message: { ...draft, truncation: { ...draft.truncation!, keptTokens: kept } }, collapsedLines: c.collapsedLines };
}

/** Observation masking: the output replaced by one line naming the tool, its size and where
 *  the full text is. */
export function maskedMessage(
  m: Message,
  tokens: number,
  toolName: string | undefined,
  by: 'mask' | 'offload',
  counter: CachedTokenCounter,
  ref = m.id,
  archived = true,
): Message {
  const what = toolName ? `output of ${toolName}` : 'tool output';
  const where = by === 'offload' ? `archive entry ${ref}` : archiveRefText(m, archived);
  const text = `[${what} ${by === 'offload' ? 'offloaded' : 'masked'}: ${formatCount(tokens)} tokens${m.toolResult?.isError ? ', an error' : ''}${where ? `; the full text is ${where}` : ''}]`;
  const draft = withText(m, text, { by, originalTokens: tokens, keptTokens: 0, archiveRef: ref });
  return { ...draft, truncation: { ...draft.truncation!, keptTokens: counter.countMessage(draft) } };
}

/** Prefix of the archive entries offloaded tool outputs are stored under. */
export const OFFLOAD_KEY_PREFIX = 'offload-';

/** The archive key of one message's exact JSON (what its offload placeholder names). */
export function offloadKey(m: Message, hasher: ContentHasher = pureSha256): string {
  return OFFLOAD_KEY_PREFIX + hashHex(hasher, JSON.stringify(m));
}

/** Offload: the output replaced by a one-line placeholder naming its own archive entry. */
export function offloadedMessage(m: Message, tokens: number, counter: CachedTokenCounter): Message {
  return maskedMessage(m, tokens, m.toolResult?.toolName, 'offload', counter, offloadKey(m));
}
