// "All user messages": every message a person wrote, in order. Long ones are cut at a sentence
// boundary with a marker that says how much was left out; none is dropped, whatever the budget
// (each keeps at least its first USER_MESSAGE_MIN_CHARS characters, verbatim). Identical
// messages (whitespace aside) are listed once with a count. On re-compaction the earlier
// entries come first and stay: they may be shortened further, never removed.
// Each item also carries its reduced forms for when even that does not fit (degrade.ts): the
// opening and closing words with the names in between, a one-line gist, whether it is an
// acknowledgement, and its near-duplicate group.

import { compileKeywords, mergeSpecs } from '../text/keywordMatcher';
import { splitSentences, isCodeSegment } from '../text/sentences';
import { fromMessage, importanceAt, recency, type BuilderContext } from './sectionBuilder';
import { exactSize, memoSlotWith, orNone } from '../conversation/messageMemo';
import { isRuleSentence, ruleSentences } from '../analyze/standingRules';
import type { SpanMessage } from './spanView';
import type { MessageAnalysis } from '../analyze/analysis';
import { firstSimilarBefore, textShingles } from '../text/similarity';
import type { SegmentConstants } from './constants';
import type { ReducedForms, SectionItem } from './sectionItems';
import { distinctForms } from './sectionItems';
import {
  CUT_MARKER_PATTERN,
  balanceFences,
  closingWords,
  collapseWhitespace,
  cutAfter,
  cutMarker,
  cutText,
  inlineCode,
  listItem,
  oneLine,
  openingWords,
  withoutListMarkers,
  type WholeTexts,
} from '../text/textCut';
import { bulletText } from './parseSummary';
import { previousItems, shortenEntry } from './previousItems';
import { splitPasted, type MessageParts } from '../analyze/pasted';

/** Sentences that state facts worth keeping when a long message is shortened: numbers, amounts,
 *  dates, names, first-person statements ("I …", "my …", 我…). */
