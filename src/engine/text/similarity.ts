// Set similarity of texts for near-duplicate detection, language-independent:
// shingles are bigrams of tokens (English words; single CJK characters, so a Chinese shingle is
// a character bigram), hashed to 32 bits. Jaccard is computed exactly on sorted hash arrays;
// MinHash signatures let a caller find candidate pairs without comparing every pair.

import { wordTokens } from './terms';

/** Murmur3's 32-bit finalizer: a cheap, well-mixed permutation of 32-bit integers. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Sorted, unique 32-bit hashes of the token bigrams of lower-cased text (one unigram when the
 * text has a single token, empty for no tokens). `cache` memoizes token hashes across calls.
 */
export function shingleHashes(lower: string, cache?: Map<string, number>): Uint32Array {
  const tokens = wordTokens(lower);
  if (tokens.length === 0) return new Uint32Array(0);
  const ids = new Uint32Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    let h = cache?.get(t);
    if (h === undefined) {
      h = fnv1a(t);
      cache?.set(t, h);
    }
    ids[i] = h;
  }
  if (ids.length === 1) return Uint32Array.of(fmix32(ids[0]!));
  const out = new Uint32Array(ids.length - 1);
  for (let i = 0; i + 1 < ids.length; i++) out[i] = fmix32(Math.imul(ids[i]!, 0x9e3779b1) ^ ids[i + 1]!);
  out.sort();
  let n = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[n - 1]) out[n++] = out[i]!;
  return out.slice(0, n);
}

/** Exact Jaccard similarity of two sorted unique arrays (1 for two empty sets). */
export function jaccardSorted(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      inter++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter);
}

const SEEDS: Uint32Array = (() => {
  // Fixed seeds (deterministic): a simple LCG from a constant.
  const out = new Uint32Array(256);
  let x = 0x2545f491;
  for (let i = 0; i < out.length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x;
  }
  return out;
})();

/** MinHash signature with `size` (≤ 256) independent hash functions over a shingle set. */
export function minhashSignature(shingles: Uint32Array, size: number): Uint32Array {
  const sig = new Uint32Array(size).fill(0xffffffff);
  for (let s = 0; s < shingles.length; s++) {
    const x = shingles[s]!;
    for (let k = 0; k < size; k++) {
      const h = fmix32(x ^ SEEDS[k]!);
      if (h < sig[k]!) sig[k] = h;
    }
  }
  return sig;
}
