// Near-duplicate detection for the uniqueness metric and the duplicate
// merging: two messages are near-duplicates when the Jaccard similarity of their shingle sets
// exceeds NEAR_DUPLICATE_SIMILARITY.
//
// Near-linear: MinHash signatures are cut into bands (locality-sensitive hashing); only messages
// sharing a band are compared, exactly. A bucket of many similar messages (200 identical
// "<returncode>0</returncode>" outputs) compares each newcomer with its first member and its most
// recent ones only, which is enough: uniqueness stops changing after a few similar messages.

import { jaccardSorted, minhashSignature } from '../text/similarity';
import type { AnalyzeConstants } from './constants';

export interface NearDuplicates {
  /** For each message, how many other messages it nearly duplicates (as far as found). */
  similarCount: number[];
  /** For each message, the earliest earlier message it nearly duplicates, if any. */
  nearDuplicateOf: (number | undefined)[];
}

export function findNearDuplicates(shingles: readonly Uint32Array[], c: AnalyzeConstants): NearDuplicates {
  const n = shingles.length;
  const similarCount = new Array<number>(n).fill(0);
  const nearDuplicateOf = new Array<number | undefined>(n).fill(undefined);
  const rows = Math.max(1, Math.min(c.NEAR_DUPLICATE_ROWS, 256));
  // A signature has at most 256 hash functions (text/similarity.ts).
  const bands = Math.max(1, Math.min(c.NEAR_DUPLICATE_BANDS, Math.floor(256 / rows)));
  const cap = Math.max(1, c.NEAR_DUPLICATE_BUCKET_COMPARISONS);
  const threshold = c.NEAR_DUPLICATE_SIMILARITY;
  const buckets = new Map<string, number[]>();
  const compared = new Set<number>();

  for (let i = 0; i < n; i++) {
    const a = shingles[i]!;
    if (a.length === 0) continue;
    const sig = minhashSignature(a, bands * rows);
    compared.clear();
    const keys: string[] = [];
    for (let b = 0; b < bands; b++) {
      let h = 0x811c9dc5 ^ b;
      for (let r = 0; r < rows; r++) h = Math.imul(h ^ sig[b * rows + r]!, 0x01000193);
      const key = `${b}:${h >>> 0}`;
      keys.push(key);
      const members = buckets.get(key);
      if (!members) continue;
      const from = Math.max(1, members.length - (cap - 1));
      const candidates = members.length > 0 ? [members[0]!, ...members.slice(from)] : [];
      for (const j of candidates) {
        if (compared.has(j)) continue;
        compared.add(j);
        const bj = shingles[j]!;
        // Jaccard ≤ smaller / larger: skip pairs whose sizes alone rule it out.
        const ratio = Math.min(a.length, bj.length) / Math.max(a.length, bj.length);
        if (ratio <= threshold) continue;
        if (jaccardSorted(a, bj) > threshold) {
          similarCount[i]!++;
          similarCount[j]!++;
          const prev = nearDuplicateOf[i];
          if (prev === undefined || j < prev) nearDuplicateOf[i] = j;
        }
      }
    }
    for (const key of keys) {
      const members = buckets.get(key);
      if (members) members.push(i);
      else buckets.set(key, [i]);
    }
  }
  return { similarCount, nearDuplicateOf };
}
