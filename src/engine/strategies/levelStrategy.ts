// Compression levels: how hard to compact, from light to emergency.
//   light      keep the 10 most recent messages, summarize the rest
//   normal     keep the 10 most recent; older messages grouped by topic (a user turn and what
//              answers it): a group of more than 3 is summarized together, the messages of a
//              smaller group are shortened one by one (cut at a sentence boundary)
//   heavy      keep the 5 most recent, one summary of the rest
//   emergency  keep the 3 most recent, one summary of the rest (the last resort)
// Counts are of messages, rounded up to whole turns so tool blocks are never split.

import type { StrategyConstants } from './constants';
import type { MessageDecision, Strategy, StrategyContext, StrategyDecision } from './strategy';
import { alreadyTruncated, previewMessage } from './truncation';
import { decisionsFrom, keepRecentMessages, turnsOf } from './turns';

export type CompactionLevel = 'light' | 'normal' | 'heavy' | 'emergency';

export const LEVELS: readonly CompactionLevel[] = ['light', 'normal', 'heavy', 'emergency'];

/** The next heavier level, or undefined after emergency. */
export function heavierLevel(level: string): CompactionLevel | undefined {
  const i = LEVELS.indexOf(level as CompactionLevel);
  return i >= 0 && i < LEVELS.length - 1 ? LEVELS[i + 1] : undefined;
}

export function isLevel(level: string): level is CompactionLevel {
  return (LEVELS as readonly string[]).includes(level);
}

export function levelKeepCount(level: string, c: StrategyConstants): number {
  switch (level) {
    case 'light':
      return c.LEVEL_LIGHT_KEEP;
    case 'heavy':
      return c.LEVEL_HEAVY_KEEP;
    case 'emergency':
      return c.LEVEL_EMERGENCY_KEEP;
    default:
      return c.LEVEL_NORMAL_KEEP;
  }
}

/** What a level keeps (index → reason), the messages it shortens (normal level: index → its
 *  decision with the replacement), and the reason of the rest. */
export function levelChoice(
  ctx: StrategyContext,
  level: string,
): { keep: Map<number, string>; replaced: Map<number, MessageDecision>; summarizedReason: string } {
  const c = ctx.limits.strategy;
  const turns = turnsOf(ctx);
  const keep = keepRecentMessages(turns, levelKeepCount(level, c), `one of the most recent messages (${level} level)`);
  const replaced = new Map<number, MessageDecision>();
  if (level === 'normal') {
    // Topic groups: the older turns split at each user-authored message.
    const groups: number[][] = [];
    for (const turn of turns) {
      if (turn.some((i) => keep.has(i))) continue;
      const opens = ctx.messages[turn[0]!]!.role === 'user' && ctx.messages[turn[0]!]!.itemType === 'USER_MESSAGE';
      if (opens || groups.length === 0) groups.push([]);
      groups[groups.length - 1]!.push(...turn);
    }
    for (const g of groups) {
      if (g.length > c.LEVEL_NORMAL_GROUP_MIN) continue; // summarized together
      for (const i of g) {
        const m = ctx.messages[i]!;
        if (m.itemType === 'COMPACTION_SUMMARY') continue;
        const t = ctx.tokens[i]!;
        if (t <= c.LEVEL_NORMAL_SHORT_TOKENS || alreadyTruncated(m)) {
          keep.set(i, 'small topic group, short enough to keep (normal level)');
        } else {
          const replacement = previewMessage(m, t, c.LEVEL_NORMAL_SHORT_TOKENS, 'truncate', ctx.counter, ctx.archived !== false);
          replaced.set(i, { decision: 'truncated', reason: `small topic group: shortened on its own (normal level)`, replacement });
        }
      }
    }
  }
  return { keep, replaced, summarizedReason: `older than the recent messages (${level} level)` };
}

export function levelDecisions(ctx: StrategyContext, level: string): MessageDecision[] {
  const { keep, replaced, summarizedReason } = levelChoice(ctx, level);
  return decisionsFrom(ctx, keep, summarizedReason, replaced);
}

export const levelStrategy: Strategy = {
  name: 'levels',
  description:
    'Compression levels: light keeps 10 recent messages, normal also groups older ones by topic (groups of more than 3 summarized, smaller ones shortened), heavy keeps 5, emergency 3.',
  keeps: 'header, pinned, the 10 (light, normal), 5 (heavy) or 3 (emergency) most recent messages',
  decide(ctx: StrategyContext): StrategyDecision {
    const level = isLevel(ctx.level) ? ctx.level : 'normal';
    return { decisions: levelDecisions(ctx, level), warnings: [] };
  },
};
