// Relevance: how much a message bears on the current work and on the focus the
// user asked for ("/compact focus on the auth bug", a named stage such as "testing").
//
// Current work = the last `currentRounds` rounds (at most CURRENT_WINDOW_MAX_MESSAGES trailing
// messages). Messages inside it score 1. Earlier ones score by what they share with it:
//   min(shared terms / RELEVANCE_TERM_SATURATION, 1) · RELEVANCE_TERM_WEIGHT
// + min(shared files, identifiers, errors / RELEVANCE_REF_SATURATION, 1) · RELEVANCE_REF_WEIGHT
// where terms are subject words (no stopwords; CJK bigrams) and terms present in more than
// RELEVANCE_MAX_DOC_FREQ of all messages are ignored (in a coding session "file" and "test" are
// everywhere and say nothing).
//
// With a focus: relevance = RELEVANCE_CURRENT_WEIGHT · current + RELEVANCE_FOCUS_WEIGHT · focus.
// A named focus scores role keywords present / role keywords, and stage pattern
// matches / FOCUS_STAGE_SATURATION, weighted FOCUS_ROLE_WEIGHT : FOCUS_STAGE_WEIGHT. A free-text
// focus scores the share of its terms the message contains.

import { computeRounds } from '../conversation/views';
import type { Message } from '../conversation/model';
import { compileKeywords, type KeywordMatcher } from '../text/keywordMatcher';
import { contentTerms } from '../text/terms';
import type { FocusName, ParsedFocus } from './analysis';
import type { AnalyzeConstants } from './constants';
import { stageListName, type ContentScan } from './contentScan';
import { FOCUS_ALIASES, FOCUS_NAMES, FOCUS_ROLE_KEYWORDS } from './keywords';

export type Focus = ParsedFocus;

/** Words that ask for a focus rather than name one. */
const FOCUS_FILLER = /\b(?:focus(?:ed|ing)?|on|about|mainly|especially|please|keep|the|details?)\b|重点关注|关注|重点|聚焦|集中|侧重|请|主要|尤其是|尤其/g;

const roleMatchers = new Map<FocusName, KeywordMatcher[]>(FOCUS_NAMES.map((f) => [f, FOCUS_ROLE_KEYWORDS[f].map(compileKeywords)]));

/** Read AnalyzeOptions.focus: a named focus (English or Chinese alias), free text, or none. */
export function parseFocus(focus: string | undefined, c: AnalyzeConstants): Focus | undefined {
  if (typeof focus !== 'string') return undefined;
  const text = focus.trim();
  if (!text) return undefined;
  const lower = text.toLowerCase();
  const stripped = lower
    .replace(FOCUS_FILLER, ' ')
    .replace(/[\s:：,，.。]+/g, ' ')
    .trim();
  const alias = FOCUS_ALIASES[stripped] ?? FOCUS_ALIASES[lower];
  if (alias) return { kind: 'named', name: alias, text };
  const terms = [...contentTerms(stripped, c.TERM_MIN_LENGTH)];
  if (terms.length === 0) return undefined;
  return { kind: 'free', text, terms };
}

/** 0..1: how well one message (lower-cased text, its content scan and subject terms) matches the focus. */
export function focusScore(lower: string, scan: ContentScan, terms: ReadonlySet<string>, focus: Focus, c: AnalyzeConstants): number {
  if (focus.kind === 'named') {
    const roles = roleMatchers.get(focus.name)!;
    let present = 0;
    for (const m of roles) if (m.has(lower)) present++;
    const role = roles.length > 0 ? present / roles.length : 0;
    const stage = Math.min(scan.counts[stageListName(focus.name)] / c.FOCUS_STAGE_SATURATION, 1);
    const total = c.FOCUS_ROLE_WEIGHT + c.FOCUS_STAGE_WEIGHT;
    return total > 0 ? Math.min(1, (role * c.FOCUS_ROLE_WEIGHT + stage * c.FOCUS_STAGE_WEIGHT) / total) : 0;
  }
  let hit = 0;
  for (const t of focus.terms) {
    // Four letters or more also match inside longer words: "auth" in "authentication".
    if (terms.has(t) || (t.length >= 4 && lower.includes(t))) hit++;
  }
  return focus.terms.length > 0 ? hit / focus.terms.length : 0;
}

/** First message index of the current work: the last `currentRounds` rounds, at most
 *  CURRENT_WINDOW_MAX_MESSAGES messages. `messages.length` when there is none. */
export function currentWindowStart(messages: readonly Message[], currentRounds: number, c: AnalyzeConstants): number {
  const n = messages.length;
  if (currentRounds <= 0 || n === 0) return n;
  const rounds = computeRounds(messages);
  if (rounds.length === 0) return n;
  const start = rounds[Math.max(0, rounds.length - currentRounds)]!.start;
  return Math.max(start, n - c.CURRENT_WINDOW_MAX_MESSAGES);
}

