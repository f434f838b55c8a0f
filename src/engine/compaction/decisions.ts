// Stage 4: what happens to each message. The strategy decides; this stage enforces the
// invariants whatever it said — header items and pinned or restored messages are kept
// verbatim, and a tool block is present in the result as a whole or absent as a whole (a block
// with any member present keeps all its members) — and names the span the summary replaces.

import type { Decision } from '../result';
import { plainDecision, type MessageDecision, type StrategyContext, type StrategyDecision } from '../strategies/strategy';
import { finishTail } from '../strategies/tail';
import { offloadedMessage } from '../strategies/truncation';
import type { Budget } from './budget';
import type { CompactionInput } from './input';
import type { ResolvedOptions } from './options';

/** Decisions whose message (or its replacement) is in the result. */
export const PRESENT: ReadonlySet<Decision> = new Set<Decision>(['kept', 'truncated', 'masked', 'offloaded']);

export interface Decided {
  /** What the strategy returned (chunks, where the summary goes, its warnings). */
  strategy: StrategyDecision;
  /** One per message, invariants enforced. */
  decisions: MessageDecision[];
  /** Indices of the summarized messages, in order. */
  span: number[];
  /** The room the strategy was given for the messages it keeps. */
  keepRoom: number;
}

export function spanOf(decisions: readonly MessageDecision[]): number[] {
  const out: number[] = [];
  decisions.forEach((d, i) => {
    if (d.decision === 'summarized') out.push(i);
  });
  return out;
}

function normalizeDecisions(decisions: readonly MessageDecision[], input: CompactionInput): MessageDecision[] {
  const { messages, header, pinned, restored, offload } = input;
  if (decisions.length !== messages.length) throw new Error(`strategy returned ${decisions.length} decisions for ${messages.length} messages`);
  // Most plans pin, offload and restore nothing: then only the header is looked at.
  const byId = pinned.size > 0 || offload.size > 0 || restored.size > 0;
  const out = decisions.map((d, i): MessageDecision => {
    if (!byId && (header.size === 0 || !header.has(i))) return d;
    const m = messages[i]!;
    if (header.has(i) && (d.decision !== 'kept' || d.replacement)) return plainDecision('kept', 'header item (always kept)');
    if (pinned.has(m.id) && (d.decision !== 'kept' || d.replacement)) return plainDecision('kept', 'pinned');
    if (offload.has(m.id) && m.toolResult) {
      return {
        decision: 'offloaded',
        reason: 'offloaded in the inspector: its text is in an archive entry of its own',
        replacement: offloadedMessage(m, input.tokens[i]!, input.counter),
      };
    }
    if (restored.has(m.id)) return plainDecision('kept', 'restored in the inspector');
    // Decisions are replaced, never edited: the strategy's own objects serve (most are shared).
    return d;
  });
  // Pinned/restored members pull their whole block in.
  const pull = (i: number) => {
    if (!PRESENT.has(out[i]!.decision)) out[i] = plainDecision('kept', 'kept with its tool block');
  };
  for (const b of input.blocks) {
    // Counted in place: a long session has thousands of blocks, at every decision.
    let present = PRESENT.has(out[b.assistantIndex]!.decision) ? 1 : 0;
    for (const i of b.resultIndices) if (PRESENT.has(out[i]!.decision)) present++;
    if (present > 0 && present < b.resultIndices.length + 1) {
      pull(b.assistantIndex);
      for (const i of b.resultIndices) pull(i);
    }
  }
  return out;
}

/** Runs the strategy with `keepRoom` tokens for the messages it keeps. */
export function decide(input: CompactionInput, options: ResolvedOptions, budget: Budget, keepRoom: number): Decided {
  const ctx = strategyContext(input, options, budget, keepRoom);
  const strategy = finishTail(ctx, options.strategy.decide(ctx));
  const decisions = normalizeDecisions(strategy.decisions, input);
  return { strategy, decisions, span: spanOf(decisions), keepRoom };
}

/** What a strategy decides from: the measured input, the options, and the room for kept messages. */
export function strategyContext(input: CompactionInput, options: ResolvedOptions, budget: Budget, keepRoom: number): StrategyContext {
  return {
    messages: input.messages,
    analysis: input.analysis,
    counter: input.counter,
    tokens: input.tokens,
    budget: { target: budget.target, keep: keepRoom, summary: budget.reserve },
    keepRecentRounds: options.keepRecentRounds,
    rounds: input.rounds,
    toolBlocks: input.blocks,
    blockOf: input.blockOf,
    pinned: input.keptAlways,
    header: input.header,
    level: options.level,
    focus: options.focus,
    limits: options.limits,
    memo: options.cache.messages,
    archived: options.archived,
  };
}

/** Tokens of the messages present besides header items and pinned/restored ones. */
export function keptTokens(input: CompactionInput, decisions: readonly MessageDecision[]): number {
  let t = 0;
  decisions.forEach((d, i) => {
    if (input.header.has(i) || input.keptAlways.has(input.messages[i]!.id) || !PRESENT.has(d.decision)) return;
    t += d.replacement ? input.counter.countMessage(d.replacement) : input.tokens[i]!;
  });
  return t;
}

/** Decisions that keep every message as it is. */
export function keepEverything(input: CompactionInput, reason: string): Decided {
  const kept = plainDecision('kept', reason);
  const decisions: MessageDecision[] = input.messages.map(() => kept);
  return { strategy: { decisions, warnings: [] }, decisions, span: [], keepRoom: 0 };
}
