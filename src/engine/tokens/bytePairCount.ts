// How many tokens byte-pair encoding makes of one pre-tokenizer piece, merging exactly as
// js-tiktoken's `bytePairMerge` does: repeatedly merge the adjacent pair whose concatenation
// has the lowest rank, the leftmost one on a tie, until no adjacent pair is a token.
// Only the number of parts is needed, never the token ids.

import { NO_RANK, type RankTable } from './rankTable';

/** From this many bytes up, merge with a heap (O(n log n)) instead of rescanning every pair
 *  after each merge (O(n²)): long pieces are whitespace runs, base64 blobs, long words. */
export const HEAP_MERGE_MIN_BYTES = 96;

/** Larger than every rank: "these two parts cannot merge". */
const NEVER = 0x7fffffff;
/** Heap keys are rank × 2³² + start position: lowest rank first, then leftmost. */
const POSITION_SCALE = 4294967296;

let boundary = new Int32Array(256);
let pairRank = new Int32Array(256);

/** Tokens in bytes[0, n), which the pre-tokenizer produced as one piece. */
export function bytePairCount(table: RankTable, bytes: Uint8Array, n: number): number {
  if (n <= 1) return n;
  if (table.rank(bytes, 0, n) !== NO_RANK) return 1;
  return n < HEAP_MERGE_MIN_BYTES ? scanMerge(table, bytes, n) : heapMerge(table, bytes, n);
}

/** Parts js-tiktoken keeps: it drops a final part with no rank, which can only be a single
 *  byte missing from the table (none is, in the shipped encodings). */
function keptPart(table: RankTable, bytes: Uint8Array, start: number, end: number): number {
  return end - start > 1 || table.byteRank[bytes[start]!] !== NO_RANK ? 1 : 0;
}

function rankOrNever(table: RankTable, bytes: Uint8Array, start: number, end: number): number {
  const r = table.rank(bytes, start, end);
  return r === NO_RANK ? NEVER : r;
}

function scanMerge(table: RankTable, bytes: Uint8Array, n: number): number {
  if (boundary.length <= n) {
    boundary = new Int32Array(n * 2);
    pairRank = new Int32Array(n * 2);
  }
  const pos = boundary;
  const rk = pairRank;
  // parts: [pos[i], pos[i + 1]) for i < parts; rk[i] ranks merging part i with part i + 1.
  let parts = n;
  for (let i = 0; i <= n; i++) pos[i] = i;
  for (let i = 0; i < n - 1; i++) {
    const r = table.pairRank[(bytes[i]! << 8) | bytes[i + 1]!]!;
    rk[i] = r === NO_RANK ? NEVER : r;
  }
  for (;;) {
    let best = -1;
    let min = NEVER;
    for (let i = 0; i < parts - 1; i++) {
      if (rk[i]! < min) {
        min = rk[i]!;
        best = i;
      }
    }
    if (best < 0) break;
    // Part best absorbs part best + 1: drop boundary best + 1 and the pair rank at best + 1.
    for (let i = best + 1; i < parts; i++) pos[i] = pos[i + 1]!;
    for (let i = best + 1; i < parts - 2; i++) rk[i] = rk[i + 1]!;
    parts--;
    if (best > 0) rk[best - 1] = rankOrNever(table, bytes, pos[best - 1]!, pos[best + 1]!);
    if (best < parts - 1) rk[best] = rankOrNever(table, bytes, pos[best]!, pos[best + 2]!);
  }
  let kept = 0;
  for (let i = 0; i < parts; i++) kept += keptPart(table, bytes, pos[i]!, pos[i + 1]!);
  return kept;
}

/** The same merge order as scanMerge, found with a min-heap of candidate pairs. A candidate is
 *  stale once either of its parts has changed; part boundaries only ever disappear, so a
 *  candidate is current exactly when its left part is alive and the pair still ends where it
 *  did when pushed. */
function heapMerge(table: RankTable, bytes: Uint8Array, n: number): number {
  const next = new Int32Array(n); // start of the following part (n: none)
  const prev = new Int32Array(n); // start of the preceding part (−1: none)
  const alive = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    alive[i] = 1;
  }
  const heapKey = new Float64Array(n * 2 + 8);
  const heapEnd = new Int32Array(n * 2 + 8);
  let size = 0;

  const push = (key: number, end: number) => {
    let i = size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heapKey[parent]! <= key) break;
      heapKey[i] = heapKey[parent]!;
      heapEnd[i] = heapEnd[parent]!;
      i = parent;
    }
    heapKey[i] = key;
    heapEnd[i] = end;
  };
  const popInto = () => {
    const lastKey = heapKey[--size]!;
    const lastEnd = heapEnd[size]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && heapKey[child + 1]! < heapKey[child]!) child++;
      if (heapKey[child]! >= lastKey) break;
      heapKey[i] = heapKey[child]!;
      heapEnd[i] = heapEnd[child]!;
      i = child;
    }
    heapKey[i] = lastKey;
    heapEnd[i] = lastEnd;
  };
  const candidate = (start: number) => {
    const mid = next[start]!;
    if (mid >= n) return;
    const end = next[mid]!;
    const r = table.rank(bytes, start, end);
    if (r !== NO_RANK) push(r * POSITION_SCALE + start, end);
  };

  for (let i = 0; i < n - 1; i++) candidate(i);
  while (size > 0) {
    const key = heapKey[0]!;
    const end = heapEnd[0]!;
    popInto();
    const start = key % POSITION_SCALE;
    if (!alive[start]) continue;
    const mid = next[start]!;
    if (mid >= n || next[mid]! !== end) continue;
    alive[mid] = 0;
    next[start] = end;
    if (end < n) prev[end] = start;
    if (prev[start]! >= 0) candidate(prev[start]!);
    candidate(start);
  }
  let kept = 0;
  for (let s = 0; s < n; s = next[s]!) kept += keptPart(table, bytes, s, next[s]!);
  return kept;
}
