// Shortening text for the summary without losing its shape: cut at a sentence end (English
// . ! ?, Chinese 。！？, a blank line) with a visible marker, fold long code, keep
// Markdown code fences balanced, and write Markdown list items.

import { formatCount } from './formatNumber';

/** The sizes text is cut and folded by (the summary's: SegmentConstants has them). */
export interface CutConstants {
  /** How far back from a limit a sentence end is looked for. */
  SENTENCE_CUT_LOOKBACK_CHARS: number;
  CODE_LINE_MAX_CHARS: number;
  CODE_FOLD_LINES: number;
  CODE_FOLD_KEEP_LINES: number;
}

/** The marker that ends a cut text; the bracket says how much was left out. */
export function cutMarker(omittedChars: number): string {
  return `[… ${formatCount(omittedChars)} more characters]`;
}

export const CUT_MARKER_PATTERN = /\s*\[… [\d,]+ more characters\]$/;

/** Whitespace runs to one space, trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const SENTENCE_END = /[。！？]["'”’」』）)]*|[.!?]["'”’)\]]*(?=\s)|\n[ \t]*\n/g;

/** The position just after the last sentence end in text[from, to), or -1. */
export function lastSentenceEnd(text: string, from: number, to: number): number {
  SENTENCE_END.lastIndex = Math.max(0, from);
  let best = -1;
  for (let m = SENTENCE_END.exec(text); m !== null && m.index < to; m = SENTENCE_END.exec(text)) {
    const end = m.index + m[0].length;
    if (end <= to) best = end;
  }
  return best;
}

/** The position just after the first sentence end at or after `from` and before `to`, or -1. */
export function firstSentenceEnd(text: string, from: number, to: number): number {
  SENTENCE_END.lastIndex = Math.max(0, from);
  const m = SENTENCE_END.exec(text);
  if (!m) return -1;
  const end = m.index + m[0].length;
  return end <= to ? end : -1;
}

/** Does not split a UTF-16 surrogate pair. */
function safeEnd(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}

