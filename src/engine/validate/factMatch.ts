// Whether a fact is present in a text: the one rule the loss detector and merge-back share, so
// merge-back restores exactly the facts the loss report would list as missing.
//
// Present means the fact's text appears in the text with case and runs of whitespace folded,
// and each end of it that is a word character sits at a word boundary — except where the kind
// of fact says an end may run on:
//   file paths, error signatures, pending tasks  both ends whole ("a.ts" is not in "data.ts")
//   user messages                                 the start whole, and only the opening (its
//                                                 first USER_MESSAGE_MATCH_CHARS, to a space):
//                                                 the summary lists the message, the archive
//                                                 keeps it whole; a fact is often an opening cut
//                                                 mid-word already
//   keywords                                      the start whole; any inflection counts
//                                                 ("fail" in "failed")
//   technical terms, numbers                      anywhere (how the loss figures have always
//                                                 been measured; a stricter rule would move
//                                                 every retention figure and the ratio
//                                                 controller's choices with them)
// CJK scripts have no word boundaries: an end in them never needs one.
//
// Many facts against one long text (the loss report over a whole result) go through an index of
// the text's tokens instead of one search of the whole text per fact: see presentFacts.

import type { Fact, FactKind } from '../result';
import { forEachToken, isCjkCode, isWordChar, type TokenizedText } from './factTokens';

/** A run of whitespace that is not one plain space: what normalizeForMatch collapses. A single
 *  space stays as it is, so a text already in normal form is given back as it is (lower-casing
 *  and trimming give back a string they do not change), not copied: the normal forms kept for
 *  every message and fact share the original's characters. */
const WHITESPACE_TO_COLLAPSE = /\s\s+|(?! )\s/g;

/** Lower-cased, whitespace collapsed: how facts and texts are compared. */
export function normalizeForMatch(text: string): string {
  return text.toLowerCase().replace(WHITESPACE_TO_COLLAPSE, ' ').trim();
}

/** normalizeForMatch of texts joined by newlines, from each text normalized on its own: the
 *  same string (whitespace runs across the joins collapse to one space; lower-casing reads no
 *  context across a newline), so a caller can keep each text's normal form. */
export function joinNormalized(parts: readonly string[]): string {
  let out = '';
  for (const p of parts) if (p) out = out ? `${out} ${p}` : p;
  return out;
}

/** Characters of a long user message that must appear, from its start. */
export const USER_MESSAGE_MATCH_CHARS = 160;

type Ends = 'both' | 'start' | 'none';

const ENDS: Record<FactKind, Ends> = {
  filePath: 'both',
  errorSignature: 'both',
  pendingTask: 'both',
  userMessage: 'start',
  keyword: 'start',
  technicalTerm: 'none',
  number: 'none',
};

/** Whether `needle` occurs in `haystack` (both normalized), with the ends `ends` asks for at word boundaries. */
function occurs(haystack: string, needle: string, ends: Ends): boolean {
  if (!needle) return true;
  if (ends === 'none') return haystack.includes(needle);
  const left = isWordChar(needle.charAt(0));
  const right = ends === 'both' && isWordChar(needle.charAt(needle.length - 1));
  for (let from = 0; ;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return false;
    if ((!left || !isWordChar(at > 0 ? haystack.charAt(at - 1) : '')) && (!right || !isWordChar(haystack.charAt(at + needle.length)))) return true;
    from = at + 1;
  }
}

/** The normalized text a fact must be found as. */
function needleOf(fact: Fact): string {
  const v = normalizeForMatch(fact.value);
  if (fact.kind !== 'userMessage' || v.length <= USER_MESSAGE_MATCH_CHARS) return v;
  const cut = v.lastIndexOf(' ', USER_MESSAGE_MATCH_CHARS);
  return v.slice(0, cut > USER_MESSAGE_MATCH_CHARS / 2 ? cut : USER_MESSAGE_MATCH_CHARS);
}

/** Whether the fact appears in `normalizedText` (already passed through normalizeForMatch). */
export function factPresent(fact: Fact, normalizedText: string): boolean {
  return occurs(normalizedText, needleOf(fact), ENDS[fact.kind]);
}

