// Incremental summarization: the turns are cut into chunks of 20; every chunk
// but the last is summarized on its own, each merged onto the sections of the chunks before it
// (one summary message, section by section); the last chunk is kept whole.

import type { Strategy, StrategyContext, StrategyDecision } from './strategy';
import { decisionsFrom, turnsOf } from './turns';

/** The turns of the last chunk: the tail of `size` turns (whole, so the kept part is never a sliver). */
function lastChunkStart(ctx: StrategyContext): number {
  const size = Math.max(1, Math.floor(ctx.limits.strategy.INCREMENTAL_CHUNK_TURNS));
  return Math.max(0, turnsOf(ctx).length - size);
}

/** What the incremental strategy keeps: the last chunk. */
export function incrementalKeep(ctx: StrategyContext): Map<number, string> {
  const turns = turnsOf(ctx);
  const keep = new Map<number, string>();
  for (let t = lastChunkStart(ctx); t < turns.length; t++) for (const i of turns[t]!) keep.set(i, 'in the last chunk (kept whole)');
  return keep;
}

/** The earlier chunks, counted from the start; an earlier compaction summary goes into the first. */
export function incrementalChunks(ctx: StrategyContext): number[][] {
  const size = Math.max(1, Math.floor(ctx.limits.strategy.INCREMENTAL_CHUNK_TURNS));
  const turns = turnsOf(ctx);
  const lastStart = lastChunkStart(ctx);
  const chunks: number[][] = [];
  for (let s = 0; s < lastStart; s += size) chunks.push(turns.slice(s, Math.min(s + size, lastStart)).flat());
  const inLast = new Set<number>();
  for (let t = lastStart; t < turns.length; t++) for (const i of turns[t]!) inLast.add(i);
  const older = ctx.messages.map((m, i) => (m.itemType === 'COMPACTION_SUMMARY' && !inLast.has(i) ? i : -1)).filter((i) => i >= 0);
  if (older.length > 0) {
    if (chunks.length === 0) chunks.push([]);
    chunks[0] = [...new Set([...older, ...chunks[0]!])].sort((a, b) => a - b);
  }
  return chunks;
}

export const incrementalStrategy: Strategy = {
  name: 'incremental',
  description: 'Incremental summarization: summarize the conversation in chunks of 20 turns, each merged onto the previous ones; keep the last chunk whole.',
  keeps: 'header, pinned, the last 20 turns (a turn: a message or a tool call with its results)',
  decide(ctx: StrategyContext): StrategyDecision {
    return { decisions: decisionsFrom(ctx, incrementalKeep(ctx), 'in an earlier chunk'), chunks: incrementalChunks(ctx), warnings: [] };
  },
};
