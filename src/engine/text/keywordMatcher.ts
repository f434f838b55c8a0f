// Keyword lists compiled once into one regular expression each, matched on lower-cased text.
//
// The reference designs match substrings ("is" inside "this"). Here English terms match whole
// words: no letter may touch either side (digits, "_" and punctuation may). A term ending in
// "*" is a stem ("fail*" matches fail, failed, failure). A space matches any whitespace run
// ("need to"), a ":" matches ASCII or full-width colon with optional space before it.
// Chinese (or any CJK) terms match as plain substrings: the script has no word separators.

import { CJK_CHAR, hasCjk } from './terms';

export interface KeywordSpec {
  /** English terms, lower case: "word", "stem*", "two words", "rule:". */
  en?: readonly string[];
  /** CJK terms, matched as substrings; ":" matches ":" or "：". */
  zh?: readonly string[];
}

export interface KeywordMatcher {
  /** Number of (non-overlapping) matches in `lower`, which must already be lower-cased. */
  count(lower: string): number;
  /** Distinct matched texts, in order of first appearance (whitespace collapsed). */
  matches(lower: string): string[];
  has(lower: string): boolean;
  /** The spec terms (as written in the spec) that occur at least once, in spec order. */
  matchedTerms(lower: string): string[];
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;

function escape(s: string): string {
  return s.replace(REGEX_SPECIAL, '\\$&');
}

/** One alternative of a keyword expression: its leading literal characters (escaped one by
 *  one), then the rest of its source (whitespace, stem and colon patterns, further words). */
interface Alternative {
  chars: readonly string[];
  rest: string;
}

function englishAlternative(term: string): Alternative {
  let stem = false;
  let t = term.trim().toLowerCase();
  if (t.endsWith('*')) {
    stem = true;
    t = t.slice(0, -1);
  }
  let colon = false;
  if (t.endsWith(':')) {
    colon = true;
    t = t.slice(0, -1);
  }
  const [first = '', ...more] = t.split(/\s+/);
  let rest = more.map((part) => `\\s+${escape(part)}`).join('');
  if (stem) rest += '[a-z]*';
  if (colon) rest += '\\s*[:：]';
  return { chars: [...first].map(escape), rest };
}

function chineseAlternative(term: string): Alternative {
  const [first = '', ...more] = term.split(/[:：]/);
  return { chars: [...first].map(escape), rest: more.map((part) => `\\s*[:：]${escape(part)}`).join('') };
}

function sourceOf(a: Alternative): string {
  return a.chars.join('') + a.rest;
}

function englishSource(term: string): string {
  return sourceOf(englishAlternative(term));
}

function chineseSource(term: string): string {
  return sourceOf(chineseAlternative(term));
}

/**
 * The alternatives as one alternation, their common leading characters written once
 * ("fail[a-z]*|fix" → "f(?:ail[a-z]*|ix)"): the engine then tries a handful of branches at each
 * position instead of every term. It matches what the plain alternation matches, the same text
 * at the same place: at one position, alternatives whose next literal characters differ cannot
 * both match, so they may change order; an alternative whose literal characters end there (a
 * stem, a space, the end) may match along with any other, so nothing moves across it.
 */
function factored(alternatives: readonly Alternative[], depth = 0): string {
  const out: string[] = [];
  let run = new Map<string, Alternative[]>();
  const flush = () => {
    for (const [char, group] of run) {
      out.push(group.length === 1 ? sourceOf({ chars: group[0]!.chars.slice(depth), rest: group[0]!.rest }) : `${char}(?:${factored(group, depth + 1)})`);
    }
    run = new Map();
  };
  for (const a of alternatives) {
    const char = a.chars[depth];
    if (char === undefined) {
      flush();
      out.push(a.rest);
    } else {
      const group = run.get(char);
      if (group) group.push(a);
      else run.set(char, [a]);
    }
  }
  flush();
  return out.join('|');
}

/** Longest first, so "thank you" wins over "thank" and "决定：" over "决定". */
function byLengthDesc(a: string, b: string): number {
  return b.length - a.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The expression of a spec; with `cjk` false, without the terms that start with a CJK character
 *  (keywordExpression). */
export function keywordSource(spec: KeywordSpec, cjk = true): string {
  const parts: string[] = [];
  const terms = [...new Set(spec.en ?? [])].sort(byLengthDesc);
  // Word terms share one pair of boundaries; terms starting or ending in a symbol ("<pin>",
  // "!!!complete!!!", "decision:") get a boundary only on their letter sides.
  const wordy = terms.filter((t) => /^[a-z0-9]/.test(t) && /[a-z0-9*]$/.test(t));
  const symbolic = terms.filter((t) => !wordy.includes(t));
  if (wordy.length > 0) parts.push(`(?<![a-z])(?:${factored(wordy.map(englishAlternative))})(?![a-z])`);
  for (const t of symbolic) {
    const before = /^[a-z0-9]/.test(t) ? '(?<![a-z])' : '';
    const after = /[a-z0-9*]$/.test(t) ? '(?![a-z])' : '';
    parts.push(`${before}${englishSource(t)}${after}`);
  }
  const zh = [...new Set(spec.zh ?? [])]
    .filter((t) => cjk || !CJK_CHAR.test(t.charAt(0)))
    .sort(byLengthDesc)
    .map(chineseAlternative);
  if (zh.length > 0) parts.push(`(?:${factored(zh)})`);
  return parts.length > 0 ? parts.join('|') : '(?!)';
}

/**
 * A spec's expression for a text: the whole one, or, for a text without a CJK character (most
 * texts), the one without the terms that start with one, which could not match there — the
 * same matches, found several times faster (the engine cannot skip ahead past positions where
 * an alternation of CJK characters might start).
 */
function keywordExpression(spec: KeywordSpec, flags: string): (lower: string) => RegExp {
  const fullSource = keywordSource(spec);
  const latinSource = keywordSource(spec, false);
  const full = new RegExp(fullSource, flags);
  if (latinSource === fullSource) return () => full;
  const latin = new RegExp(latinSource, flags);
  return (lower) => (hasCjk(lower) ? full : latin);
}

export function compileKeywords(spec: KeywordSpec): KeywordMatcher {
  const globalFor = keywordExpression(spec, 'g');
  const singleFor = keywordExpression(spec, '');
  // Each term alone, anchored: maps a matched text back to the term that produced it.
  const terms = [...new Set([...(spec.en ?? []), ...(spec.zh ?? [])])];
  const anchored = terms.map((t) => new RegExp(`^(?:${(spec.en ?? []).includes(t) ? englishSource(t) : chineseSource(t)})$`));
  const termOf = (text: string): number => {
    // Prefer the longest term that matches the whole text ("thank you" over "thank").
    let best = -1;
    for (let i = 0; i < anchored.length; i++) {
      if (anchored[i]!.test(text) && (best < 0 || terms[i]!.length > terms[best]!.length)) best = i;
    }
    return best;
  };
  return {
    matchedTerms(lower) {
      const global = globalFor(lower);
      global.lastIndex = 0;
      const texts = new Set<string>();
      for (let m = global.exec(lower); m !== null; m = global.exec(lower)) texts.add(m[0]);
      const found = new Set<number>();
      for (const t of texts) {
        const i = termOf(t);
        if (i >= 0) found.add(i);
      }
      return [...found].sort((a, b) => a - b).map((i) => terms[i]!);
    },
    count(lower) {
      const global = globalFor(lower);
      global.lastIndex = 0;
      let n = 0;
      while (global.exec(lower) !== null) n++;
      return n;
    },
    matches(lower) {
      const global = globalFor(lower);
      global.lastIndex = 0;
      const seen = new Set<string>();
      for (let m = global.exec(lower); m !== null; m = global.exec(lower)) seen.add(m[0].replace(/\s+/g, ' '));
      return [...seen];
    },
    has(lower) {
      return singleFor(lower).test(lower);
    },
  };
}

/** Merge several specs into one (e.g. the three pattern groups of one content type). */
export function mergeSpecs(...specs: KeywordSpec[]): KeywordSpec {
  return {
    en: specs.flatMap((s) => s.en ?? []),
    zh: specs.flatMap((s) => s.zh ?? []),
  };
}

/** Counts of every list of a lexicon in one text, and the distinct texts each list matched. */
export interface LexiconScan<K extends string> {
  counts: Record<K, number>;
  /** Distinct matched texts of one list, in order of first appearance (whitespace collapsed). */
  matches(name: K): string[];
  has(name: K): boolean;
}

export interface Lexicon<K extends string> {
  scan(lower: string): LexiconScan<K>;
}

/** How many distinct matched texts a lexicon remembers the list membership of. */
const MEMBERSHIP_CACHE_LIMIT = 20000;

/**
 * Many keyword lists matched in ONE pass over a text: a union expression finds every keyword
 * of every list; which lists a matched text belongs to is decided once per distinct text (and
 * cached). A list counts a match when one of its own terms matches at the start of the matched
 * text, so "need to" counts for a list holding "need" as for one holding "need to". Equal to
 * matching each list on its own, except where one list's term begins inside another list's
 * longer match (rare, and never across English word boundaries).
 */
export function compileLexicon<K extends string>(lists: Readonly<Record<K, KeywordSpec>>): Lexicon<K> {
  const names = Object.keys(lists) as K[];
  const unionFor = keywordExpression(mergeSpecs(...names.map((n) => lists[n])), 'g');
  const anchored = names.map((n) => new RegExp(keywordSource(lists[n]), 'y'));
  const index = new Map<K, number>(names.map((n, i) => [n, i]));
  const membership = new Map<string, number[]>();
  const membersOf = (text: string): number[] => {
    let m = membership.get(text);
    if (m === undefined) {
      m = [];
      for (let i = 0; i < anchored.length; i++) {
        const re = anchored[i]!;
        re.lastIndex = 0;
        if (re.test(text)) m.push(i);
      }
      if (membership.size >= MEMBERSHIP_CACHE_LIMIT) membership.clear();
      membership.set(text, m);
    }
    return m;
  };
  return {
    scan(lower) {
      const counts = new Array<number>(names.length).fill(0);
      const texts: (Set<string> | undefined)[] = new Array(names.length);
      const union = unionFor(lower);
      union.lastIndex = 0;
      for (let m = union.exec(lower); m !== null; m = union.exec(lower)) {
        const text = m[0];
        for (const i of membersOf(text)) {
          counts[i]!++;
          (texts[i] ??= new Set()).add(text);
        }
      }
      const record = {} as Record<K, number>;
      names.forEach((n, i) => (record[n] = counts[i]!));
      return {
        counts: record,
        has: (name) => record[name] > 0,
        matches: (name) => {
          const s = texts[index.get(name)!];
          return s ? [...new Set([...s].map((t) => t.replace(/\s+/g, ' ')))] : [];
        },
      };
    },
  };
}
