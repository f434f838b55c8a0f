// Cutting a span that does not fit the summarizer model's window into consecutive chunks
// that do. A cut never falls inside a tool interaction block (a call and its results are
// summarized together) and prefers the start of a user turn, so each chunk reads as whole
// rounds. A single block larger than the budget becomes a chunk of its own, marked oversize,
// for the caller to shorten.

import type { SerializedMessage } from './serializeSpan';

/** Tokens the blank line between two messages of a transcript costs. */
export const SEPARATOR_TOKENS = 1;
/** A cut at a user turn is preferred when the chunk is at least this full; otherwise the
 *  latest allowed cut is taken, so chunks do not get tiny just to end at a turn. */
export const ROUND_CUT_MIN_FILL = 0.5;

export interface Chunk {
  /** First message index (inclusive) and last (exclusive), in the serialized span. */
  start: number;
  end: number;
  tokens: number;
  /** Larger than the budget: one tool block or message that cannot be split. */
  oversize: boolean;
}

/** cutAllowed[k]: a chunk may start at message k (k = 0 … n). */
function allowedCuts(parts: readonly SerializedMessage[]): boolean[] {
  const n = parts.length;
  const ok = new Array<boolean>(n + 1).fill(true);
  const lastOfBlock = new Map<number, number>();
  parts.forEach((p, k) => {
    if (p.toolBlock !== undefined) lastOfBlock.set(p.toolBlock, Math.max(lastOfBlock.get(p.toolBlock) ?? p.toolBlock, k));
  });
  for (const [first, last] of lastOfBlock) for (let k = first + 1; k <= last; k++) ok[k] = false;
  return ok;
}

export function planChunks(parts: readonly SerializedMessage[], budgetTokens: number): Chunk[] {
  const n = parts.length;
  if (n === 0) return [];
  const ok = allowedCuts(parts);
  // prefix[k] = tokens of parts[0..k) including separators.
  const prefix = new Array<number>(n + 1).fill(0);
  for (let k = 0; k < n; k++) prefix[k + 1] = prefix[k]! + parts[k]!.tokens + (k > 0 ? SEPARATOR_TOKENS : 0);
  const size = (a: number, b: number) => prefix[b]! - prefix[a]! - (a > 0 ? SEPARATOR_TOKENS : 0);

  const chunks: Chunk[] = [];
  let start = 0;
  while (start < n) {
    // Furthest end that fits.
    let end = start;
    while (end < n && size(start, end + 1) <= budgetTokens) end++;
    if (end === n) {
      chunks.push({ start, end, tokens: size(start, end), oversize: false });
      break;
    }
    // Best allowed cut in (start, end]: a user turn if the chunk is full enough, else the latest.
    let cut = -1;
    for (let k = end; k > start; k--) {
      if (!ok[k]) continue;
      if (cut < 0) cut = k;
      if (parts[k]!.userAuthored && size(start, k) >= budgetTokens * ROUND_CUT_MIN_FILL) {
        cut = k;
        break;
      }
    }
    if (cut < 0) {
      // Nothing fits: take the smallest unsplittable unit.
      cut = start + 1;
      while (cut < n && !ok[cut]) cut++;
    }
    const tokens = size(start, cut);
    chunks.push({ start, end: cut, tokens, oversize: tokens > budgetTokens });
    start = cut;
  }
  return chunks;
}
