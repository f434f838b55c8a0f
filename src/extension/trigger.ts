// When a conversation should be compacted, and how the meter colours it. One small function so
// it can be swapped for the engine's shouldCompact (src/engine/triggers) once that lands.

import type { TokenReport } from '../engine/tokens/report';

/** The meter turns to the warning colour this far (as a fraction of the window) below the
 *  trigger, so the user sees compaction coming before it is proposed. */
export const WARNING_MARGIN = 0.1;

/** Floating-point slack: 0.8 − 0.1 is 0.7000000000000001, and 700 of 1,000 tokens must count as 70%. */
const RATIO_EPSILON = 1e-9;

export type PressureLevel = 'ok' | 'warning' | 'trigger';

export interface ContextPressure {
  level: PressureLevel;
  /** total / window (0 when the window is unknown). */
  ratio: number;
  /** Tokens at which compaction is proposed: triggerRatio × window. */
  thresholdTokens: number;
  /** True when the conversation no longer fits the window at all. */
  overWindow: boolean;
}

export function contextPressure(report: Pick<TokenReport, 'total' | 'window'>, triggerRatio: number): ContextPressure {
  const ratio = report.window > 0 ? report.total / report.window : 0;
  const thresholdTokens = Math.floor(report.window * triggerRatio);
  const level: PressureLevel =
    ratio >= triggerRatio - RATIO_EPSILON ? 'trigger' : ratio >= triggerRatio - WARNING_MARGIN - RATIO_EPSILON ? 'warning' : 'ok';
  return { level, ratio, thresholdTokens, overWindow: report.window > 0 && report.total > report.window };
}