const FACT_WORDS = compileKeywords(
  mergeSpecs(
    { en: ['i', "i'm", "i've", "i'd", 'my', 'we', 'our', 'must', 'need', 'want', 'should', 'please'] },
    { zh: ['我', '我们', '必须', '需要', '希望', '请'] },
  ),
);
const HAS_NUMBER = /\d/;
const HAS_NAME = /(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+/;

function factScore(sentence: string): number {
  let s = 0;
  if (HAS_NUMBER.test(sentence)) s += 2;
  if (HAS_NAME.test(sentence)) s += 1;
  if (FACT_WORDS.has(sentence.toLowerCase())) s += 1;
  return s;
}

/** The prefix form plus the message's `count` most informative later sentences, in their order
 *  (never a rule: those are never cut, and the ledger quotes them whole). */
function withFacts(text: string, maxChars: number, ctx: BuilderContext, count: number, rules: WholeTexts): string {
  const cut = cutText(text, maxChars, ctx.c, rules);
  if (!cut.cut || count <= 0) return cut.text;
  const keptChars = text.trim().length - cut.omitted;
  const rest = text.trim().slice(keptChars);
  const seen = new Set<string>();
  const picked = splitSentences(rest.slice(0, 20000))
    .filter((s) => !isCodeSegment(s) && s.length >= 20 && !isRuleSentence(s))
    // A sentence said twice is quoted once.
    .filter((s) => {
      const k = collapseWhitespace(s);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .map((s, i) => ({ s, i, score: factScore(s) }))
    .filter((x) => x.score >= 2)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, count)
    .sort((a, b) => a.i - b.i)
    .map((x) => `“${oneLine(withoutListMarkers(x.s), 300)}”`);
  return picked.length > 0 ? `${cut.text}\nKey sentences further on: ${picked.join(' ')}` : cut.text;
}

const COMMAND_MARKUP =
  /<command-message>[\s\S]*?<\/command-message>\s*|<command-name>\s*([\s\S]*?)\s*<\/command-name>\s*|<command-args>\s*([\s\S]*?)\s*<\/command-args>/g;

/** A slash command as the person typed it: Claude Code records `/cmd args` as markup
 *  (<command-message>, <command-name>, <command-args>) whose first characters say nothing, so
 *  a shortened entry would keep only the markup and lose the request. */
export function readableUserText(text: string): string {
  if (!text.includes('<command-name>')) return text;
  const out = text.replace(COMMAND_MARKUP, (_m, name: string | undefined, args: string | undefined) => (name ? `${name} ` : args ? `${args}\n` : ''));
  return out.trim() || text;
}

/** A person's message as own words and pasted body (analyze/pasted.ts), read once per message:
 *  what Primary Request, Problem Solving, Pending Tasks and Current Work take the person's
 *  request from. */
export function requestParts(ctx: BuilderContext, sm: SpanMessage): MessageParts {
  return fromMessage(ctx, sm, 'users.parts', (x) => splitPasted(readableUserText(x.text)));
}

/** Error names ("TypeError", "ECONNREFUSED"-like codes are identifiers) in a text. */
const ERROR_NAME = /\b[A-Z][A-Za-z0-9_.]*(?:Error|Exception|Warning|Failure)\b/g;
/** Shortest message compared for near-duplicates (shorter ones are identical or not alike). */
const SIMILAR_MIN_CHARS = 30;
/** Earlier user messages each one is compared with for near-duplicates. */
const SIMILAR_LOOKBACK = 300;

/** The opening and closing words of a long message, and the paths, identifiers and error names
 *  of the part between them, so that a shortened entry still says what it was about. */
function shortenedForm(text: string, analysis: MessageAnalysis | undefined, c: SegmentConstants, rules: WholeTexts): string | undefined {
  const flat = collapseWhitespace(text);
  if (flat.length <= c.USER_MESSAGE_SHORTEN_MIN_CHARS) return undefined;
  const opening = openingWords(flat, c.USER_MESSAGE_OPENING_CHARS, rules).replace(/…$/, '');
  const closing = closingWords(flat, c.USER_MESSAGE_CLOSING_CHARS, rules);
  if (opening.length + closing.length >= flat.length) return undefined;
  const middle = flat.slice(opening.length, flat.length - closing.length);
  if (middle.trim().length === 0) return undefined;
  const names: string[] = [];
  const add = (n: string) => {
    if (names.length < c.USER_MESSAGE_KEPT_NAMES && !names.includes(n) && middle.includes(n) && !opening.includes(n) && !closing.includes(n)) names.push(n);
  };
  for (const f of analysis?.refs.files ?? []) add(f);
  for (const m of middle.matchAll(ERROR_NAME)) add(m[0]);
  for (const id of analysis?.refs.identifiers ?? []) add(id);
  const kept = names.length > 0 ? ` [names in between: ${names.map(inlineCode).join(', ')}]` : '';
  return `${opening} ${cutMarker(middle.trim().length)} ${closing}${kept}`;
}

/** One line of the opening words, with the cut marker counting what it leaves out (added to
 *  the count an earlier summary's entry already carries); never cut inside one of `whole`. */
export function gistOf(text: string, minChars: number, whole?: WholeTexts): string {
  const marker = CUT_MARKER_PATTERN.exec(text);
  const already = marker ? Number(/\[… ([\d,]+)/.exec(marker[0])![1]!.replace(/,/g, '')) : 0;
  const flat = collapseWhitespace(marker ? text.slice(0, marker.index) : text);
  const opening = openingWords(flat, minChars, whole).replace(/…$/, '');
  const omitted = already + flat.length - opening.length;
  return omitted > 0 ? `${opening} ${cutMarker(omitted)}` : opening;
}

/** For each text (by its shingles; undefined for a short one), the earliest earlier text it
 *  nearly duplicates (its group), if any: the first of the SIMILAR_LOOKBACK texts before it at
 *  the threshold. What a text is matched with depends only on the texts before it, so the
 *  matches of the last run are kept (by the messages the texts come from) and a longer span
 *  that starts with the same texts — the ratio loop giving the kept tail less room, a grown
 *  conversation — compares only its new ones. */
function similarGroups(ctx: BuilderContext, texts: readonly { sm: SpanMessage; read: UserReading }[]): (number | undefined)[] {
  const threshold = ctx.c.USER_MESSAGE_SIMILARITY;
  const shingles = texts.map((t) => t.read.shingles);
  const state = ctx.memo.resume(
    memoSlotWith<(number | undefined)[]>('users.similar', ctx.c),
    texts.map((t) => t.sm.message),
    () => [],
    (first, from) => {
      if (from >= shingles.length) return;
      // A text's match lies among the SIMILAR_LOOKBACK texts before it: those are all the new
      // texts need.
      const lo = Math.max(0, from - SIMILAR_LOOKBACK);
      const found = firstSimilarBefore(shingles.slice(lo), threshold, SIMILAR_LOOKBACK);
      first.length = from;
      for (let i = from; i < shingles.length; i++) {
        const j = found[i - lo];
        first.push(j === undefined ? undefined : j + lo);
      }
    },
  );
  const group: (number | undefined)[] = shingles.map(() => undefined);
  for (let i = 0; i < shingles.length; i++) {
    const j = state[i];
    if (j !== undefined) group[i] = group[j] ?? j;
  }
  return group;
}

/** What one user message gives the section, whatever the span around it: its text as listed,
 *  the key identical messages share (whitespace collapsed), its forms, its gist, and the
 *  shingles near-duplicates are found by. */
interface UserReading {
  text: string;
  key: string;
  base: string[];
  gist: string;
  shingles: Uint32Array | undefined;
  /** The item's key, its forms and its gist as list items (a message listed once). */
  itemKey: string;
  listed: string[];
  listedGist: string;
  /** The person's standing rules in it: no form cuts one. */
  rules: WholeTexts;
}

function readUserMessage(sm: SpanMessage, ctx: BuilderContext): UserReading | undefined {
  const { c } = ctx;
  const text = balanceFences(readableUserText(sm.text).trim());
  if (!text) return undefined;
  const key = collapseWhitespace(text);
  // A pasted document is material the later conversation refers to, and the other sections
  // name it only by its gist: its facts are quoted here, more of them.
  const parts = requestParts(ctx, sm);
  const facts = parts.pasted ? c.USER_MESSAGE_PASTE_FACT_SENTENCES : c.USER_MESSAGE_FACT_SENTENCES;
  // A rule is never cut: a form ends before it (the ledger quotes the person's own) or after it.
  const rules = orNone(ruleSentences(text));
  const base = exactSize(
    distinctForms([
      cutAfter(text, c.USER_MESSAGE_MIN_CHARS, c, rules).text,
      withFacts(text, c.USER_MESSAGE_MID_CHARS, ctx, facts, rules),
      withFacts(text, c.USER_MESSAGE_MAX_CHARS, ctx, facts, rules),
    ]),
  );
  const gist = gistOf(text, c.USER_MESSAGE_GIST_CHARS, rules);
  return {
    text,
    key,
    base,
    gist,
    shingles: key.length >= SIMILAR_MIN_CHARS ? textShingles(key.toLowerCase()) : undefined,
    itemKey: `user:${key}`,
    listed: base.map((f) => listItem(f)),
    listedGist: listItem(gist),
    rules,
  };
}

/** shortenedForm of a message, once per message and analysis (the names it keeps come from the
 *  analysis' references). */
function shortenedOf(ctx: BuilderContext, sm: SpanMessage, text: string, analysis: MessageAnalysis | undefined, rules: WholeTexts): string | undefined {
  // The last references it was made from and what they gave (a message is analyzed once per
  // compaction, or again when its conversation grew): one pair, not a table per message.
  const last = fromMessage(ctx, sm, 'users.shortened', () => ({ at: undefined as object | undefined, value: undefined as string | undefined }));
  const at = analysis?.refs ?? NO_ANALYSIS;
  if (last.at !== at) {
    last.value = shortenedForm(text, analysis, ctx.c, rules);
    last.at = at;
  }
  return last.value;
}

const NO_ANALYSIS = {};

export function buildUserMessages(ctx: BuilderContext): SectionItem[] {
  const { view, c } = ctx;
  const items: SectionItem[] = [];
  if (ctx.previous) {
    items.push(
      ...previousItems(ctx.previous, {
        required: true,
        priority: 0.4,
        keyOf: (t) => `prev:${collapseWhitespace(t)}`,
        shorten: (t) => shortenEntry(t, c.USER_MESSAGE_MIN_CHARS, c, ruleSentences(t)),
      }).map((it) => {
        const text = bulletText(it.forms[it.forms.length - 1]!);
        const whole = ruleSentences(text);
        return { ...it, reduced: { gist: listItem(gistOf(text, c.USER_MESSAGE_GIST_CHARS, whole)), ...(whole.length > 0 ? { whole } : {}) } };
      }),
    );
  }
  // Each distinct message is listed once: its item (what the section gets) and what makes it.
  const byText = new Map<string, UserEntry>();
  const entries: UserEntry[] = [];
  for (const sm of view.messages) {
    if (!sm.userAuthored || sm.summary) continue;
    const read = fromMessage(ctx, sm, 'users.reading', (x) => readUserMessage(x, ctx));
    if (!read) continue;
    const existing = byText.get(read.key);
    if (existing) {
      const it = existing.item;
      const count = ++existing.count;
      it.sourceIds.push(sm.message.id);
      it.forms = existing.read.base.map((f) => listItem(`${f} (×${count})`));
      it.priority = Math.max(it.priority, 0.5 * importanceAt(view, sm.pos) + 0.5 * recency(view, sm.pos));
      continue;
    }
    const item: SectionItem = {
      key: read.itemKey,
      forms: read.listed,
      required: true,
      priority: 0.5 * importanceAt(view, sm.pos) + 0.5 * recency(view, sm.pos),
      order: sm.pos,
      sourceIds: [sm.message.id],
    };
    const entry: UserEntry = { item, count: 1, read, sm };
    byText.set(read.key, entry);
    items.push(item);
    entries.push(entry);
  }
  const groups = similarGroups(ctx, entries);
  entries.forEach((e, i) => {
    const { read, sm } = e;
    const times = e.count > 1 ? ` (×${e.count})` : '';
    const reduced: ReducedForms = { gist: times ? listItem(`${read.gist}${times}`) : read.listedGist };
    if (read.rules.length > 0) reduced.whole = read.rules;
    const shortened = shortenedOf(ctx, sm, read.text, sm.analysis, read.rules);
    if (shortened) reduced.shortened = listItem(`${shortened}${times}`);
    if (sm.analysis?.isAcknowledgement) reduced.acknowledgement = `“${oneLine(read.text, 40)}”${times}`;
    const g = groups[i];
    if (g !== undefined) {
      reduced.similar = entries[g]!.item.key;
      // The group's first message is marked too (its reduced forms were made before: g < i).
      entries[g]!.item.reduced!.similar = entries[g]!.item.key;
    }
    e.item.reduced = reduced;
  });
  return items;
}

/** A distinct user message of the span: its item, how many times it was sent, its reading. */
interface UserEntry {
  item: SectionItem;
  count: number;
  read: UserReading;
  sm: SpanMessage;
}
