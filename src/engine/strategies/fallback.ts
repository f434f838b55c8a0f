// The summary fallback of the strategies that shorten in place (selective,
// masking, duplicate merging): when what they leave is still over the room the budget gives the
// kept messages, the oldest turns are summarized until it fits — the most recent turn always
// stays.

import type { MessageDecision, StrategyContext } from './strategy';
import { keptTokens, turnsOf } from './turns';

export function summarizeOldestUntilFits(ctx: StrategyContext, decisions: MessageDecision[], reason: string): MessageDecision[] {
  let used = keptTokens(ctx, decisions);
  // With nothing summarized there is no summary: the kept messages get its share too.
  const nothingSummarized = !decisions.some((d) => d.decision === 'summarized');
  if (used <= ctx.budget.keep + (nothingSummarized ? ctx.budget.summary : 0)) return decisions;
  const out = [...decisions];
  const turns = turnsOf(ctx);
  for (let t = 0; t < turns.length - 1 && used > ctx.budget.keep; t++) {
    for (const i of turns[t]!) {
      const d = out[i]!;
      if (d.decision === 'summarized' || d.decision === 'dropped') continue;
      used -= d.replacement ? ctx.counter.countMessage(d.replacement) : ctx.tokens[i]!;
      out[i] = { decision: 'summarized', reason };
    }
  }
  return out;
}

/** With nothing summarized there is no summary message to open the conversation, so the first
 *  message after the header must stay a user message (Anthropic rejects anything else): a drop
 *  that would open it with an assistant turn is taken back. */
export function keepOpeningUser(ctx: StrategyContext, decisions: MessageDecision[]): MessageDecision[] {
  if (decisions.some((d) => d.decision === 'summarized')) return decisions;
  const out = [...decisions];
  for (let i = 0; i < out.length; i++) {
    const m = ctx.messages[i]!;
    if (m.role === 'system') continue;
    if (out[i]!.decision === 'dropped' && m.role === 'user') {
      out[i] = { decision: 'kept', reason: 'kept: it opens the conversation' };
      return out;
    }
    if (out[i]!.decision !== 'dropped') return out;
  }
  return out;
}
