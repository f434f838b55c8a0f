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
import type { TextCounter } from '../tokens/tokenCounter';

/** Summary texts (section items' forms) remembered per generation, and their characters. */
const TEXT_ENTRIES = 50_000;
const TEXT_CHARS = 16_000_000;

/** A TextCounter that remembers what it counted. */
class MemoCounter implements TextCounter {
  readonly encoding: TextCounter['encoding'];
  private readonly memo = new GenerationalMap<string, number>(TEXT_ENTRIES, TEXT_CHARS, (k) => k.length);

  constructor(private readonly inner: TextCounter) {
    this.encoding = inner.encoding;
  }

  count(text: string): number {
    let n = this.memo.get(text);
    if (n === undefined) {
      n = this.inner.count(text);
      this.memo.set(text, n);
    }
    return n;
  }
}

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
