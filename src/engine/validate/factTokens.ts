// The characters and tokens fact matching reads (factMatch.ts): which characters are word
// characters, which are CJK (a token each, never needing a word boundary), and a normalized
// text's tokens — runs of word characters and single CJK characters — with a hash of each.

const WORD = /[\p{L}\p{N}_]/u;
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;

/** Per UTF-16 code unit: 0 not classified yet, 1 a word character, 2 not one. */
const WORD_CLASS = new Uint8Array(0x10000);

export function isWordCode(code: number): boolean {
  let k = WORD_CLASS[code]!;
  if (k === 0) {
    const ch = String.fromCharCode(code);
    k = WORD.test(ch) && !CJK.test(ch) ? 1 : 2;
    WORD_CLASS[code] = k;
  }
  return k === 1;
}

export function isWordChar(ch: string): boolean {
  return ch !== '' && isWordCode(ch.charCodeAt(0));
}

export function isCjkCode(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xac00 && code <= 0xd7af)
  );
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Calls `at(start, hash)` for each token of `text`: word runs and single CJK characters. */
export function forEachToken(text: string, at: (start: number, end: number, hash: number) => void): void {
  let start = -1;
  let h = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isWordCode(c)) {
      if (start < 0) {
        start = i;
        h = FNV_OFFSET;
      }
      h = Math.imul(h ^ c, FNV_PRIME);
      continue;
    }
    if (start >= 0) {
      at(start, i, h >>> 0);
      start = -1;
    }
    // A CJK character is a token by itself (salted so it never equals a one-letter word).
    if (isCjkCode(c)) at(i, i + 1, (Math.imul(FNV_OFFSET ^ c, FNV_PRIME) ^ 0x5bd1e995) >>> 0);
  }
  if (start >= 0) at(start, text.length, h >>> 0);
}

/** A normalized text (normalizeForMatch) and its tokens as [start, hash] pairs: what the index
 *  of a long text is built from, kept by a caller that checks the same texts again. */
export interface TokenizedText {
  text: string;
  tokens: Uint32Array;
}

export function tokenizeNormalized(text: string): TokenizedText {
  let out = new Uint32Array(Math.min(64, 2 * text.length));
  let n = 0;
  forEachToken(text, (start, _end, hash) => {
    if (n + 2 > out.length) {
      const grown = new Uint32Array(Math.max(out.length * 2, 64));
      grown.set(out);
      out = grown;
    }
    out[n++] = start;
    out[n++] = hash;
  });
  return { text, tokens: n === out.length ? out : out.slice(0, n) };
}
