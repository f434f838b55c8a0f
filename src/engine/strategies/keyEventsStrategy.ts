// Key-event extraction: keep task start and completion, decisions, errors and
// their fixes, key tool results, pinned and user messages (analyze/keyEvents.ts tags them),
// plus the 5 most recent non-key turns as context; summarize the rest.

import type { Strategy, StrategyContext, StrategyDecision } from './strategy';
import { decisionsFrom, turnsOf } from './turns';

export function keyEventsKeep(ctx: StrategyContext): Map<number, string> {
  const c = ctx.limits.strategy;
  const turns = turnsOf(ctx);
  const keep = new Map<number, string>();
  let context = 0;
  for (let t = turns.length - 1; t >= 0; t--) {
    const turn = turns[t]!;
    const events = [...new Set(turn.flatMap((i) => ctx.analysis.messages[i]?.keyEvents ?? []))];
    if (events.length > 0) {
      for (const i of turn) keep.set(i, `key event: ${events.join(', ').replace(/_/g, ' ')}`);
    } else if (context < c.KEY_EVENTS_RECENT_CONTEXT) {
      for (const i of turn) keep.set(i, 'one of the most recent non-key messages (context)');
      context++;
    }
  }
  return keep;
}

export const keyEventsStrategy: Strategy = {
  name: 'key-events',
  description: 'Key-event extraction: keep task start/finish, decisions, errors and fixes, key tool results, pinned and user messages, plus the 5 most recent others; summarize the rest.',
  keeps: 'header, pinned, user messages, task start/finish, decisions, errors and fixes, key tool results, the 5 most recent non-key turns',
  decide(ctx: StrategyContext): StrategyDecision {
    return { decisions: decisionsFrom(ctx, keyEventsKeep(ctx), 'not a key event'), warnings: [] };
  },
};
