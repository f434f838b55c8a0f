// Selective rules per item type, a configurable table. Rules run in priority order — lower
// first — and stop as soon as the kept messages fit the room the budget leaves:
//   TOOL_RESULT        truncate, keep the most recent tool blocks (keepRecentToolBlocks)  10
//   SKILL_PROMPT       drop                                                            20
//   ASSISTANT_MESSAGE  truncate, keep the 5 most recent                                30
//   SKILL_METADATA     drop                                                            40
//   USER_MESSAGE       truncate, keep the 5 most recent                                50
//   COMPACTION_SUMMARY never                                                           80
//   SYSTEM_PROMPT, MEMORY never                                                       100
// "Truncate" cuts older items to previews of previewTokens at a sentence boundary; an older tool
// result over offloadTokens is offloaded instead (a placeholder naming an archive entry of its
// own). Inside the kept tool blocks, arguments over toolArgumentTokens and results over
// toolResultTokens become previews (the sizes are ToolLimits, the extension's settings). An item
// shortened before (Message.truncation) is not shortened again. When every rule has run and the
// result is still too big, the oldest turns are summarized.

import type { ItemType } from '../conversation/model';
import { keepOpeningUser, summarizeOldestUntilFits } from './fallback';
import type { MessageDecision, Strategy, StrategyContext, StrategyDecision } from './strategy';
import { alreadyTruncated, offloadedMessage, previewMessage, shortenToolMessage } from './truncation';
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
  // keepRecent: ToolLimits.keepRecentToolBlocks (the extension's setting).
  { itemType: 'TOOL_RESULT', action: 'truncate', priority: 10 },
  { itemType: 'SKILL_PROMPT', action: 'drop', priority: 20 },
  { itemType: 'ASSISTANT_MESSAGE', action: 'truncate', keepRecent: 5, priority: 30 },
  { itemType: 'SKILL_METADATA', action: 'drop', priority: 40 },
  { itemType: 'USER_MESSAGE', action: 'truncate', keepRecent: 5, priority: 50 },
  { itemType: 'COMPACTION_SUMMARY', action: 'never', priority: 80 },
  { itemType: 'SYSTEM_PROMPT', action: 'never', priority: 100 },
  { itemType: 'MEMORY', action: 'never', priority: 100 },
];

/** The conservative rules: drops only, nothing cut. */
export const DROP_ONLY_RULES: readonly SelectiveRule[] = DEFAULT_SELECTIVE_RULES.filter((r) => r.action === 'drop');

