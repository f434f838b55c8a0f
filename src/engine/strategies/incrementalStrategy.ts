// Incremental summarization: the turns are cut into chunks of 20; every chunk
// but the last is summarized on its own, each merged onto the sections of the chunks before it
// (one summary message, section by section); the last chunk is kept whole.

import type { Strategy, StrategyContext, StrategyDecision } from './strategy';
import { decisionsFrom, turnsOf } from './turns';

export function incrementalPlan(ctx: StrategyContext): { keep: Map<number, string>; chunks: number[][] } {
  const c = ctx.limits.strategy;
  const size = Math.max(1, Math.floor(c.INCREMENTAL_CHUNK_TURNS));
  const turns = turnsOf(ctx);
  const keep = new Map<number, string>();
  const chunks: number[][] = [];
  // The last chunk is the tail of `size` turns (whole, so the kept part is never a sliver).
  const lastStart = Math.max(0, turns.length - size);
  for (let t = lastStart; t < turns.length; t++) for (const i of turns[t]!) keep.set(i, 'in the last chunk (kept whole)');
  // Earlier chunks, counted from the start; an earlier compaction summary goes into the first.
  for (let s = 0; s < lastStart; s += size) chunks.push(turns.slice(s, Math.min(s + size, lastStart)).flat());
  const older = ctx.messages.map((m, i) => (m.itemType === 'COMPACTION_SUMMARY' && !keep.has(i) ? i : -1)).filter((i) => i >= 0);
  if (older.length > 0) {
    if (chunks.length === 0) chunks.push([]);
    chunks[0] = [...new Set([...older, ...chunks[0]!])].sort((a, b) => a - b);
  }
  return { keep, chunks };
}

export const incrementalStrategy: Strategy = {
  name: 'incremental',
  description: 'Incremental summarization: summarize the conversation in chunks of 20 turns, each merged onto the previous ones; keep the last chunk whole.',
  keeps: 'header, pinned, the last 20 turns (a turn: a message or a tool call with its results)',
  decide(ctx: StrategyContext): StrategyDecision {
    const { keep, chunks } = incrementalPlan(ctx);
    return { decisions: decisionsFrom(ctx, keep, 'in an earlier chunk'), chunks, warnings: [] };
  },
};
