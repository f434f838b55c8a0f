// Selective rules per item type (seed 004 §4.1), a configurable table. Rules run in priority
// order — lower first — and stop as soon as the kept messages fit the room the budget leaves:
//   TOOL_RESULT        truncate, keep the 5 most recent tool blocks   10
//   SKILL_PROMPT       drop                                          20
//   ASSISTANT_MESSAGE  truncate, keep the 5 most recent              30
//   SKILL_METADATA     drop                                          40
//   USER_MESSAGE       truncate, keep the 5 most recent              50
//   COMPACTION_SUMMARY never                                         80
//   SYSTEM_PROMPT, MEMORY never                                     100
// "Truncate" cuts older items to 200-token previews at a sentence boundary; inside the kept tool
// blocks, arguments over 500 tokens and results over 600 become 200-token previews (seed 004
// §4.2). An item shortened before (Message.truncation) is not shortened again (seed 004 §5.3).
// When every rule has run and the result is still too big, the oldest turns are summarized.

import type { ItemType } from '../conversation/model';
import { strategyConstants } from './constants';
import { keepOpeningUser, summarizeOldestUntilFits } from './fallback';
import type { MessageDecision, Strategy, StrategyContext, StrategyDecision } from './strategy';
import { alreadyTruncated, previewMessage, shortenToolMessage } from './truncation';
import { decisionsFrom, isFixed, keptTokens, turnsOf } from './turns';

export type SelectiveAction = 'truncate' | 'drop' | 'never';

export interface SelectiveRule {
  itemType: ItemType;
  action: SelectiveAction;
  /** truncate: how many of the most recent items (tool blocks for TOOL_RESULT) stay whole. */
  keepRecent?: number;
  /** Lower runs first. */
  priority: number;
}

export const DEFAULT_SELECTIVE_RULES: readonly SelectiveRule[] = [
  { itemType: 'TOOL_RESULT', action: 'truncate', keepRecent: 5, priority: 10 },
  { itemType: 'SKILL_PROMPT', action: 'drop', priority: 20 },
  { itemType: 'ASSISTANT_MESSAGE', action: 'truncate', keepRecent: 5, priority: 30 },
  { itemType: 'SKILL_METADATA', action: 'drop', priority: 40 },
  { itemType: 'USER_MESSAGE', action: 'truncate', keepRecent: 5, priority: 50 },
  { itemType: 'COMPACTION_SUMMARY', action: 'never', priority: 80 },
  { itemType: 'SYSTEM_PROMPT', action: 'never', priority: 100 },
  { itemType: 'MEMORY', action: 'never', priority: 100 },
];

/** The conservative rules a cooldown still runs (seed 004 §7.3): drops only, nothing cut. */
export const DROP_ONLY_RULES: readonly SelectiveRule[] = DEFAULT_SELECTIVE_RULES.filter((r) => r.action === 'drop');

