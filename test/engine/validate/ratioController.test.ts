// The ratio controller over the target with the summary at its floor: it gives the recent messages
// less room — unless the last time it did so saved so little per token of room that the room left
// could not bring the result within the target (summarizing the recent messages costs about what
// keeping them does), where making the attempt again would only cost time.

import { describe, expect, it } from 'vitest';
import type { LossReport } from '../../../src/engine/result';
import { VALIDATE_CONSTANTS } from '../../../src/engine/validate/constants';
import { controlRatio, type RatioAttempt } from '../../../src/engine/validate/ratioController';

const loss = { overallRetention: 1, lossLevel: 'minimal', acceptable: true } as unknown as LossReport;

/** 1,200,000 tokens against a target of 870,000, the summary at its floor, 28,615 tokens of room
 *  left for the recent messages. */
function overAtFloor(extra: Partial<RatioAttempt> = {}): RatioAttempt {
  return {
    target: 870_000,
    tokensAfter: 1_216_499,
    summaryBudget: 2_831,
    summaryTokens: 1_286_745,
    summaryFloor: 1_286_745,
    summaryNeed: 1_287_265,
    summaryCap: 20_000,
    initialSummaryBudget: 2_831,
    tailBudget: 28_615,
    loss,
    importance: 0.5,
    ...extra,
  };
}

describe('controlRatio, over the target with the summary at its floor', () => {
  it('gives the recent messages less room when nothing says it cannot help', () => {
    const step = controlRatio(overAtFloor(), VALIDATE_CONSTANTS);
    expect(step).toMatchObject({ action: 'shrink-tail', tailBudget: 0 });
  });

  it('stops when the last shrink saved too little per token for the room left to reach the target', () => {
    // 771,385 tokens of room given up saved 53,501 tokens: 0.07 a token; the 28,615 left would save ~2,000.
    const step = controlRatio(overAtFloor({ beforeShrink: { tokensAfter: 1_270_000, tailBudget: 800_000 } }), VALIDATE_CONSTANTS);
    expect(step.action).toBe('accept');
    expect(step.reason).toMatch(/saved 0\.07 tokens per token/);
  });

  it('goes on when the last shrink saved enough for the room left to reach the target', () => {
    // Nearly a token saved for each token of room: the room left can close the gap.
    const step = controlRatio(
      overAtFloor({ tokensAfter: 895_000, tailBudget: 200_000, beforeShrink: { tokensAfter: 1_600_000, tailBudget: 900_000 } }),
      VALIDATE_CONSTANTS,
    );
    expect(step).toMatchObject({ action: 'shrink-tail', tailBudget: 175_000 });
  });
});