/** Closes a code fence the prefix left open, so the rest of the summary is not swallowed. */
export function balanceFences(text: string): string {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const m = /^\s*(```|~~~)/.exec(line);
    if (!m) continue;
    if (open === undefined) open = m[1];
    else if (m[1] === open) open = undefined;
  }
  return open === undefined ? text : `${text}\n${open}`;
}

/** Texts a cut must never fall inside (a person's standing rules: analyze/standingRules.ts). */
export type WholeTexts = readonly string[];

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;

/** Where each of `whole` stands in `text` (whitespace-insensitive): [start, end) ranges. */
function spansOf(text: string, whole: WholeTexts): [number, number][] {
  const out: [number, number][] = [];
  for (const w of whole) {
    const words = w.trim().split(/\s+/);
    if (words.length === 0 || !words[0]) continue;
    const re = new RegExp(words.map((x) => x.replace(REGEX_SPECIAL, '\\$&')).join('\\s+'), 'g');
    for (const m of text.matchAll(re)) out.push([m.index, m.index + m[0].length]);
  }
  return out;
}

/** A cut position moved out of any of `whole` it falls inside: before it when something of the
 *  text stays before it (the rule is then left out whole), else after it (kept whole). */
export function cutOutside(text: string, at: number, whole: WholeTexts | undefined): number {
  if (!whole || whole.length === 0) return at;
  for (const [a, b] of spansOf(text, whole)) {
    if (a < at && at < b) return text.slice(0, a).trim() !== '' ? a : b;
  }
  return at;
}

export interface CutResult {
  text: string;
  cut: boolean;
  omitted: number;
}

/**
 * `text` if it has at most `maxChars` characters; otherwise its longest prefix that ends at a
 * sentence end within SENTENCE_CUT_LOOKBACK_CHARS of the limit (else at a word boundary, else
 * at the limit), fences balanced, followed by the cut marker.
 */
export function cutText(text: string, maxChars: number, c: CutConstants, whole?: WholeTexts): CutResult {
  const trimmed = text.trim();
  if (trimmed.length <= maxChars) return { text: trimmed, cut: false, omitted: 0 };
  const limit = Math.max(1, Math.floor(maxChars));
  let end = lastSentenceEnd(trimmed, limit - c.SENTENCE_CUT_LOOKBACK_CHARS, limit);
  if (end <= 0) {
    const space = trimmed.lastIndexOf(' ', limit);
    const newline = trimmed.lastIndexOf('\n', limit);
    const ws = Math.max(space, newline);
    end = ws > limit / 2 ? ws : limit;
  }
  end = safeEnd(trimmed, cutOutside(trimmed, end, whole));
  if (end >= trimmed.length) return { text: trimmed, cut: false, omitted: 0 };
  const kept = trimmed.slice(0, end).trimEnd();
  const omitted = trimmed.length - kept.length;
  return { text: `${balanceFences(kept)} ${cutMarker(omitted)}`, cut: true, omitted };
}

/**
 * `text` up to the first sentence end after `minChars` (when one comes within
 * SENTENCE_CUT_LOOKBACK_CHARS), else cut as cutText(minChars). Used for the shortest form of a
 * message: at least its first `minChars` characters survive, verbatim.
 */
export function cutAfter(text: string, minChars: number, c: CutConstants, whole?: WholeTexts): CutResult {
  const trimmed = text.trim();
  if (trimmed.length <= minChars + c.SENTENCE_CUT_LOOKBACK_CHARS / 4) return { text: trimmed, cut: false, omitted: 0 };
  const found = firstSentenceEnd(trimmed, minChars, minChars + c.SENTENCE_CUT_LOOKBACK_CHARS);
  const end = found > 0 ? cutOutside(trimmed, found, whole) : -1;
  if (end > 0) {
    if (end >= trimmed.length - 1) return { text: trimmed, cut: false, omitted: 0 };
    const kept = trimmed.slice(0, end).trimEnd();
    const omitted = trimmed.length - kept.length;
    return { text: `${balanceFences(kept)} ${cutMarker(omitted)}`, cut: true, omitted };
  }
  // No sentence end soon after: cut at the first word boundary after minChars.
  const ws = trimmed.slice(minChars, minChars + 40).search(/\s/);
  const at = safeEnd(trimmed, cutOutside(trimmed, ws >= 0 ? minChars + ws : minChars, whole));
  if (at >= trimmed.length) return { text: trimmed, cut: false, omitted: 0 };
  const kept = trimmed.slice(0, at).trimEnd();
  const omitted = trimmed.length - kept.length;
  return { text: `${balanceFences(kept)} ${cutMarker(omitted)}`, cut: true, omitted };
}

/** Longest word (a path, a URL) a one-line cut extends to the end of rather than split. */
const WHOLE_WORD_MAX_CHARS = 300;

/** A cut inside a word: a path (it has a slash) is kept to its end — a path cut mid-word names
 *  no file —, another word is left out whole when enough stays before it. */
function wordBoundary(flat: string, end: number, maxChars: number): number {
  if (end <= 0 || end >= flat.length || /\s/.test(flat[end]!) || /\s/.test(flat[end - 1]!)) return end;
  const start = flat.lastIndexOf(' ', end) + 1;
  const stop = flat.indexOf(' ', end);
  const tokenEnd = stop < 0 ? flat.length : stop;
  if (/[\\/]/.test(flat.slice(start, tokenEnd)) && tokenEnd - start <= WHOLE_WORD_MAX_CHARS) return tokenEnd;
  return start >= maxChars / 2 ? start : end;
}

/** One line of at most maxChars characters (whitespace collapsed, "…" marks a cut), cut between
 *  words; never inside a path nor inside one of `whole` (either may make it longer). */
export function oneLine(text: string, maxChars: number, whole?: WholeTexts): string {
  const flat = collapseWhitespace(text);
  if (flat.length <= maxChars) return flat;
  const at = cutOutside(flat, Math.max(1, maxChars - 1), whole);
  const end = safeEnd(flat, at < flat.length ? wordBoundary(flat, at, maxChars) : at);
  return end >= flat.length ? flat : `${flat.slice(0, end).trimEnd()}…`;
}

/** The opening words of a text on one line: at least `minChars` characters, to the next word
 *  boundary (at most 40 characters further), "…" when more follows. */
export function openingWords(text: string, minChars: number, whole?: WholeTexts): string {
  const flat = collapseWhitespace(text);
  if (flat.length <= minChars) return flat;
  const space = flat.slice(minChars, minChars + 40).search(/\s/);
  const end = safeEnd(flat, cutOutside(flat, space >= 0 ? minChars + space : minChars, whole));
  return end >= flat.length ? flat : `${flat.slice(0, end).trimEnd()}…`;
}

/** The closing words of a text on one line: at most `maxChars` characters, from a word boundary
 *  (never from inside one of `whole`: from its end). */
export function closingWords(text: string, maxChars: number, whole?: WholeTexts): string {
  const flat = collapseWhitespace(text);
  if (flat.length <= maxChars) return flat;
  let from = flat.length - maxChars;
  const space = flat.slice(from).search(/\s/);
  if (space >= 0 && from + space < flat.length - 1) from += space + 1;
  if (whole) for (const [a, b] of spansOf(flat, whole)) if (a < from && from < b) from = b;
  return flat.slice(from).trim();
}

/** Folds code longer than CODE_FOLD_LINES lines: the first CODE_FOLD_KEEP_LINES lines, then
 *  "[code folded: N lines]" naming how many were left out. Long lines are cut. */
export function foldCode(code: string, c: CutConstants): { text: string; folded: number } {
  const lines = code.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const clip = (l: string) => (l.length > c.CODE_LINE_MAX_CHARS ? `${l.slice(0, safeEnd(l, c.CODE_LINE_MAX_CHARS))}…` : l);
  if (lines.length <= c.CODE_FOLD_LINES) return { text: lines.map(clip).join('\n'), folded: 0 };
  const keep = Math.max(0, Math.min(c.CODE_FOLD_KEEP_LINES, lines.length));
  const folded = lines.length - keep;
  return { text: [...lines.slice(0, keep).map(clip), `[code folded: ${folded} lines]`].join('\n'), folded };
}

/** A fenced code block that cannot be closed early by the code it holds. */
export function fence(code: string, lang = ''): string {
  let ticks = '```';
  while (code.includes(ticks)) ticks += '`';
  return `${ticks}${lang}\n${code}\n${ticks}`;
}

/** Inline code that survives backticks inside it. */
export function inlineCode(text: string): string {
  const flat = text.replace(/\n/g, ' ');
  if (!flat.includes('`')) return `\`${flat}\``;
  return `\`\` ${flat} \`\``;
}

/** Bullet markers opening a text ("- ", "* ", "• ", "- - "): the item's own bullet replaces them. */
const LEADING_BULLETS = /^(?:\s*[-*+•](?:\s+|$))+/;
/** Bullets, numbers ("1. ", "2) "), letters ("b) ") and quote marks opening a sentence taken
 *  out of a list. */
const LEADING_MARKERS = /^(?:\s*(?:[-*+•>]|\d{1,3}[.)]|[a-z]\))(?:\s+|$))+/;

/** A sentence taken out of a list or a quote, without the markers it was written with. */
export function withoutListMarkers(sentence: string): string {
  return sentence.replace(LEADING_MARKERS, '');
}

/** A Markdown list item: "- " before the first line, two spaces before the others (blank
 *  lines stay blank), so no line of an item starts at column 0 except its bullet. A bullet the
 *  text already opens with is dropped (no "- - "); a number is kept, it says the order. */
export function listItem(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').replace(LEADING_BULLETS, '').split('\n');
  return lines.map((l, i) => (i === 0 ? `- ${l}` : l.trim() === '' ? '' : `  ${l}`)).join('\n');
}
