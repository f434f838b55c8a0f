// The BPE rank table of one tiktoken encoding, built from js-tiktoken's rank file for counting
// only. js-tiktoken's own constructor base64-decodes every token into a Uint8Array and keys a
// Map by `bytes.join(",")` (≈1.1 s for o200k, TOKENS.md); counting needs neither strings nor
// the reverse map, so the tokens are decoded once into one byte array and indexed by an
// open-addressing hash table over those bytes.

/** The shape of js-tiktoken's rank files (`js-tiktoken/ranks/<name>`). */
export interface RankFile {
  pat_str: string;
  special_tokens: Record<string, number>;
  /** Lines of `<prefix> <first rank> <base64 token> <base64 token> …`; ranks count up from the first. */
  bpe_ranks: string;
}

/** No rank: the byte sequence is not a token. */
export const NO_RANK = -1;

/** Hash slots per token. Load factor ≤ 0.5 keeps linear probes short. */
const SLOTS_PER_TOKEN = 2;

const BASE64_VALUE = (() => {
  const t = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
})();

const SPACE = 0x20;
const NEWLINE = 0x0a;
const EQUALS = 0x3d;

/** FNV-1a over a byte range; the table and the lookups must agree on it. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

export class RankTable {
  /** Rank of each single byte (all 256 are tokens in the shipped encodings). */
  readonly byteRank: Int32Array;
  /** Rank of each two-byte token, indexed by (first << 8) | second: the most frequent lookup. */
  readonly pairRank: Int32Array;
  private readonly tokenBytes: Uint8Array;
  /** Token i's bytes are tokenBytes[tokenStart[i] .. tokenStart[i + 1]). */
  private readonly tokenStart: Int32Array;
  private readonly tokenRank: Int32Array;
  /** Token index + 1 per slot; 0 is empty. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  readonly size: number;

  constructor(file: RankFile) {
    const src = file.bpe_ranks;
    if (typeof src !== 'string' || typeof file.pat_str !== 'string') {
      throw new Error('rank file: expected { pat_str: string, bpe_ranks: string }');
    }
    // Upper bounds from the text: every token is preceded by a space; 3 bytes per 4 base64 chars.
    let spaces = 0;
    for (let i = 0; i < src.length; i++) if (src.charCodeAt(i) === SPACE) spaces++;
    const maxTokens = spaces;
    const tokenBytes = new Uint8Array(Math.ceil((src.length * 3) / 4));
    const tokenStart = new Int32Array(maxTokens + 1);
    const tokenRank = new Int32Array(maxTokens);
    let slotCount = 1;
    while (slotCount < maxTokens * SLOTS_PER_TOKEN) slotCount <<= 1;
    const slots = new Int32Array(slotCount);
    const mask = slotCount - 1;
    this.tokenBytes = tokenBytes;
    this.tokenStart = tokenStart;
    this.tokenRank = tokenRank;
    this.slots = slots;
    this.mask = mask;

    let count = 0;
    let out = 0;
    let pos = 0;
    while (pos < src.length) {
      let lineEnd = src.indexOf('\n', pos);
      if (lineEnd < 0) lineEnd = src.length;
      // Field 0 is a prefix js-tiktoken ignores; field 1 is the first rank of the line.
      const prefixEnd = src.indexOf(' ', pos);
      if (prefixEnd < 0 || prefixEnd >= lineEnd) {
        pos = lineEnd + 1;
        continue;
      }
      let p = prefixEnd + 1;
      let rank = 0;
      while (p < lineEnd && src.charCodeAt(p) !== SPACE) {
        const d = src.charCodeAt(p) - 0x30;
        if (d < 0 || d > 9) throw new Error(`rank file: bad rank offset at character ${p}`);
        rank = rank * 10 + d;
        p++;
      }
      while (p < lineEnd) {
        p++; // the space before the token
        const start = out;
        let bits = 0;
        let acc = 0;
        while (p < lineEnd) {
          const c = src.charCodeAt(p);
          if (c === SPACE || c === NEWLINE) break;
          p++;
          if (c === EQUALS) continue;
          const v = c < 128 ? BASE64_VALUE[c]! : -1;
          if (v < 0) throw new Error(`rank file: bad base64 character at ${p - 1}`);
          acc = (acc << 6) | v;
          bits += 6;
          if (bits >= 8) {
            bits -= 8;
            tokenBytes[out++] = (acc >> bits) & 0xff;
          }
        }
        if (out === start) {
          rank++; // an empty field (double space) still takes a rank in js-tiktoken
          continue;
        }
        // js-tiktoken keeps the last rank of a token listed twice; so does the table.
        let slot = hashBytes(tokenBytes, start, out) & mask;
        let duplicate = -1;
        for (let entry = slots[slot]!; entry !== 0; entry = slots[slot]!) {
          if (this.sameBytes(entry - 1, tokenBytes, start, out)) {
            duplicate = entry - 1;
            break;
          }
          slot = (slot + 1) & mask;
        }
        if (duplicate >= 0) {
          tokenRank[duplicate] = rank++;
          out = start;
          continue;
        }
        tokenStart[count] = start;
        tokenRank[count] = rank++;
        count++;
        tokenStart[count] = out;
        slots[slot] = count;
      }
      pos = lineEnd + 1;
    }
    this.size = count;

    this.byteRank = new Int32Array(256).fill(NO_RANK);
    this.pairRank = new Int32Array(65536).fill(NO_RANK);
    for (let i = 0; i < count; i++) {
      const s = tokenStart[i]!;
      const len = tokenStart[i + 1]! - s;
      if (len === 1) this.byteRank[tokenBytes[s]!] = tokenRank[i]!;
      else if (len === 2) this.pairRank[(tokenBytes[s]! << 8) | tokenBytes[s + 1]!] = tokenRank[i]!;
    }
  }

  private sameBytes(t: number, bytes: Uint8Array, start: number, end: number): boolean {
    const ts = this.tokenStart[t]!;
    const len = end - start;
    if (this.tokenStart[t + 1]! - ts !== len) return false;
    const tb = this.tokenBytes;
    for (let i = 0; i < len; i++) if (tb[ts + i] !== bytes[start + i]) return false;
    return true;
  }

  /** Token index of bytes[start, end), or −1. */
  private find(bytes: Uint8Array, start: number, end: number): number {
    const slots = this.slots;
    let slot = hashBytes(bytes, start, end) & this.mask;
    for (let entry = slots[slot]!; entry !== 0; entry = slots[slot]!) {
      if (this.sameBytes(entry - 1, bytes, start, end)) return entry - 1;
      slot = (slot + 1) & this.mask;
    }
    return -1;
  }

  /** The rank of bytes[start, end) as one token, or NO_RANK. */
  rank(bytes: Uint8Array, start: number, end: number): number {
    const len = end - start;
    if (len === 1) return this.byteRank[bytes[start]!]!;
    if (len === 2) return this.pairRank[(bytes[start]! << 8) | bytes[start + 1]!]!;
    const t = this.find(bytes, start, end);
    return t < 0 ? NO_RANK : this.tokenRank[t]!;
  }
}
