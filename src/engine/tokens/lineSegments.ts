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

/** Whether a piece always starts at a character with this code after a line break. */
function startsPiece(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code <= 0x20 || code === SLASH) return false;
  return code < 0x80 || !WHITESPACE.test(text.charAt(at));
}

/** Calls `part` with each part of `text` cut after a line break where a piece always starts,
 *  in order; the parts join to the text. */
export function forEachLinePart(text: string, part: (segment: string) => void): void {
  let start = 0;
  for (let from = 0; ;) {
    const nl = text.indexOf('\n', from);
    if (nl < 0 || nl + 1 >= text.length) break;
    from = nl + 1;
    if (startsPiece(text, from)) {
      part(text.slice(start, from));
      start = from;
    }
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
