// The units strategies choose among. A turn is one message, or a tool block (the assistant
// message with tool calls, everything up to its last result) — never split, so every result
// stays valid for the chat APIs. Thinking-only messages join the turn they lead to (the
// reasoning goes with the action). Header items and pinned messages are not in any turn: they
// are always kept.

import { plainDecision, type MessageDecision, type StrategyContext } from './strategy';
import { headerReason, isThinkingOnly } from './summaryStrategy';

/** Which messages are fixed (1), found once per measured conversation: every step of every
 *  decision asks about every message. Kept by the pinned set, with what it was found from. */
const FIXED = new WeakMap<object, { messages: StrategyContext['messages']; header: StrategyContext['header']; fixed: Uint8Array }>();

function fixedOf(ctx: StrategyContext): Uint8Array {
  const hit = FIXED.get(ctx.pinned);
  if (hit && hit.messages === ctx.messages && hit.header === ctx.header && hit.fixed.length === ctx.messages.length) return hit.fixed;
  const fixed = new Uint8Array(ctx.messages.length);
  ctx.messages.forEach((m, i) => {
    if (ctx.header.has(i) || ctx.pinned.has(m.id)) fixed[i] = 1;
  });
  FIXED.set(ctx.pinned, { messages: ctx.messages, header: ctx.header, fixed });
  return fixed;
}

/** A header item or a pinned (or restored) message: always kept, in no turn. */
export function isFixed(ctx: StrategyContext, i: number): boolean {
  return fixedOf(ctx)[i] === 1;
}

/** The turns last found for a conversation's structure (its tool-block index, from the measured
 *  input: the same object for every decision of one compaction), with what they were found from. */
const TURNS = new WeakMap<object, { from: Pick<StrategyContext, 'messages' | 'toolBlocks' | 'header' | 'pinned'>; turns: readonly (readonly number[])[] }>();

/** The turns of the conversation, in order; each lists its message indices ascending. Found
 *  once per measured conversation: every attempt and level of a compaction decides on the same
 *  structure (callers read them, never change them). */
export function turnsOf(ctx: StrategyContext): readonly (readonly number[])[] {
  const hit = TURNS.get(ctx.blockOf);
  const f = hit?.from;
  if (f && f.messages === ctx.messages && f.toolBlocks === ctx.toolBlocks && f.header === ctx.header && f.pinned === ctx.pinned) return hit.turns;
  const turns = findTurns(ctx);
  const { messages, toolBlocks, header, pinned } = ctx;
  TURNS.set(ctx.blockOf, { from: { messages, toolBlocks, header, pinned }, turns });
  return turns;
}

function findTurns(ctx: StrategyContext): number[][] {
  const { messages, toolBlocks, blockOf } = ctx;
  const n = messages.length;
  const turns: number[][] = [];
  const fixed = fixedOf(ctx);
  let pendingThinking: number[] = [];
  let i = 0;
  while (i < n) {
    if (fixed[i]) {
      i++;
      continue;
    }
    const bi = blockOf[i];
    if (bi !== undefined) {
      const b = toolBlocks[bi]!;
      const members: number[] = [];
      for (let k = Math.min(b.start, i); k <= b.end; k++) if (!fixed[k]) members.push(k);
      turns.push(pendingThinking.length === 0 ? members : [...pendingThinking, ...members]);
      if (pendingThinking.length > 0) pendingThinking = [];
      i = b.end + 1;
      continue;
    }
    if (isThinkingOnly(messages[i]!)) {
      pendingThinking.push(i);
      i++;
      continue;
    }
    turns.push(pendingThinking.length === 0 ? [i] : [...pendingThinking, i]);
    if (pendingThinking.length > 0) pendingThinking = [];
    i++;
  }
  if (pendingThinking.length > 0) turns.push(pendingThinking);
  return turns;
}

/** Reasons of fixed messages, so every strategy words them the same way. */
function fixedReason(ctx: StrategyContext, i: number): string {
  const m = ctx.messages[i]!;
  return ctx.pinned.has(m.id) ? 'pinned' : headerReason(m);
}

/** Decisions from a choice of messages to keep (index → reason) and optional replacements
 *  (index → decision with a replacement message): fixed messages are kept, the rest summarized
 *  (an earlier compaction summary is merged section by section, never kept beside the new one). */
export function decisionsFrom(
  ctx: StrategyContext,
  keep: ReadonlyMap<number, string>,
  summarizedReason: string,
  replaced: ReadonlyMap<number, MessageDecision> = new Map(),
): MessageDecision[] {
  const fixed = fixedOf(ctx);
  return ctx.messages.map((m, i) => {
    if (fixed[i]) return plainDecision('kept', fixedReason(ctx, i));
    const r = replaced.get(i);
    if (r) return r;
    const k = keep.get(i);
    if (k !== undefined && m.itemType !== 'COMPACTION_SUMMARY') return plainDecision('kept', k);
    if (m.itemType === 'COMPACTION_SUMMARY') return plainDecision('summarized', 'earlier summary, merged section by section');
    return plainDecision('summarized', summarizedReason);
  });
}

/** Tokens the non-fixed messages present in the result take (replacements counted as sent). */
export function keptTokens(ctx: StrategyContext, decisions: readonly MessageDecision[]): number {
  const fixed = fixedOf(ctx);
  let t = 0;
  decisions.forEach((d, i) => {
    if (fixed[i]) return;
    if (d.decision === 'summarized' || d.decision === 'dropped') return;
    t += d.replacement ? ctx.counter.countMessage(d.replacement) : ctx.tokens[i]!;
  });
  return t;
}

/** keptTokens(ctx, decisionsFrom(ctx, keep, …, replaced)) without the decisions: a step's kept
 *  tokens from the few messages it keeps, not from every message of the conversation. */
export function keptTokensOf(ctx: StrategyContext, keep: ReadonlyMap<number, string>, replaced: ReadonlyMap<number, MessageDecision> = new Map()): number {
  const fixed = fixedOf(ctx);
  let t = 0;
  for (const [i, d] of replaced) {
    if (fixed[i] || d.decision === 'summarized' || d.decision === 'dropped') continue;
    t += d.replacement ? ctx.counter.countMessage(d.replacement) : ctx.tokens[i]!;
  }
  for (const i of keep.keys()) {
    if (fixed[i] || replaced.has(i) || ctx.messages[i]!.itemType === 'COMPACTION_SUMMARY') continue;
    t += ctx.tokens[i]!;
  }
  return t;
}

/** Keeps whole turns from the end until at least `count` messages are kept. */
export function keepRecentMessages(
  turns: readonly (readonly number[])[],
  count: number,
  reason: string,
  keep = new Map<number, string>(),
): Map<number, string> {
  let kept = 0;
  for (let t = turns.length - 1; t >= 0 && kept < count; t--) {
    for (const i of turns[t]!) keep.set(i, reason);
    kept += turns[t]!.length;
  }
  return keep;
}
