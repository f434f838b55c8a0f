// Set similarity of texts for near-duplicate detection, language-independent:
// shingles are bigrams of tokens (English words; single CJK characters, so a Chinese shingle is
// a character bigram), hashed to 32 bits. Jaccard is computed exactly on sorted hash arrays;
// MinHash signatures let a caller find candidate pairs without comparing every pair.

/** Murmur3's 32-bit finalizer: a cheap, well-mixed permutation of 32-bit integers. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function isCjkCode(c: number): boolean {
  return (
    (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xac00 && c <= 0xd7af)
  );
}

function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;
}

/** The tokens of lower-cased text as 32-bit hashes, with counts by script. */
export interface TokenHashes {
  /** One hash per token, in order: English words ([a-z0-9_]+) and single CJK characters. */
  ids: Uint32Array;
  /** How many of the tokens are English words. */
  words: number;
  /** How many are CJK characters. */
  cjk: number;
}

/** Where tokenHashes writes the hashes before copying out as many as it found (a text has at
 *  most one token per character): one buffer for every call, grown as texts need up to
 *  SCRATCH_MAX_TOKENS, instead of a growing array of numbers per text, which for a long tool
 *  output is megabytes that die at once. A longer text gets a buffer of its own. */
let scratch = new Uint32Array(1024);
const SCRATCH_MAX_TOKENS = 1 << 20;

function hashBuffer(length: number): Uint32Array {
  if (length > SCRATCH_MAX_TOKENS) return new Uint32Array(length);
  if (scratch.length < length) scratch = new Uint32Array(Math.min(SCRATCH_MAX_TOKENS, Math.max(length, scratch.length * 2)));
  return scratch;
}

/** Hash the tokens of `wordTokens` (text/terms.ts) in place, without building strings. */
export function tokenHashes(lower: string): TokenHashes {
  const ids = hashBuffer(lower.length);
  let n = 0;
  let words = 0;
  let cjk = 0;
  let h = FNV_OFFSET;
  let inWord = false;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (isWordCode(c)) {
      h = Math.imul((inWord ? h : FNV_OFFSET) ^ c, FNV_PRIME);
      inWord = true;
      continue;
    }
    if (inWord) {
      ids[n++] = h >>> 0;
      words++;
      inWord = false;
    }
    // A CJK character is a token by itself (salted so it never equals a one-letter word).
    if (isCjkCode(c)) {
      ids[n++] = (Math.imul(FNV_OFFSET ^ c, FNV_PRIME) ^ 0x5bd1e995) >>> 0;
      cjk++;
    }
  }
  if (inWord) {
    ids[n++] = h >>> 0;
    words++;
  }
  return { ids: ids.slice(0, n), words, cjk };
}

/**
 * Sorted, unique 32-bit hashes of the token bigrams (one unigram when there is a single token,
 * empty for none) of token hashes from `tokenHashes`.
 */
export function shingleHashes(ids: Uint32Array): Uint32Array {
  if (ids.length === 0) return new Uint32Array(0);
  if (ids.length === 1) return Uint32Array.of(fmix32(ids[0]!));
  const out = new Uint32Array(ids.length - 1);
  for (let i = 0; i + 1 < ids.length; i++) out[i] = fmix32(Math.imul(ids[i]!, 0x9e3779b1) ^ ids[i + 1]!);
  out.sort();
  let n = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[n - 1]) out[n++] = out[i]!;
  return out.slice(0, n);
}

/** Shingle hashes of lower-cased text (tokenHashes then shingleHashes). */
export function textShingles(lower: string): Uint32Array {
  return shingleHashes(tokenHashes(lower).ids);
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

/** Whether jaccardSorted(a, b) > threshold, stopping as soon as the hashes left cannot bring
 *  the intersection up to the least that passes (the same answer, from fewer steps). */
export function jaccardAbove(a: Uint32Array, b: Uint32Array, threshold: number): boolean {
  const la = a.length;
  const lb = b.length;
  if (la === 0 && lb === 0) return 1 > threshold;
  // The least intersection k with k / (la + lb − k) > threshold, by the formula jaccardSorted uses.
  const most = Math.min(la, lb);
  let need = Math.max(0, Math.ceil((threshold * (la + lb)) / (1 + threshold)) - 1);
  while (need <= most && !(need / (la + lb - need) > threshold)) need++;
  if (need > most) return false;
  while (need > 0 && (need - 1) / (la + lb - (need - 1)) > threshold) need--;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < la && j < lb) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      inter++;
      i++;
      j++;
      continue;
    }
    if (x < y) i++;
    else j++;
    if (inter + Math.min(la - i, lb - j) < need) return false;
  }
  return inter >= need;
}

/** 2^32: a 32-bit hash below it, its count above it (rarestPrefix). */
const HASH_SPAN = 4294967296;
/** Counts from this on would not stay exact above the hash in a double (2^53). */
const COUNT_LIMIT = 2 ** 20;

/** The first `n` hashes of `a`, rarest first (ties by the hash). Each hash is one number, its
 *  count above its 32 bits, so a plain numeric sort orders them without looking a count up at
 *  every comparison; `keys` is scratch room at least as long as `a`. */
