// Duplicate merging: acknowledgements that only echo ("ok", "thanks", 好的, 收到)
// next to another acknowledgement or an assistant reply are dropped, and a message nearly
// identical (similarity > 0.8, analyze/nearDuplicates.ts) to the next message of its role
// (acknowledgements skipped) is merged into it — the later, current wording stays. Tool blocks are never touched.
// If still over the budget, the oldest turns are summarized.

import { keepOpeningUser, summarizeOldestUntilFits } from './fallback';
import type { MessageDecision, Strategy, StrategyContext, StrategyDecision } from './strategy';
import { decisionsFrom, isFixed } from './turns';

export function dedupeDecisions(ctx: StrategyContext): MessageDecision[] {
  const keepAll = new Map<number, string>(ctx.messages.map((_, i) => [i, 'not a duplicate']));
  const out = decisionsFrom(ctx, keepAll, '');
  const n = ctx.messages.length;
  const free = (i: number) => i >= 0 && i < n && !isFixed(ctx, i) && ctx.blockOf[i] === undefined && ctx.messages[i]!.itemType !== 'COMPACTION_SUMMARY';
  for (let i = 0; i < n - 1; i++) {
    if (!free(i)) continue;
    const a = ctx.analysis.messages[i];
    if (a?.isAcknowledgement) {
      const next = ctx.analysis.messages[i + 1];
      const nextMsg = ctx.messages[i + 1]!;
      // Consecutive: another acknowledgement or an answer follows it, so it adds nothing.
      if (next?.isAcknowledgement || nextMsg.role === 'assistant') out[i] = { decision: 'dropped', reason: 'acknowledgement (consecutive, adds nothing)' };
      continue;
    }
    // Near-duplicates: i is merged into the next message of its role (acknowledgements and
    // other roles in between do not count) when that one repeats it.
    for (let j = i + 1; j < n; j++) {
      if (ctx.messages[j]!.role !== ctx.messages[i]!.role || ctx.analysis.messages[j]?.isAcknowledgement) continue;
      if (free(j) && ctx.analysis.messages[j]?.nearDuplicateOf === i)
        out[i] = { decision: 'dropped', reason: `merged into ${ctx.messages[j]!.id} (near-identical, similarity > 0.8)` };
      break;
    }
  }
  return out;
}

export const dedupeStrategy: Strategy = {
  name: 'dedupe',
  description:
    'Duplicate merging: drop consecutive acknowledgements, merge near-identical consecutive messages (similarity > 0.8); summarize the oldest turns only if still over budget.',
  keeps: 'every message except repeated acknowledgements and the earlier copy of a near-identical pair',
  decide(ctx: StrategyContext): StrategyDecision {
    return {
      decisions: keepOpeningUser(ctx, summarizeOldestUntilFits(ctx, dedupeDecisions(ctx), 'summarized: merging duplicates alone did not fit the budget')),
      warnings: [],
    };
  },
};