/** Which of the messages scanned carry each term and each reference key (a message once per
 *  time it lists it), and the terms carried by more than RELEVANCE_MAX_DOC_FREQ of them (kept
 *  as the messages grow: a term's share only changes when a message carrying it comes, or when
 *  the limit rises past it). */
export interface TermFrequencyScan<T> {
  termPostings: Map<T, Postings>;
  keyPostings: Map<string, Postings>;
  frequent: Set<T>;
}

/** The messages carrying a term or key, in order: one alone as itself (most terms and keys of a
 *  long conversation are one message's, and a list for each was most of the scan's memory). */
type Postings = number | number[];

function postingCount(p: Postings): number {
  return typeof p === 'number' ? 1 : p.length;
}

function postingList(p: Postings): readonly number[] {
  return typeof p === 'number' ? [p] : p;
}

export function termFrequencyScan<T>(): TermFrequencyScan<T> {
  return { termPostings: new Map(), keyPostings: new Map(), frequent: new Set() };
}

function post<K>(postings: Map<K, Postings>, k: K, i: number): void {
  const list = postings.get(k);
  if (list === undefined) postings.set(k, i);
  else if (typeof list === 'number') postings.set(k, [list, i]);
  else list.push(i);
}

/** Scans termSets[from…] and refKeys[from…] into `scan` (the messages before `from` were
 *  scanned into it already). */
export function advanceTermFrequencies<T>(
  scan: TermFrequencyScan<T>,
  termSets: readonly Iterable<T>[],
  refKeys: readonly (readonly string[])[],
  from: number,
  c: AnalyzeConstants,
): void {
  const { termPostings, keyPostings, frequent } = scan;
  const n = termSets.length;
  const limit = c.RELEVANCE_MAX_DOC_FREQ * n;
  // Terms whose count changed (all of them, on a first scan).
  const changed: T[] | undefined = from === 0 ? undefined : [];
  for (let i = from; i < n; i++) {
    for (const t of termSets[i]!) {
      post(termPostings, t, i);
      changed?.push(t);
    }
    for (const k of refKeys[i]!) post(keyPostings, k, i);
  }
  // A term not frequent before whose count did not change stays below the (risen) limit.
  for (const t of frequent) if (postingCount(termPostings.get(t)!) <= limit) frequent.delete(t);
  for (const t of changed ?? termPostings.keys()) if (postingCount(termPostings.get(t)!) > limit) frequent.add(t);
}

/** Current-work relevance of every message (see the header). A message's terms are any
 *  distinct values (the terms, or numbers standing for them). `scan`, when given, is a
 *  term-frequency scan of all of termSets and refKeys. */
export function currentRelevance<T>(
  termSets: readonly Iterable<T>[],
  refKeys: readonly (readonly string[])[],
  windowStart: number,
  c: AnalyzeConstants,
  scan?: TermFrequencyScan<T>,
): number[] {
  const n = termSets.length;
  if (!scan) {
    scan = termFrequencyScan<T>();
    advanceTermFrequencies(scan, termSets, refKeys, 0, c);
  }
  const ignored: ReadonlySet<T> = n >= c.RELEVANCE_DOC_FREQ_MIN_MESSAGES ? scan.frequent : new Set<T>();
  const currentTerms = new Set<T>();
  const currentKeys = new Set<string>();
  for (let i = windowStart; i < n; i++) {
    for (const t of termSets[i]!) if (!ignored.has(t)) currentTerms.add(t);
    for (const k of refKeys[i]!) currentKeys.add(k);
  }
  // What each earlier message shares with the current work, read from the postings of the
  // current terms and keys (a term in the window is rare: frequent ones are ignored).
  const sharedTerms = new Int32Array(n);
  for (const t of currentTerms) for (const i of postingList(scan.termPostings.get(t)!)) if (i < windowStart) sharedTerms[i]!++;
  const sharedKeys = new Int32Array(n);
  for (const k of currentKeys) for (const i of postingList(scan.keyPostings.get(k)!)) if (i < windowStart) sharedKeys[i]!++;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    if (i >= windowStart) {
      out[i] = 1;
      continue;
    }
    out[i] = Math.min(
      1,
      Math.min(sharedTerms[i]! / c.RELEVANCE_TERM_SATURATION, 1) * c.RELEVANCE_TERM_WEIGHT +
        Math.min(sharedKeys[i]! / c.RELEVANCE_REF_SATURATION, 1) * c.RELEVANCE_REF_WEIGHT,
    );
  }
  return out;
}

/** Combine current-work relevance with the focus score (when there is a focus). */
export function combinedRelevance(current: number, focus: number | undefined, c: AnalyzeConstants): number {
  if (focus === undefined) return current;
  return Math.min(1, c.RELEVANCE_CURRENT_WEIGHT * current + c.RELEVANCE_FOCUS_WEIGHT * focus);
}
