// Counting a long text line by line, exactly. The tiktoken pre-tokenizers (o200k_base,
// cl100k_base) split text into pieces and byte-pair-encode each piece alone, and no piece runs
// from a line break into a character that is neither whitespace nor "/": the only pattern that
// takes characters after a line break is ` ?[^\s\p{L}\p{N}]+[\r\n/]*`, and all it takes after it
// is more line breaks or slashes; the letter and number patterns never hold a line break, and
// the whitespace patterns hold only whitespace. No pattern looks behind, and the one lookahead,
// `\s+(?!\S)`, comes after `\s*[\r\n]+`, which takes any whitespace run that ends in a line break
// first. So the count of a text is the sum of the counts of its parts cut at such points, and a
// summary that changes in a few lines is counted again in the time those lines take, when the
// parts' counts are remembered (compaction/cache.ts).

import type { TextCounter } from './tokenCounter';

const WHITESPACE = /\s/u;
const SLASH = 0x2f;
const NEWLINE = 0x0a;

/** Whether a piece always starts at a character with this code after a line break. */
function startsPiece(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code <= 0x20 || code === SLASH) return false;
  return code < 0x80 || !WHITESPACE.test(text.charAt(at));
}

/** Lines per part, on average: a part ends after a line whose hash has these bits clear. Cut by
 *  content, two texts that share a run of lines share the parts inside it wherever the run
 *  stands, and a summary of 200,000 lines is a few thousand parts to remember, not 200,000. */
const PART_MASK = 31;

/** Calls `part` with each part of `text`, in order; the parts join to the text. A part ends
 *  after a line break where a piece always starts, after a line whose hash & `mask` is 0 (mask 0:
 *  at every such line break). */
export function forEachLinePart(text: string, part: (segment: string) => void, mask = PART_MASK): void {
  let start = 0;
  let h = 0x811c9dc5;
  const last = text.length - 1;
  for (let i = 0; i < last; i++) {
    const c = text.charCodeAt(i);
    h = Math.imul(h ^ c, 0x01000193);
    if (c !== NEWLINE) continue;
    const cut = (h & mask) === 0 && startsPiece(text, i + 1);
    h = 0x811c9dc5;
    if (!cut) continue;
    part(text.slice(start, i + 1));
    start = i + 1;
  }
  part(start === 0 ? text : text.slice(start));
}

/** `counter.count(text)`, as the sum of `count` over the text's line parts: exact for a counter
 *  whose `splitsAtLines` is set (the tiktoken encodings), else the counter's own count. */
export function countByLines(text: string, counter: TextCounter, count: (segment: string) => number): number {
  if (!counter.splitsAtLines) return counter.count(text);
  let total = 0;
  forEachLinePart(text, (segment) => {
    total += count(segment);
  });
  return total;
}