function rarestPrefix(a: Uint32Array, n: number, freq: Map<number, number>, keys: Float64Array, sets: number): number[] {
  if (sets >= COUNT_LIMIT) {
    return Array.from(a)
      .sort((x, y) => freq.get(x | 0)! - freq.get(y | 0)! || x - y)
      .slice(0, n);
  }
  const sorted = keys.subarray(0, a.length);
  for (let k = 0; k < a.length; k++) sorted[k] = freq.get(a[k]! | 0)! * HASH_SPAN + a[k]!;
  sorted.sort();
  const out: number[] = [];
  for (let k = 0; k < n; k++) out.push(sorted[k]! % HASH_SPAN);
  return out;
}

/**
 * For each set (sorted unique hashes, or undefined), the earliest of the `lookback` sets just
 * before it whose Jaccard similarity with it is at least `threshold` — exactly what comparing
 * each set with every one of those would find, without comparing them all (prefix filtering).
 * Order the hashes rarest first; if J(a, b) ≥ t then the sets share at least ⌈t·|a|⌉ hashes
 * (and ⌈t·|b|⌉), so the first hash they share lies within the first |a| − ⌈t·|a|⌉ + 1 of a and
 * the first |b| − ⌈t·|b|⌉ + 1 of b. Only sets whose such prefixes meet are compared, and those
 * prefixes hold the rare hashes, which few sets share. Empty sets are never similar.
 */
export function firstSimilarBefore(sets: readonly (Uint32Array | undefined)[], threshold: number, lookback: number): (number | undefined)[] {
  const out: (number | undefined)[] = sets.map(() => undefined);
  // Below this the prefix bound says nothing (any two sets may do): compare each with the window.
  if (!(threshold > 1e-6)) {
    for (let i = 0; i < sets.length; i++) {
      const a = sets[i];
      if (!a || a.length === 0) continue;
      for (let j = Math.max(0, i - lookback); j < i; j++) {
        const b = sets[j];
        if (b && b.length > 0 && jaccardSorted(a, b) >= threshold) {
          out[i] = j;
          break;
        }
      }
    }
    return out;
  }
  // Maps keyed by the hashes as signed 32-bit numbers: small integers to V8, where the unsigned
  // ones above 2^31 are boxed doubles, far slower to hash.
  const freq = new Map<number, number>();
  for (const a of sets) if (a) for (const x of a) freq.set(x | 0, (freq.get(x | 0) ?? 0) + 1);
  let keys = new Float64Array(64);
  /** For each hash, the sets (in order) that hold it in their prefix. */
  const postings = new Map<number, number[]>();
  const candidates: number[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < sets.length; i++) {
    const a = sets[i];
    if (!a || a.length === 0) continue;
    // The least overlap a pair at the threshold has, rounded down a hair so that a pair whose
    // floating-point Jaccard equals the threshold is never left out.
    const overlap = Math.max(1, Math.ceil((threshold - 1e-9) * a.length));
    if (keys.length < a.length) keys = new Float64Array(a.length * 2);
    const prefix = rarestPrefix(a, Math.max(0, a.length - overlap + 1), freq, keys, sets.length);
    candidates.length = 0;
    seen.clear();
    const from = i - lookback;
    for (const x of prefix) {
      const list = postings.get(x | 0);
      if (!list) continue;
      for (let k = list.length - 1; k >= 0 && list[k]! >= from; k--) {
        const j = list[k]!;
        if (!seen.has(j)) {
          seen.add(j);
          candidates.push(j);
        }
      }
    }
    candidates.sort((x, y) => x - y);
    for (const j of candidates) {
      const b = sets[j]!;
      // Jaccard ≤ smaller / larger: sizes alone can rule a pair out.
      if (Math.min(a.length, b.length) / Math.max(a.length, b.length) < threshold) continue;
      if (jaccardSorted(a, b) >= threshold) {
        out[i] = j;
        break;
      }
    }
    for (const x of prefix) {
      const list = postings.get(x | 0);
      if (list) list.push(i);
      else postings.set(x | 0, [i]);
    }
  }
  return out;
}

/** Fixed seeds (deterministic), from a simple LCG: an XOR key and an odd multiplier per hash. */
const SEEDS: Uint32Array = (() => {
  const out = new Uint32Array(512);
  let x = 0x2545f491;
  for (let i = 0; i < out.length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = i % 2 === 1 ? x | 1 : x;
  }
  return out;
})();

/** MinHash signature with `size` (≤ 256) independent hash functions over a shingle set. */
export function minhashSignature(shingles: Uint32Array, size: number): Uint32Array {
  const sig = new Uint32Array(size).fill(0xffffffff);
  for (let s = 0; s < shingles.length; s++) {
    const x = shingles[s]!;
    for (let k = 0; k < size; k++) {
      // Shingle hashes are already well mixed: xor-then-multiply by an odd constant is a
      // cheap bijection, enough for independent-looking permutations.
      const h = Math.imul(x ^ SEEDS[2 * k]!, SEEDS[2 * k + 1]!) >>> 0;
      if (h < sig[k]!) sig[k] = h;
    }
  }
  return sig;
}
