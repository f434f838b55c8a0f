// Sliding window: keep the header, the pinned messages and the most recent 4
// user/tool and 5 assistant messages (an odd count, so roles keep alternating); summarize the
// rest. The window is a contiguous tail of whole turns, so a tool block is never split.

import type { Strategy, StrategyContext, StrategyDecision } from './strategy';
import { decisionsFrom, turnsOf } from './turns';

/** A window never grows past this many times its nominal size (9 messages), so a long run of
 *  one role (an agent's many assistant steps) cannot pull in the whole conversation. */
const WINDOW_MAX_GROWTH = 2;

export function windowKeep(ctx: StrategyContext): Map<number, string> {
  const c = ctx.limits.strategy;
  const turns = turnsOf(ctx);
  const keep = new Map<number, string>();
  let userTool = 0;
  let assistant = 0;
  const cap = (c.WINDOW_USER_TOOL_MESSAGES + c.WINDOW_ASSISTANT_MESSAGES) * WINDOW_MAX_GROWTH;
  for (let t = turns.length - 1; t >= 0; t--) {
    if (userTool >= c.WINDOW_USER_TOOL_MESSAGES && assistant >= c.WINDOW_ASSISTANT_MESSAGES) break;
    if (keep.size > 0 && keep.size + turns[t]!.length > cap) break;
    for (const i of turns[t]!) {
      keep.set(i, 'within the sliding window');
      if (ctx.messages[i]!.role === 'assistant') assistant++;
      else userTool++;
    }
  }
  return keep;
}

export const windowStrategy: Strategy = {
  name: 'window',
  description: 'Sliding window: keep the most recent 4 user/tool and 5 assistant messages verbatim, summarize everything older.',
  keeps: 'system prompt, tool definitions, memory, pinned messages, the last 4 user/tool + 5 assistant messages',
  decide(ctx: StrategyContext): StrategyDecision {
    return { decisions: decisionsFrom(ctx, windowKeep(ctx), 'older than the sliding window'), warnings: [] };
  },
};
