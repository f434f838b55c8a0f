// Near-duplicate detection for the uniqueness metric and the duplicate
// merging: two messages are near-duplicates when the Jaccard similarity of their shingle sets
// exceeds NEAR_DUPLICATE_SIMILARITY.
//
// Near-linear: MinHash signatures are cut into bands (locality-sensitive hashing); only messages
// sharing a band are compared, exactly. A bucket of many similar messages (200 identical
// "<returncode>0</returncode>" outputs) compares each newcomer with its first member and its most
// recent ones only, which is enough: uniqueness stops changing after a few similar messages.

import { jaccardAbove, minhashSignature } from '../text/similarity';
import type { AnalyzeConstants } from './constants';

export interface NearDuplicates {
  /** For each message, how many other messages it nearly duplicates (as far as found). */
  similarCount: number[];
  /** For each message, the earliest earlier message it nearly duplicates, if any. */
  nearDuplicateOf: (number | undefined)[];
}

function bandShape(c: AnalyzeConstants): { rows: number; bands: number } {
  const rows = Math.max(1, Math.min(c.NEAR_DUPLICATE_ROWS, 256));
  // A signature has at most 256 hash functions (text/similarity.ts).
  return { rows, bands: Math.max(1, Math.min(c.NEAR_DUPLICATE_BANDS, Math.floor(256 / rows))) };
}

/** The LSH bucket of a shingle set in each band: a hash of the band's rows of its MinHash
 *  signature. Depends on the set alone, so a caller may keep it with the message. */
export function lshBandKeys(shingles: Uint32Array, c: AnalyzeConstants): Int32Array {
  const { rows, bands } = bandShape(c);
  const keys = new Int32Array(bands);
  if (shingles.length === 0) return keys;
  const sig = minhashSignature(shingles, bands * rows);
  for (let b = 0; b < bands; b++) {
    let h = 0x811c9dc5 ^ b;
    for (let r = 0; r < rows; r++) h = Math.imul(h ^ sig[b * rows + r]!, 0x01000193);
    keys[b] = h;
  }
  return keys;
}

/** A bucket's members in order: one index alone as itself (most buckets of a long conversation
 *  hold one message, and a list per bucket and band was most of the scan's memory). */
type Members = number | number[];

/** Where a scan stands: the buckets so far and the results for the sets scanned. */
export interface NearDuplicateScan {
  buckets: Map<number, Members>[];
  similarCount: number[];
  nearDuplicateOf: (number | undefined)[];
  /** The set each one was last compared with (+1; 0 for none): compared once per set. */
  comparedFor: number[];
}

export function nearDuplicateScan(c: AnalyzeConstants): NearDuplicateScan {
  return { buckets: Array.from({ length: bandShape(c).bands }, () => new Map<number, Members>()), similarCount: [], nearDuplicateOf: [], comparedFor: [] };
}

/** Scans sets[from…] into `scan` (the sets before `from` were scanned into it already).
 *  `bandKeys`, when given, are lshBandKeys of each set (kept from an earlier run). */
export function advanceNearDuplicates(
  scan: NearDuplicateScan,
  shingles: readonly Uint32Array[],
  c: AnalyzeConstants,
  from: number,
  bandKeys?: readonly Int32Array[],
): void {
  const n = shingles.length;
  const { bands } = bandShape(c);
  const cap = Math.max(1, c.NEAR_DUPLICATE_BUCKET_COMPARISONS);
  const threshold = c.NEAR_DUPLICATE_SIMILARITY;
  const { buckets, similarCount, nearDuplicateOf, comparedFor } = scan;

  const compare = (i: number, a: Uint32Array, j: number) => {
    if (comparedFor[j] === i + 1) return;
    comparedFor[j] = i + 1;
    const bj = shingles[j]!;
    // Jaccard ≤ smaller / larger: skip pairs whose sizes alone rule it out.
    const ratio = Math.min(a.length, bj.length) / Math.max(a.length, bj.length);
    if (ratio <= threshold) return;
    if (jaccardAbove(a, bj, threshold)) {
      similarCount[i]!++;
      similarCount[j]!++;
      const prev = nearDuplicateOf[i];
      if (prev === undefined || j < prev) nearDuplicateOf[i] = j;
    }
  };

  for (let i = from; i < n; i++) {
    similarCount.push(0);
    nearDuplicateOf.push(undefined);
    comparedFor.push(0);
    const a = shingles[i]!;
    if (a.length === 0) continue;
    const keys = bandKeys?.[i] ?? lshBandKeys(a, c);
    // Each band's bucket is looked up once: its members compared with, then the set added (a
    // band's buckets hold that band's keys only, so the set never meets itself).
    for (let b = 0; b < bands; b++) {
      const bucket = buckets[b]!;
      const key = keys[b]!;
      const members = bucket.get(key);
      if (members === undefined) bucket.set(key, i);
      else if (typeof members === 'number') {
        compare(i, a, members);
        bucket.set(key, [members, i]);
      } else {
        // The bucket's first member, then its most recent ones.
        compare(i, a, members[0]!);
        for (let k = Math.max(1, members.length - (cap - 1)); k < members.length; k++) compare(i, a, members[k]!);
        members.push(i);
        // Only the first and the most recent ones are ever compared with: the rest can go.
        if (members.length >= 4 * cap) members.splice(1, members.length - cap);
      }
    }
  }
}

/** `bandKeys`, when given, are lshBandKeys of each set (kept from an earlier run). */
export function findNearDuplicates(shingles: readonly Uint32Array[], c: AnalyzeConstants, bandKeys?: readonly Int32Array[]): NearDuplicates {
  const scan = nearDuplicateScan(c);
  advanceNearDuplicates(scan, shingles, c, 0, bandKeys);
  return { similarCount: scan.similarCount, nearDuplicateOf: scan.nearDuplicateOf };
}
