// Key-event extraction: keep task start and completion, decisions, errors and
// their fixes, key tool results, pinned and user messages (analyze/keyEvents.ts tags them),
// plus the 5 most recent non-key turns as context; summarize the rest.

import type { Strategy, StrategyContext, StrategyDecision } from './strategy';
import { decisionsFrom, turnsOf } from './turns';

/** The choice last made for a conversation's turns (turnsOf gives the same array for every
 *  decision of one compaction), with the analysis and the context count it was made from. */
const KEPT = new WeakMap<object, { analysis: StrategyContext['analysis']; context: number; keep: ReadonlyMap<number, string> }>();

/** What the key-event extraction keeps (index → reason); the same map for every decision of one
 *  compaction (callers read it, never change it). */
export function keyEventsKeep(ctx: StrategyContext): ReadonlyMap<number, string> {
  const turns = turnsOf(ctx);
  const context = ctx.limits.strategy.KEY_EVENTS_RECENT_CONTEXT;
  const hit = KEPT.get(turns);
  if (hit && hit.analysis === ctx.analysis && hit.context === context) return hit.keep;
  const keep = findKeyEvents(ctx, turns, context);
  KEPT.set(turns, { analysis: ctx.analysis, context, keep });
  return keep;
}

function findKeyEvents(ctx: StrategyContext, turns: readonly (readonly number[])[], recentContext: number): Map<number, string> {
  const keep = new Map<number, string>();
  const reasons = new Map<string, string>();
  const messages = ctx.analysis.messages;
  const NO_EVENTS: readonly string[] = [];
  const eventsOf = (i: number) => messages[i]?.keyEvents ?? NO_EVENTS;
  let context = 0;
  for (let t = turns.length - 1; t >= 0; t--) {
    const turn = turns[t]!;
    const events = turnEvents(turn, eventsOf);
    if (events.length > 0) {
      const key = events.length === 1 ? events[0]! : events.join(',');
      let reason = reasons.get(key);
      if (reason === undefined) reasons.set(key, (reason = `key event: ${events.join(', ').replace(/_/g, ' ')}`));
      for (const i of turn) keep.set(i, reason);
    } else if (context < recentContext) {
      for (const i of turn) keep.set(i, 'one of the most recent non-key messages (context)');
      context++;
    }
  }
  return keep;
}

/** The key events of a turn's messages, each kind once, in the order they first appear (a
 *  message's own list names none twice when it has one or none; most turns are one message). */
function turnEvents(turn: readonly number[], eventsOf: (i: number) => readonly string[]): readonly string[] {
  const first = eventsOf(turn[0]!);
  if (turn.length === 1 && first.length <= 1) return first;
  const out: string[] = [];
  for (const i of turn) for (const e of eventsOf(i)) if (!out.includes(e)) out.push(e);
  return out;
}

export const keyEventsStrategy: Strategy = {
  name: 'key-events',
  description:
    'Key-event extraction: keep task start/finish, decisions, errors and fixes, key tool results, pinned and user messages, plus the 5 most recent others; summarize the rest.',
  keeps: 'header, pinned, user messages, task start/finish, decisions, errors and fixes, key tool results, the 5 most recent non-key turns',
  decide(ctx: StrategyContext): StrategyDecision {
    return { decisions: decisionsFrom(ctx, keyEventsKeep(ctx), 'not a key event'), warnings: [] };
  },
};