/** The facts (in the given order, each kind and value once) that `text` lacks. */
export function missingFacts(facts: readonly Fact[], text: string): Fact[] {
  const present = presentFacts(facts, normalizeForMatch(text));
  const seen = new Set<string>();
  const out: Fact[] = [];
  facts.forEach((f, i) => {
    const key = `${f.kind}\u0000${f.value}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (!present[i]) out.push(f);
  });
  return out;
}

// ── Many facts, one text ─────────────────────────────────────────────────────────────────
// The text is read once as tokens: runs of word characters, and each CJK character alone. A
// needle's "anchor" is a token the needle holds whole — bounded inside the needle by non-word
// characters, or at an end of the needle where its rule asks for a word boundary, or a CJK
// character — so wherever the needle occurs as its rule asks, the text has that very token at
// the matching place. Each needle is checked only where its rarest anchor occurs in the text.
// A needle with no anchor (a single word that may run on, a number, a term) is searched for
// directly; there are few of them (terms and numbers are capped, keywords are a fixed list).

interface Needle {
  text: string;
  ends: Ends;
}

/** The facts' needles, read once per facts array (the ratio loop checks the same facts against
 *  each attempt): each needle's anchors as ids of distinct token hashes, flat. */
interface Needles {
  length: number;
  needles: Needle[];
  /** The id of each distinct anchor hash. */
  ids: Map<number, number>;
  /** The numbering `ids` continues (see Lineage). */
  lineage: Lineage;
  /** Needle k's anchors are anchorId / anchorOffset [anchorStart[k], anchorStart[k + 1]). */
  anchorStart: Int32Array;
  anchorId: Int32Array;
  anchorOffset: Int32Array;
  /** The first needle with the same text and ends (it is answered once). */
  first: Int32Array;
  /** The needles (first of their alike) with no anchor and no space: none can run across the
   *  space that joins two text parts, so each is searched for part by part (anchorlessIn). */
  anchorless: number[];
  /** How many texts were checked for these needles: from the second on, what each text part
   *  holds is kept (partHits, anchorlessIn) — needles checked once are not worth keeping for. */
  checks: number;
}

/** What a fact is searched for, read once per fact object (a message's facts are the same
 *  objects from one span to the next): its needle, the key of needles alike, its anchors. */
interface NeedleInfo extends Needle {
  /** Each anchor as its hash (a signed 32-bit number: a map key V8 keeps unboxed) and its
   *  offset in the needle, in pairs: one small array per fact. */
  anchors: number[];
  /** Its anchors' ids in the numbering of `lineage`, once a prepare of that lineage met it:
   *  where that prepare wrote them (the ids of all its needles, from `idsAt` on). */
  lineage: Lineage | undefined;
  idsIn: Int32Array | undefined;
  idsAt: number;
}

/** A numbering of anchor hashes that the needles prepared one after another share: each new
 *  facts array (the ratio loop's next span, a grown conversation) is given a copy of the last
 *  array's ids, extended by the hashes it adds, so a fact met before keeps its anchors' ids and
 *  is not looked up again. `size`: how many ids the newest needles of the lineage hold; needles
 *  with fewer (older ones, prepared again from) start a lineage of their own, so one number never
 *  stands for two hashes within a lineage. */
interface Lineage {
  size: number;
}

const NEEDLES = new WeakMap<Fact, NeedleInfo>();
const NO_ANCHORS: number[] = [];

function needleInfo(fact: Fact): NeedleInfo {
  let info = NEEDLES.get(fact);
  if (info) return info;
  const text = needleOf(fact);
  const ends = ENDS[fact.kind];
  const anchors: number[] = [];
  if (text) {
    const leftWhole = ends !== 'none';
    const rightWhole = ends === 'both';
    forEachToken(text, (start, end, hash) => {
      const cjk = end === start + 1 && isCjkCode(text.charCodeAt(start));
      if (!(cjk || ((start > 0 || leftWhole) && (end < text.length || rightWhole)))) return;
      anchors.push(hash | 0, start);
    });
  }
  info = { text, ends, anchors: anchors.length === 0 ? NO_ANCHORS : anchors.slice(), lineage: undefined, idsIn: undefined, idsAt: 0 };
  NEEDLES.set(fact, info);
  return info;
}

function prepare(facts: readonly Fact[], base: Needles | undefined): Needles {
  const needles: NeedleInfo[] = [];
  // The ids the last needles gave their hashes, kept (on a copy: those needles stay as they were).
  const continues = base !== undefined && base.ids.size === base.lineage.size;
  const ids = continues ? new Map(base.ids) : new Map<number, number>();
  const lineage: Lineage = continues ? base.lineage : { size: 0 };
  const anchorStart = new Int32Array(facts.length + 1);
  const first = new Int32Array(facts.length);
  // Needles alike (the same text with the same ends) are answered once.
  const byText: Record<Ends, Map<string, number>> = { both: new Map(), start: new Map(), none: new Map() };
  let total = 0;
  for (let k = 0; k < facts.length; k++) {
    const info = needleInfo(facts[k]!);
    needles.push(info);
    anchorStart[k] = total;
    const alike = byText[info.ends];
    const same = alike.get(info.text);
    first[k] = same ?? k;
    if (same !== undefined) continue;
    alike.set(info.text, k);
    total += info.anchors.length / 2;
  }
  anchorStart[facts.length] = total;
  const anchorId = new Int32Array(total);
  const anchorOffset = new Int32Array(total);
  for (let k = 0; k < facts.length; k++) {
    if (first[k] !== k) continue;
    const info = needles[k]!;
    const anchors = info.anchors;
    if (anchors.length === 0) continue;
    const at = anchorStart[k]!;
    const known = info.lineage === lineage ? info.idsIn : undefined;
    if (known) {
      for (let j = 0, from = info.idsAt; j < anchors.length / 2; j++) anchorId[at + j] = known[from + j]!;
    } else {
      for (let a = 0, j = at; a < anchors.length; a += 2, j++) {
        const hash = anchors[a]!;
        let id = ids.get(hash);
        if (id === undefined) ids.set(hash, (id = ids.size));
        anchorId[j] = id;
      }
    }
    // Found here from now on (the array lives as long as a needle that points into it).
    info.lineage = lineage;
    info.idsIn = anchorId;
    info.idsAt = at;
    for (let a = 1, j = at; a < anchors.length; a += 2, j++) anchorOffset[j] = anchors[a]!;
  }
  lineage.size = ids.size;
  const anchorless: number[] = [];
  for (let k = 0; k < facts.length; k++) {
    if (first[k] === k && needles[k]!.text && anchorStart[k] === anchorStart[k + 1] && !needles[k]!.text.includes(' ')) anchorless.push(k);
  }
  return { length: facts.length, needles, ids, lineage, anchorStart, anchorId, anchorOffset, first, anchorless, checks: 0 };
}

/** Whether `needle` occurs at `at` in `hay` with the ends its rule asks for. */
function occursAt(hay: string, needle: string, ends: Ends, at: number): boolean {
  if (at < 0 || !hay.startsWith(needle, at)) return false;
  if (ends === 'none') return true;
  if (isWordChar(needle.charAt(0)) && isWordChar(at > 0 ? hay.charAt(at - 1) : '')) return false;
  return !(ends === 'both' && isWordChar(needle.charAt(needle.length - 1)) && isWordChar(hay.charAt(at + needle.length)));
}

const prepared = new WeakMap<readonly Fact[], Needles>();
/** The needles last prepared: a new facts array with the same needles in the same order (the
 *  span's facts read again when the conversation grew) is given them, and with them the anchors
 *  each text part was found to hold (partHits). */
let lastPrepared: WeakRef<Needles> | undefined;

function needlesOf(facts: readonly Fact[]): Needles {
  const hit = prepared.get(facts);
  if (hit && hit.length === facts.length) return hit;
  const last = lastPrepared?.deref();
  const same = (f: Fact, k: number) => {
    const info = needleInfo(f);
    return info.text === last!.needles[k]!.text && info.ends === last!.needles[k]!.ends;
  };
  const made = last && last.length === facts.length && facts.every(same) ? last : prepare(facts, last);
  prepared.set(facts, made);
  lastPrepared = new WeakRef(made);
  return made;
}

/** Where each anchor id occurs in a text: positions[start[id] .. start[id + 1]), ascending. */
interface AnchorPositions {
  start: Int32Array;
  positions: Int32Array;
}

/** The positions of the anchors of `n` in the text whose anchors `each` gives in order. */
function anchorPositions(n: Needles, each: (anchor: (start: number, id: number) => void) => void): AnchorPositions {
  let hitIds = new Int32Array(1024);
  let hitAt = new Int32Array(1024);
  let hits = 0;
  each((start, id) => {
    if (hits === hitIds.length) {
      const grownIds = new Int32Array(hits * 2);
      grownIds.set(hitIds);
      hitIds = grownIds;
      const grownAt = new Int32Array(hits * 2);
      grownAt.set(hitAt);
      hitAt = grownAt;
    }
    hitIds[hits] = id;
    hitAt[hits++] = start;
  });
  // A counting sort by id keeps each id's positions in text order.
  const start = new Int32Array(n.ids.size + 1);
  for (let k = 0; k < hits; k++) start[hitIds[k]! + 1]!++;
  for (let id = 0; id < n.ids.size; id++) start[id + 1]! += start[id]!;
  const fill = start.slice(0, n.ids.size);
  const positions = new Int32Array(hits);
  for (let k = 0; k < hits; k++) positions[fill[hitIds[k]!]!++] = hitAt[k]!;
  return { start, positions };
}

/** The anchors of `n` a text part holds, as [id, start] pairs: kept per part for the needles
 *  last looked for in it (the kept messages of a result are checked again at every plan). */
const PART_HITS = new WeakMap<TokenizedText, { ids: Map<number, number>; hits: Int32Array }>();

function partHits(n: Needles, p: TokenizedText): Int32Array {
  const kept = PART_HITS.get(p);
  if (kept?.ids === n.ids) return kept.hits;
  const out: number[] = [];
  const t = p.tokens;
  for (let k = 0; k < t.length; k += 2) {
    const id = n.ids.get(t[k + 1]! | 0);
    if (id !== undefined) out.push(id, t[k]!);
  }
  const hits = Int32Array.from(out);
  PART_HITS.set(p, { ids: n.ids, hits });
  return hits;
}

/** The needles of n.anchorless a text part holds: kept per part for the needles last looked
 *  for in it. */
const PART_ANCHORLESS = new WeakMap<TokenizedText, { n: Needles; found: readonly number[] }>();

function anchorlessIn(n: Needles, p: TokenizedText): readonly number[] {
  const kept = PART_ANCHORLESS.get(p);
  if (kept?.n === n) return kept.found;
  const found = n.anchorless.filter((k) => occurs(p.text, n.needles[k]!.text, n.needles[k]!.ends));
  PART_ANCHORLESS.set(p, { n, found });
  return found;
}

/** For each fact, whether it appears in `normalizedText` (already passed through
 *  normalizeForMatch): the same answers as factPresent, in time linear in the text and the facts.
 *  `parts`, when given, are the texts normalizedText joins (joinNormalized) with their tokens:
 *  no token crosses the space between two parts, so the text's tokens are theirs, shifted. */
export function presentFacts(facts: readonly Fact[], normalizedText: string, parts?: readonly TokenizedText[]): boolean[] {
  const n = needlesOf(facts);
  const again = parts !== undefined && n.checks++ > 0;
  let at: AnchorPositions | undefined;
  if (n.ids.size > 0 && parts) {
    at = anchorPositions(n, (anchor) => {
      let end = -1;
      for (const p of parts) {
        if (!p.text) continue;
        const offset = end < 0 ? 0 : end + 1;
        if (again) {
          const h = partHits(n, p);
          for (let k = 0; k < h.length; k += 2) anchor(offset + h[k + 1]!, h[k]!);
        } else {
          const t = p.tokens;
          for (let k = 0; k < t.length; k += 2) {
            const id = n.ids.get(t[k + 1]! | 0);
            if (id !== undefined) anchor(offset + t[k]!, id);
          }
        }
        end = offset + p.text.length;
      }
    });
  } else if (n.ids.size > 0) {
    at = anchorPositions(n, (anchor) =>
      forEachToken(normalizedText, (start, _end, hash) => {
        const id = n.ids.get(hash | 0);
        if (id !== undefined) anchor(start, id);
      }),
    );
  }
  // Needles with no anchor, found part by part (a part's own text bounds a needle's ends as
  // the joined text does: by the space between parts, or by nothing).
  let inParts: Set<number> | undefined;
  if (again && n.anchorless.length > 0) {
    inParts = new Set();
    for (const p of parts) if (p.text) for (const k of anchorlessIn(n, p)) inParts.add(k);
  }
  const found = new Array<boolean>(facts.length);
  for (let k = 0; k < facts.length; k++) {
    const f = n.first[k]!;
    if (f !== k) {
      found[k] = found[f]!;
      continue;
    }
    const needle = n.needles[k]!;
    if (!needle.text) {
      found[k] = true;
      continue;
    }
    const a0 = n.anchorStart[k]!;
    const a1 = n.anchorStart[k + 1]!;
    if (a0 === a1 || !at) {
      found[k] = inParts && !needle.text.includes(' ') ? inParts.has(k) : occurs(normalizedText, needle.text, needle.ends);
      continue;
    }
    // Wherever the needle occurs, each of its anchors does too: look only where the rarest is.
    let best = a0;
    let fewest = Number.POSITIVE_INFINITY;
    for (let a = a0; a < a1; a++) {
      const id = n.anchorId[a]!;
      const count = at.start[id + 1]! - at.start[id]!;
      if (count < fewest) {
        fewest = count;
        best = a;
      }
    }
    const id = n.anchorId[best]!;
    const shift = n.anchorOffset[best]!;
    let hit = false;
    for (let p = at.start[id]!; p < at.start[id + 1]!; p++) {
      if (occursAt(normalizedText, needle.text, needle.ends, at.positions[p]! - shift)) {
        hit = true;
        break;
      }
    }
    found[k] = hit;
  }
  return found;
}
