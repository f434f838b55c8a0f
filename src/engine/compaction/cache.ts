// What the compactions of one conversation reuse from the ones before, and what the stages of
// one compaction (the ratio loop's attempts, the escalation's levels, the floor estimate) reuse
// from each other. Everything here is a pure function of its key, so a hit gives exactly what
// computing again would: the cache changes the time a plan takes, never the plan.
//
// The extension keeps one per conversation (the meter, the confirmation's preview and the
// inspector then re-plan in time proportional to what changed); a compaction given none makes a
// fresh one for itself. Memory is bounded: per-message entries are held by the message objects
// (a WeakMap) and by content in generational maps (memo.ts).

import { MessageMemo } from '../conversation/messageMemo';
import type { Conversation } from '../conversation/model';
import { GenerationalMap } from '../memo';
import { hash64 } from '../text/hash';
import { countByLines } from '../tokens/lineSegments';
import { detached } from '../tokens/pieceCounter';
import type { TextCounter } from '../tokens/tokenCounter';
import { normalizeForMatch } from '../validate/factMatch';
import { tokenizeNormalized, type TokenizedText } from '../validate/factTokens';

/** Summary texts (section items' forms) remembered per generation, and their characters: a
 *  conversation of 100,000 user messages and files offers that many forms at every attempt. */
const TEXT_ENTRIES = 250_000;
const TEXT_CHARS = 16_000_000;

/** Texts from this length on are counted by their line parts (a whole summary, a long section). */
const LINE_PARTS_MIN_CHARS = 2048;

/** A TextCounter that remembers what it counted. A long text is counted by its line parts when
 *  the encoding allows it (tokens/lineSegments.ts), each part remembered: the summaries of the
 *  ratio loop's attempts share most of their lines. */
class MemoCounter implements TextCounter {
  readonly encoding: TextCounter['encoding'];
  readonly splitsAtLines: boolean;
  private readonly memo = new GenerationalMap<string, number>(TEXT_ENTRIES, TEXT_CHARS, (k) => k.length);

  constructor(private readonly inner: TextCounter) {
    this.encoding = inner.encoding;
    this.splitsAtLines = inner.splitsAtLines === true;
  }

  count(text: string): number {
    if (text.length >= LINE_PARTS_MIN_CHARS && this.splitsAtLines) return countByLines(text, this.inner, (part) => this.remembered(part, true));
    return this.remembered(text, false);
  }

  /** The count of `text`, remembered; a part cut from a long text is copied first, or it would
   *  keep the whole text alive. */
  private remembered(text: string, part: boolean): number {
    let n = this.memo.get(text);
    if (n === undefined) {
      n = this.inner.count(text);
      this.memo.set(part ? detached(text) : text, n);
    }
    return n;
  }
}

/** Normal forms of summary parts remembered per generation, and their characters: about the
 *  sections of the last attempts. */
const NORMALIZED_ENTRIES = 64;
const NORMALIZED_CHARS = 4_000_000;
/** A normal form's size: its text's length (one function for every cache, so two caches made alike are equal). */
const normalFormChars = (_key: string, form: TokenizedText) => form.text.length;

/** What a cache did, for tests and the bench: plans computed, and plans given again as they were. */
export interface CacheStats {
  plans: number;
  reusedPlans: number;
}

export class CompactionCache {
  private readonly counters = new WeakMap<TextCounter, MemoCounter>();
  /** Per-message values: the analysis, the span view, the facts, the section builders' reading. */
  readonly messages: MessageMemo;
  /** The last plan: the conversation object it was made for, its counter and options. The same
   *  conversation (the same object: a conversation is never changed in place) planned again with
   *  the same options is that plan — the confirmation's preview is what Compact applies. */
  private lastPlan: { conv: Conversation; counter: object; key: string; planned: unknown } | undefined;
  readonly stats: CacheStats = { plans: 0, reusedPlans: 0 };
  /** By a hash of the part: the part itself is cut from the whole summary and would keep it alive. */
  private readonly normalForms = new GenerationalMap<string, TokenizedText>(NORMALIZED_ENTRIES, NORMALIZED_CHARS, normalFormChars);

  /** `reused: false` for a cache that serves one compaction only (the default when the caller
   *  gives none): messages are then found by object alone. */
  constructor(opts: { reused?: boolean } = {}) {
    this.messages = new MessageMemo({ byContent: opts.reused !== false });
  }

  /** The plan for `conv` counted by `counter` with the options `key` stands for (plan.ts makes
   *  it): the last one when nothing changed since, else made by `make` (and kept). */
  plan<P>(conv: Conversation, counter: object, key: string, make: () => P): P {
    const last = this.lastPlan;
    if (last && last.conv === conv && last.counter === counter && last.key === key) {
      this.stats.reusedPlans++;
      return last.planned as P;
    }
    const planned = make();
    this.stats.plans++;
    this.lastPlan = { conv, counter, key, planned };
    return planned;
  }

  /** A summary part's normal form with its tokens (validate/factMatch.ts): the attempts' summaries
   *  repeat most of their sections. */
  normalized(text: string): TokenizedText {
    // The length guards the 64-bit hash against the odd collision.
    const key = `${hash64(text)}:${text.length}`;
    let t = this.normalForms.get(key);
    if (!t) {
      t = tokenizeNormalized(normalizeForMatch(text));
      this.normalForms.set(key, t);
    }
    return t;
  }

  /** `counter`, remembering the counts of the summary texts it is given: the section items are
   *  measured again by every attempt and every level. */
  textCounter(counter: TextCounter): TextCounter {
    let m = this.counters.get(counter);
    if (!m) {
      m = new MemoCounter(counter);
      this.counters.set(counter, m);
    }
    return m;
  }
}