function applyRules(ctx: StrategyContext, rules: readonly SelectiveRule[], fallback: boolean): MessageDecision[] {
  const c = strategyConstants(ctx.constants);
  const limits = { args: c.SELECTIVE_ARGS_MAX_TOKENS, result: c.SELECTIVE_RESULT_MAX_TOKENS, preview: c.SELECTIVE_PREVIEW_TOKENS };
  const keepAll = new Map<number, string>(ctx.messages.map((_, i) => [i, 'no rule needed to touch it']));
  // Earlier summaries are kept (COMPACTION_SUMMARY: never) unless the fallback summarizes them.
  const out: MessageDecision[] = decisionsFrom(ctx, keepAll, '').map((d, i) =>
    ctx.messages[i]!.itemType === 'COMPACTION_SUMMARY' && !isFixed(ctx, i) ? { decision: 'kept', reason: 'earlier summary (never compacted by the selective rules)' } : d,
  );
  const fits = () => keptTokens(ctx, out) <= ctx.budget.keep;
  const sorted = [...rules].sort((a, b) => a.priority - b.priority);
  const turns = turnsOf(ctx);
  for (const rule of sorted) {
    if (fits()) break;
    if (rule.action === 'never') continue;
    if (rule.action === 'drop') {
      ctx.messages.forEach((m, i) => {
        if (m.itemType === rule.itemType && !isFixed(ctx, i) && ctx.blockOf[i] === undefined) out[i] = { decision: 'dropped', reason: `${rule.itemType} dropped (selective rule, priority ${rule.priority})` };
      });
      continue;
    }
    const keepRecent = rule.keepRecent ?? c.SELECTIVE_KEEP_RECENT;
    const reasonOld = `older ${rule.itemType}: shortened to a preview (selective rule, priority ${rule.priority}, keep the ${keepRecent} most recent)`;
    if (rule.itemType === 'TOOL_RESULT') {
      const blocks = turns.filter((t) => t.some((i) => ctx.messages[i]!.toolResult));
      blocks.forEach((turn, k) => {
        const recent = k >= blocks.length - keepRecent;
        for (const i of turn) {
          const m = ctx.messages[i]!;
          if (out[i]!.decision !== 'kept' || alreadyTruncated(m)) continue;
          if (recent) {
            const r = shortenToolMessage(m, ctx.tokens[i]!, limits, ctx.counter);
            if (r) out[i] = { decision: 'truncated', reason: 'oversized arguments or result in a recent tool block: 200-token preview', replacement: r };
          } else if (m.toolResult && ctx.tokens[i]! > limits.preview) {
            out[i] = { decision: 'truncated', reason: reasonOld, replacement: previewMessage(m, ctx.tokens[i]!, limits.preview, 'selective', ctx.counter) };
          }
        }
      });
      continue;
    }
    const items = ctx.messages.map((m, i) => (m.itemType === rule.itemType && !isFixed(ctx, i) && !m.toolResult ? i : -1)).filter((i) => i >= 0);
    items.slice(0, Math.max(0, items.length - keepRecent)).forEach((i) => {
      const m = ctx.messages[i]!;
      if (out[i]!.decision !== 'kept' || alreadyTruncated(m) || ctx.tokens[i]! <= limits.preview) return;
      out[i] = { decision: 'truncated', reason: reasonOld, replacement: previewMessage(m, ctx.tokens[i]!, limits.preview, 'selective', ctx.counter) };
    });
  }
  return keepOpeningUser(ctx, fallback ? summarizeOldestUntilFits(ctx, out, 'summarized: the selective rules alone did not fit the budget') : out);
}

/** A selective strategy with its own rule table. */
export function createSelectiveStrategy(name: string, rules: readonly SelectiveRule[], opts: { fallback: boolean; description: string; keeps: string }): Strategy {
  return {
    name,
    description: opts.description,
    keeps: opts.keeps,
    decide(ctx: StrategyContext): StrategyDecision {
      return { decisions: applyRules(ctx, rules, opts.fallback), warnings: [] };
    },
  };
}

export const selectiveStrategy = createSelectiveStrategy('selective', DEFAULT_SELECTIVE_RULES, {
  fallback: true,
  description:
    'Selective rules per item type (lowest priority first, until the budget is met): old tool results, then skill prompts, assistant and user messages beyond the 5 most recent shortened or dropped; oversized tool arguments/results previewed; then the oldest turns summarized if still needed.',
  keeps: 'header, pinned, earlier summaries, the 5 most recent tool blocks / assistant / user messages; older ones as 200-token previews',
});

/** Used during a cooldown: only the drop rules, never a summary (seed 004 §7.3). */
export const dropOnlyStrategy = createSelectiveStrategy('drop-only', DROP_ONLY_RULES, {
  fallback: false,
  description: 'Conservative drop rules only (skill prompts and metadata); nothing summarized or cut. What runs during a cooldown after a failed compaction.',
  keeps: 'everything except skill prompts and skill metadata',
});
