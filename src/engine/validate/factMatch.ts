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

import type { Fact, FactKind } from '../result';

/** Lower-cased, whitespace collapsed: how facts and texts are compared. */
export function normalizeForMatch(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
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

const WORD = /[\p{L}\p{N}_]/u;
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;

function isWordChar(ch: string): boolean {
  return ch !== '' && WORD.test(ch) && !CJK.test(ch);
}

/** Whether `needle` occurs in `haystack` (both normalized), with the ends `ends` asks for at word boundaries. */
function occurs(haystack: string, needle: string, ends: Ends): boolean {
  if (!needle) return true;
  if (ends === 'none') return haystack.includes(needle);
  const left = isWordChar(needle.charAt(0));
  const right = ends === 'both' && isWordChar(needle.charAt(needle.length - 1));
  for (let from = 0; ; ) {
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
  const hay = normalizeForMatch(text);
  const seen = new Set<string>();
  const out: Fact[] = [];
  for (const f of facts) {
    const key = `${f.kind}\u0000${f.value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!factPresent(f, hay)) out.push(f);
  }
  return out;
}
