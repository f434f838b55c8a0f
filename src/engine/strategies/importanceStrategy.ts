// Importance scoring: keep every message whose role score (user 5.0, assistant
// 2.0, + keyword, tool, error and pin bonuses — analyze/roleScore.ts) reaches the threshold
// (3.0), plus the 5 most recent low scorers as context; summarize the rest. A turn is kept when
// any of its messages is (a tool block travels whole).

import type { Strategy, StrategyContext, StrategyDecision } from './strategy';
import { decisionsFrom, turnsOf } from './turns';

export function importanceKeep(ctx: StrategyContext): Map<number, string> {
  const c = ctx.limits.strategy;
  const turns = turnsOf(ctx);
  const keep = new Map<number, string>();
  const score = (i: number) => ctx.analysis.messages[i]?.importance.roleScore ?? 0;
  let recentLow = 0;
  for (let t = turns.length - 1; t >= 0; t--) {
    const turn = turns[t]!;
    const best = Math.max(...turn.map(score));
    if (best >= c.IMPORTANCE_KEEP_THRESHOLD) {
      for (const i of turn) keep.set(i, `importance ${best.toFixed(1)} ≥ ${c.IMPORTANCE_KEEP_THRESHOLD}`);
    } else if (recentLow < c.IMPORTANCE_RECENT_LOW_KEPT) {
      for (const i of turn) keep.set(i, 'one of the most recent low scorers (context)');
      recentLow++;
    }
  }
  return keep;
}

export const importanceStrategy: Strategy = {
  name: 'importance',
  description:
    'Importance scoring: keep messages scoring at least 3.0 (user input, errors, fixes, decisions, pins) and the 5 most recent others; summarize the rest.',
  keeps: 'header, pinned, every message with role score ≥ 3.0 (all user messages), the 5 most recent low scorers',
  decide(ctx: StrategyContext): StrategyDecision {
    return { decisions: decisionsFrom(ctx, importanceKeep(ctx), 'scored under the importance threshold'), warnings: [] };
  },
};
