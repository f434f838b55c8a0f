// What happens to the kept messages after any strategy has chosen them (the compactor runs it on
// every decision): the verbatim tail reads well. A kept tool output's runs of repeated lines
// collapse to one line and a count (repeatedLines.ts). The message becomes 'truncated' with a
// replacement that records the collapse; the archive holds the original, so undo stays exact.

import { formatCount } from '../segments/formatNumber';
import { strategyConstants } from './constants';
import type { MessageDecision, StrategyContext, StrategyDecision } from './strategy';
import { collapsedMessage } from './truncation';
import { isFixed } from './turns';

function collapseRepeats(ctx: StrategyContext, decisions: MessageDecision[]): number {
  const { REPEATED_LINES_MIN_RUN } = strategyConstants(ctx.constants);
  let lines = 0;
  decisions.forEach((d, i) => {
    if (d.decision !== 'kept' || d.replacement || isFixed(ctx, i)) return;
    const c = collapsedMessage(ctx.messages[i]!, ctx.tokens[i]!, REPEATED_LINES_MIN_RUN, ctx.counter);
    if (!c) return;
    lines += c.collapsedLines;
    decisions[i] = {
      decision: 'truncated',
      reason: `${d.reason}; ${formatCount(c.collapsedLines)} repeated output lines collapsed into counts (the archive keeps the original)`,
      replacement: c.message,
    };
  });
  return lines;
}

export function finishTail(ctx: StrategyContext, decision: StrategyDecision): StrategyDecision {
  const decisions = [...decision.decisions];
  collapseRepeats(ctx, decisions);
  return { ...decision, decisions };
}
