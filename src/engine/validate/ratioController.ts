// Compression-ratio controller: after each extraction, decide whether to accept
// the result or run again with more or less budget.
//   • Over the target (beyond RATIO_OVERSHOOT_TOLERANCE): shrink — first the summary, down to
//     its floor (required content) and never below RATIO_MIN of its first allocation; when the
//     summary is already at its floor, give the kept recent messages less room instead — unless
//     the last time they were given less room saved so little per token of room that the room
//     left could not reach the target (a summary of them costs about what they cost: the person's
//     own words, which the summary keeps whole).
//   • Loss moderate or severe, or important content (> 0.8) retained below 0.7, and the result
//     below RATIO_MAX of the target: grow the summary by fixed adjustments (severe +0.3,
//     moderate +0.15, important +0.1, retention < 0.5 +0.2, < 0.7 +0.1, as shares of the target).
//   • Far under the target (by RATIO_DEVIATION) while the summary had to shorten or leave out
//     items: grow the summary into the unused room.
// Growth never takes the result beyond the target nor the summary beyond its own cap.

import type { LossReport } from '../result';
import type { ValidateConstants } from './constants';

export interface RatioAttempt {
  /** Target size of the whole result, tokens. */
  target: number;
  tokensAfter: number;
  /** Budget the summary's sections were given, and the tokens they used. */
  summaryBudget: number;
  summaryTokens: number;
  /** Tokens the sections' required items need (the floor) and everything would take (the need). */
  summaryFloor: number;
  summaryNeed: number;
  /** Upper bound for the summary budget (summaryMaxTokens less the message's fixed parts). */
  summaryCap: number;
  /** The first summary budget of this compaction. */
  initialSummaryBudget: number;
  /** Room the recent kept messages were given. */
  tailBudget: number;
  /** The attempt before this one, when this one gave the recent messages less room. */
  beforeShrink?: { tokensAfter: number; tailBudget: number };
  loss: LossReport;
  importance: number;
}

export interface RatioDecision {
  action: 'accept' | 'shrink-summary' | 'shrink-tail' | 'grow-summary';
  summaryBudget: number;
  tailBudget: number;
  reason: string;
}

export function controlRatio(a: RatioAttempt, c: ValidateConstants): RatioDecision {
  const accept = (reason: string): RatioDecision => ({ action: 'accept', summaryBudget: a.summaryBudget, tailBudget: a.tailBudget, reason });
  const over = a.tokensAfter - a.target;
  if (over > a.target * c.RATIO_OVERSHOOT_TOLERANCE) {
    const lowest = Math.max(a.summaryFloor, Math.floor(a.initialSummaryBudget * c.RATIO_MIN));
    const canShrink = Math.min(a.summaryTokens, a.summaryBudget) - lowest;
    if (canShrink > 0) {
      const next = Math.max(lowest, Math.min(a.summaryTokens, a.summaryBudget) - over);
      return {
        action: 'shrink-summary',
        summaryBudget: next,
        tailBudget: a.tailBudget,
        reason: `${over} tokens over the target: summary budget ${a.summaryBudget} → ${next}`,
      };
    }
    if (a.tailBudget > 0 && a.beforeShrink && a.beforeShrink.tailBudget > a.tailBudget) {
      const savedPerToken = (a.beforeShrink.tokensAfter - a.tokensAfter) / (a.beforeShrink.tailBudget - a.tailBudget);
      const reach = savedPerToken * a.tailBudget;
      if (reach < over - a.target * c.RATIO_OVERSHOOT_TOLERANCE) {
        return accept(
          `${over} tokens over the target: less room for recent messages saved ${savedPerToken.toFixed(2)} tokens per token, the ${a.tailBudget} left would save ${Math.max(0, Math.round(reach))}`,
        );
      }
    }
    if (a.tailBudget > 0) {
      const next = Math.max(0, a.tailBudget - over);
      return {
        action: 'shrink-tail',
        summaryBudget: a.summaryBudget,
        tailBudget: next,
        reason: `${over} tokens over the target with the summary at its floor: room for recent messages ${a.tailBudget} → ${next}`,
      };
    }
    return accept(`${over} tokens over the target, nothing left to shrink`);
  }
  const room = Math.floor(a.target * c.RATIO_MAX) - a.tokensAfter;
  const headroom = Math.min(a.summaryCap - a.summaryBudget, a.target - a.tokensAfter);
  const wantsMore = a.summaryNeed > a.summaryTokens;
  if (!wantsMore || headroom <= 0) return accept('within the target');
  const level = a.loss.lossLevel;
  const retention = a.loss.overallRetention;
  const lossy = level === 'severe' || level === 'moderate' || (a.importance > c.HIGH_IMPORTANCE && retention < 0.7);
  if (lossy && room > 0) {
    let adj = 0;
    if (level === 'severe') adj += c.RATIO_ADJUST_SEVERE;
    else if (level === 'moderate') adj += c.RATIO_ADJUST_MODERATE;
    if (a.importance > c.HIGH_IMPORTANCE) adj += c.RATIO_ADJUST_IMPORTANT;
    if (retention < 0.5) adj += c.RATIO_ADJUST_LOW_RETENTION;
    else if (retention < 0.7) adj += c.RATIO_ADJUST_MEDIUM_RETENTION;
    const grow = Math.min(Math.floor(adj * a.target), room, headroom);
    if (grow > 0)
      return {
        action: 'grow-summary',
        summaryBudget: a.summaryBudget + grow,
        tailBudget: a.tailBudget,
        reason: `${level} loss (retention ${retention}): summary budget +${grow}`,
      };
  }
  if (a.tokensAfter < a.target * (1 - c.RATIO_DEVIATION)) {
    const grow = Math.min(a.target - a.tokensAfter, headroom);
    if (grow > 0)
      return {
        action: 'grow-summary',
        summaryBudget: a.summaryBudget + grow,
        tailBudget: a.tailBudget,
        reason: `result ${a.tokensAfter} far under the target ${a.target}: summary budget +${grow}`,
      };
  }
  return accept('within the target');
}