function applyRules(ctx: StrategyContext, rules: readonly SelectiveRule[], fallback: boolean): MessageDecision[] {
  const tools = ctx.limits.tools;
  const limits = { args: tools.toolArgumentTokens, result: tools.toolResultTokens, preview: tools.previewTokens };
  const keepAll = new Map<number, string>(ctx.messages.map((_, i) => [i, 'no rule needed to touch it']));
  // Earlier summaries are kept (COMPACTION_SUMMARY: never) unless the fallback summarizes them.
  const out: MessageDecision[] = decisionsFrom(ctx, keepAll, '').map((d, i) =>
    ctx.messages[i]!.itemType === 'COMPACTION_SUMMARY' && !isFixed(ctx, i)
      ? { decision: 'kept', reason: 'earlier summary (never compacted by the selective rules)' }
      : d,
  );
  const fits = () => keptTokens(ctx, out) <= ctx.budget.keep;
  const sorted = [...rules].sort((a, b) => a.priority - b.priority);
  const turns = turnsOf(ctx);
  for (const rule of sorted) {
    if (fits()) break;
    if (rule.action === 'never') continue;
    if (rule.action === 'drop') {
      ctx.messages.forEach((m, i) => {
        if (m.itemType === rule.itemType && !isFixed(ctx, i) && ctx.blockOf[i] === undefined)
          out[i] = { decision: 'dropped', reason: `${rule.itemType} dropped (selective rule, priority ${rule.priority})` };
      });
      continue;
    }
    const keepRecent = rule.keepRecent ?? (rule.itemType === 'TOOL_RESULT' ? tools.keepRecentToolBlocks : ctx.limits.strategy.SELECTIVE_KEEP_RECENT);
    const reasonOld = `older ${rule.itemType}: shortened to a preview (selective rule, priority ${rule.priority}, keep the ${keepRecent} most recent)`;
    if (rule.itemType === 'TOOL_RESULT') {
      const reasonOffload = `older ${rule.itemType} over ${tools.offloadTokens} tokens: offloaded to an archive entry of its own (selective rule, priority ${rule.priority}, keep the ${keepRecent} most recent)`;
      const blocks = turns.filter((t) => t.some((i) => ctx.messages[i]!.toolResult));
      blocks.forEach((turn, k) => {
        const recent = k >= blocks.length - keepRecent;
        for (const i of turn) {
          const m = ctx.messages[i]!;
          if (out[i]!.decision !== 'kept' || alreadyTruncated(m)) continue;
          if (recent) {
            const r = shortenToolMessage(m, ctx.tokens[i]!, limits, ctx.counter, ctx.archived !== false);
            if (r)
              out[i] = {
                decision: 'truncated',
                reason: `oversized arguments or result in a recent tool block: ${limits.preview}-token preview`,
                replacement: r,
              };
          } else if (m.toolResult && ctx.tokens[i]! > tools.offloadTokens) {
            out[i] = { decision: 'offloaded', reason: reasonOffload, replacement: offloadedMessage(m, ctx.tokens[i]!, ctx.counter) };
          } else if (m.toolResult && ctx.tokens[i]! > limits.preview) {
            out[i] = {
              decision: 'truncated',
              reason: reasonOld,
              replacement: previewMessage(m, ctx.tokens[i]!, limits.preview, 'selective', ctx.counter, ctx.archived !== false),
            };
          }
        }
      });
      continue;
    }
    const items = ctx.messages.map((m, i) => (m.itemType === rule.itemType && !isFixed(ctx, i) && !m.toolResult ? i : -1)).filter((i) => i >= 0);
    items.slice(0, Math.max(0, items.length - keepRecent)).forEach((i) => {
      const m = ctx.messages[i]!;
      if (out[i]!.decision !== 'kept' || alreadyTruncated(m) || ctx.tokens[i]! <= limits.preview) return;
      out[i] = {
        decision: 'truncated',
        reason: reasonOld,
        replacement: previewMessage(m, ctx.tokens[i]!, limits.preview, 'selective', ctx.counter, ctx.archived !== false),
      };
    });
  }
  return keepOpeningUser(ctx, fallback ? summarizeOldestUntilFits(ctx, out, 'summarized: the selective rules alone did not fit the budget') : out);
}

/** A selective strategy with its own rule table. */
export function createSelectiveStrategy(
  name: string,
  rules: readonly SelectiveRule[],
  opts: { fallback: boolean; description: string; keeps: string },
): Strategy {
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
    'Selective rules per item type (lowest priority first, until the budget is met): old tool results (offloaded to the archive when over 1,000 tokens), then skill prompts, assistant and user messages beyond the 5 most recent shortened or dropped; oversized tool arguments/results previewed; then the oldest turns summarized if still needed.',
  keeps:
    'header, pinned, earlier summaries, the 5 most recent tool blocks / assistant / user messages; older ones as 200-token previews or archive placeholders',
});

/** Only the drop rules, never a summary: the most conservative strategy a person can choose. */
export const dropOnlyStrategy = createSelectiveStrategy('drop-only', DROP_ONLY_RULES, {
  fallback: false,
  description: 'Conservative drop rules only (skill prompts and metadata); nothing summarized or cut.',
  keeps: 'everything except skill prompts and skill metadata',
});
