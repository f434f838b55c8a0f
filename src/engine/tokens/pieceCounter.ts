// Exact token counts at the speed of the pre-tokenizer regex. tiktoken splits text with the
// encoding's regex and byte-pair-encodes each piece on its own (merges never cross pieces),
// so a piece's count can be memoized: real text repeats its pieces (words, indentation,
// punctuation runs) and the regex split becomes nearly all the work (TOKENS.md).
// Counts equal js-tiktoken's `encode(text, [], []).length`: special-token strings such as
// `<|endoftext|>` are ordinary text here, exactly as with empty allowed/disallowed lists.

import { bytePairCount } from './bytePairCount';
import type { RankFile, RankTable } from './rankTable';
import type { EncodingName, TextCounter } from './tokenCounter';
import { maxUtf8Bytes, writeUtf8 } from './utf8Bytes';

/** Entries per memo generation. Two generations are kept (see below), so the memo holds at
 *  most 2 × this many pieces: ~100k short strings, a few MB. */
export const MEMO_GENERATION_ENTRIES = 50_000;
/** Longer pieces (in UTF-16 units) are counted every time: they rarely repeat and would
 *  crowd the memo. Whitespace runs and long words stay well under it. */
export const MEMO_MAX_PIECE_LENGTH = 64;

/** V8 makes a substring of this many UTF-16 units or more a view into its parent string. */
const SLICED_STRING_MIN_LENGTH = 13;

/** A copy of `piece` that does not keep the text it was cut from alive: a memo key that is a
 *  view into a 1 MB tool output would hold the whole output in memory. Concatenating and
 *  slicing makes V8 flatten the piece into a fresh string of its own. */
export function detached(piece: string): string {
  return piece.length < SLICED_STRING_MIN_LENGTH ? piece : (' ' + piece).slice(1);
}

export interface PieceCounterStats {
  /** Pieces served from the memo. */
  hits: number;
  /** Pieces byte-pair-encoded. */
  misses: number;
  memoEntries: number;
}

export class PieceCounter implements TextCounter {
  private readonly splitter: RegExp;
  /** A bounded, roughly least-recently-used memo in two generations: new entries go to
   *  `young`; when it is full it becomes `old` and the previous `old` is dropped. A hit in
   *  `old` is copied back to `young`, so pieces in use survive the turnover. */
  private young = new Map<string, number>();
  private old = new Map<string, number>();
  private bytes = new Uint8Array(1024);
  private hits = 0;
  private misses = 0;
  /** The o200k_base and cl100k_base patterns never make a piece across a line part's cut. */
  readonly splitsAtLines = true;

  constructor(
    readonly encoding: EncodingName,
    private readonly table: RankTable,
    file: Pick<RankFile, 'pat_str'>,
  ) {
    // Exactly as js-tiktoken compiles it: the rank file's pattern with the 'u' flag.
    this.splitter = new RegExp(file.pat_str, 'ug');
  }

  count(text: string): number {
    if (!text) return 0;
    const re = this.splitter;
    re.lastIndex = 0;
    let total = 0;
    // The pattern matches every character (letters, numbers, whitespace, and everything else
    // each have an alternative), so the pieces follow one another: each runs from where the
    // last ended to lastIndex. test() finds them without building a match per piece.
    let start = 0;
    while (re.test(text)) {
      const end = re.lastIndex;
      if (end === start + 1 && text.charCodeAt(start) < 0x80) {
        // One ASCII character is one byte, and every byte is a token: skip the memo.
        total++;
      } else if (end === start) {
        // The shipped patterns never match empty; step over it as matchAll would.
        re.lastIndex++;
        continue;
      } else total += this.countPiece(text.slice(start, end));
      start = end;
    }
    return total;
  }

  /** Tokens in one pre-tokenizer piece. */
  countPiece(piece: string): number {
    let n = this.young.get(piece);
    if (n !== undefined) {
      this.hits++;
      return n;
    }
    n = this.old.get(piece);
    if (n !== undefined) this.hits++;
    else {
      this.misses++;
      n = this.encodePiece(piece);
      if (piece.length > MEMO_MAX_PIECE_LENGTH) return n;
    }
    this.young.set(detached(piece), n);
    if (this.young.size >= MEMO_GENERATION_ENTRIES) {
      this.old = this.young;
      this.young = new Map();
    }
    return n;
  }

  private encodePiece(piece: string): number {
    const need = maxUtf8Bytes(piece.length);
    if (this.bytes.length < need) this.bytes = new Uint8Array(Math.max(need, this.bytes.length * 2));
    const n = writeUtf8(piece, this.bytes);
    return bytePairCount(this.table, this.bytes, n);
  }

  /** Forget every memoized piece (benchmarks measure a cold memo with it). */
  clearMemo(): void {
    this.young = new Map();
    this.old = new Map();
  }

  stats(): PieceCounterStats {
    return { hits: this.hits, misses: this.misses, memoEntries: this.young.size + this.old.size };
  }
}
