// How full a conversation is, for the meter's colour, the proposal and the chat participant: the
// engine's trigger rule (src/engine/triggers/shouldCompact.ts) decides when compaction is due,
// and the warning colour starts WARNING_MARGIN of the window before that.

import type { TokenReport } from '../engine/tokens/report';
import { shouldCompact } from '../engine/triggers/shouldCompact';

/** The meter turns to the warning colour this far (as a fraction of the window) below the
 *  trigger, so the user sees compaction coming before it is proposed. */
export const WARNING_MARGIN = 0.1;

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
  if (!(report.window > 0)) return { level: 'ok', ratio: 0, thresholdTokens: 0, overWindow: false };
  const due = shouldCompact(report.total, { contextWindow: report.window, triggerRatio });
  const near = shouldCompact(report.total, { contextWindow: report.window, triggerRatio: Math.max(0, triggerRatio - WARNING_MARGIN) });
  const level: PressureLevel = due.compact ? 'trigger' : near.compact ? 'warning' : 'ok';
  return { level, ratio: due.usage, thresholdTokens: due.thresholdTokens, overWindow: report.total > report.window };
}
