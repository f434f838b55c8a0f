// The cooldown after a failed LLM compaction. When the LLM summary was not used (the server
// down, a key refused, a timeout, an unusable reply), the compaction fell back to the extractive
// summary; trying the same summarizer again at once would most likely fail the same way, after
// the same wait. So for a while (LLM_COOLDOWN, doubling on each further failure) compactions use
// the extractive summary directly and say why; a successful LLM summary, or other summarizer
// settings, end it. The engine's cooldown (src/engine/triggers/cooldown.ts) keeps the rule.

import type { CompactionResult } from '../../engine/result';
import type { Summarizer } from '../../engine/summarizer';
import { afterFailure, afterSuccess, coolingDown, NO_COOLDOWN, type CooldownPolicy, type CooldownState } from '../../engine/triggers/cooldown';
import type { MadeSummarizer } from '../summarizers/summarizerFactory';

/** Milliseconds: two minutes after a first failure, then 4, 8, 16, at most 30. */
export const LLM_COOLDOWN: CooldownPolicy = { wait: 2 * 60_000, maxWait: 30 * 60_000 };

/** What one compaction runs with, and what to tell the cooldown afterwards. */
export interface SummarizerChoice {
  /** undefined: the engine's extractive summarizer. */
  summarizer?: Summarizer;
  /** The LLM is really tried (its outcome counts for the cooldown). */
  tried: boolean;
}

export class LlmCooldown {
  /** By summarizer settings (what the factory describes), so other settings start afresh. */
  private readonly states = new Map<string, CooldownState>();

  constructor(
    private readonly clock: () => number,
    private readonly policy: CooldownPolicy = LLM_COOLDOWN,
  ) {}

  /** The made summarizer, or while cooling down one that hands back the extractive sections with the reason. */
  choose(made: MadeSummarizer): SummarizerChoice {
    if (!made.summarizer) return { tried: false };
    const state = this.states.get(made.name) ?? NO_COOLDOWN;
    const now = this.clock();
    if (!coolingDown(state, now)) return { summarizer: made.summarizer, tried: true };
    const minutes = Math.max(1, Math.ceil((state.until - now) / 60_000));
    const reason = `${made.name} failed ${state.consecutiveFailures === 1 ? 'on the last try' : `${state.consecutiveFailures} times in a row`}; it is tried again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
    const inner = made.summarizer;
    const standIn: Summarizer = {
      name: inner.name,
      ...(inner.model ? { model: inner.model } : {}),
      async summarize(req) {
        return { sections: { ...req.extractive }, durationMs: 0, fallbackReason: reason, fallbackKind: 'cooldown' };
      },
    };
    return { summarizer: standIn, tried: false };
  }

  /** After a compaction that really tried `made`: a fallback starts or lengthens the cooldown, a used summary ends it. */
  record(made: MadeSummarizer, choice: SummarizerChoice, result: CompactionResult): void {
    if (!choice.tried) return;
    const state = this.states.get(made.name) ?? NO_COOLDOWN;
    this.states.set(made.name, result.summarizer.fallbackReason ? afterFailure(state, this.clock(), this.policy) : afterSuccess());
  }
}
