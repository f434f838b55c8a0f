// Is a must-keep fact in a summary? Literal matching with case and whitespace runs folded
// (nothing else: the loss detector must not find missing what merge-back thought present, so
// this errs on the strict side; a surplus merge-back costs a line, a miss costs the fact).
// Word-like ends must sit at word boundaries, so the number "5" is not found inside "15" nor
// "auth" inside "oauth". A long user message counts as present when its opening is quoted:
// the summary lists the message, the archive keeps the whole text.

import type { Fact } from '../result';

/** Characters of a long user message that must appear, from its start. */
export const USER_MESSAGE_MATCH_CHARS = 160;

export function normalizeForMatch(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The normalized text a fact must be found as. */
export function factNeedle(fact: Fact): string {
  let v = normalizeForMatch(fact.value);
  if (fact.kind === 'userMessage' && v.length > USER_MESSAGE_MATCH_CHARS) {
    const cut = v.lastIndexOf(' ', USER_MESSAGE_MATCH_CHARS);
    v = v.slice(0, cut > USER_MESSAGE_MATCH_CHARS / 2 ? cut : USER_MESSAGE_MATCH_CHARS);
  }
  return v;
}

const WORD = /[\p{L}\p{N}_]/u;
/** CJK scripts have no word boundaries: a needle edge there never needs one. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;

function needsBoundary(ch: string): boolean {
  return ch !== '' && WORD.test(ch) && !CJK.test(ch);
}

/** Whether `needle` occurs in `haystack` (both normalized) with word-like ends at word boundaries. */
export function containsNormalized(haystack: string, needle: string): boolean {
  if (!needle) return true;
  const left = needsBoundary(needle.charAt(0));
  const right = needsBoundary(needle.charAt(needle.length - 1));
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return false;
    const before = at > 0 ? haystack.charAt(at - 1) : '';
    const after = haystack.charAt(at + needle.length);
    if ((!left || !needsBoundary(before)) && (!right || !needsBoundary(after))) return true;
    from = at + 1;
  }
}

/** Whether the fact appears in `normalizedText` (already passed through normalizeForMatch). */
export function factPresent(fact: Fact, normalizedText: string): boolean {
  return containsNormalized(normalizedText, factNeedle(fact));
}

/** The facts (in the given order, duplicates by kind and value once) that `text` lacks. */
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
