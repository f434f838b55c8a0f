// What happens to the kept messages after any strategy has chosen them (the compactor runs it on
// every decision): the verbatim tail reads well, and at the emergency level it fits.
//   • A kept tool output's runs of repeated lines collapse to one line and a count
//     (repeatedLines.ts). The message becomes 'truncated' with a replacement that records the
//     collapse; the archive holds the original, so undo stays exact.
//   • At the emergency level, when the kept messages are over the room the budget leaves them:
//     first those a strategy kept beyond the most recent LEVEL_EMERGENCY_KEEP messages (whole
//     turns) are summarized instead; then what is still over is cut to previews, the largest
//     first, down to EMERGENCY_MIN_TOKENS each — tool blocks stay whole (every call keeps its
//     result), only their text and arguments are shortened.

import { memoSlot } from '../conversation/messageMemo';
import { formatCount } from '../segments/formatNumber';
import type { MessageDecision, StrategyContext, StrategyDecision } from './strategy';
import { collapsedMessage, emergencyPreview } from './truncation';
import { isFixed, keepRecentMessages, keptTokens, turnsOf } from './turns';

/** The smallest a kept message is cut to at the emergency level (its marker, then nothing of
 *  the text: the archive holds it). */
export const EMERGENCY_MIN_TOKENS = 0;
/** Rounds of cutting: each takes the largest messages down by the overshoot's share. */
const EMERGENCY_ROUNDS = 6;

/** Tokens of a decision's message as it will be sent. */
function sentTokens(ctx: StrategyContext, d: MessageDecision, i: number): number {
  return d.replacement ? ctx.counter.countMessage(d.replacement) : ctx.tokens[i]!;
}

type Collapsed = ReturnType<typeof collapsedMessage>;

/** collapsedMessage of a message, once per message, run length and counter. */
function collapsedOf(ctx: StrategyContext, i: number, minRun: number): Collapsed {
  const m = ctx.messages[i]!;
  const make = () => collapsedMessage(m, ctx.tokens[i]!, minRun, ctx.counter);
  if (!ctx.memo) return make();
  // The counter it was made with and what it gave (one counter per compaction, or per
  // conversation): one pair per message, not a table.
  const last = ctx.memo.get(m, memoSlot<{ counter: object | undefined; value: Collapsed | undefined }>(`tail.collapsed:${minRun}`), () => ({
    counter: undefined,
    value: undefined,
  }));
  if (last.counter !== ctx.counter) {
    last.value = make();
    last.counter = ctx.counter;
  }
  return last.value as Collapsed;
}

function collapseRepeats(ctx: StrategyContext, decisions: MessageDecision[]): number {
  const { REPEATED_LINES_MIN_RUN } = ctx.limits.strategy;
  let lines = 0;
  decisions.forEach((d, i) => {
    if (d.decision !== 'kept' || d.replacement || isFixed(ctx, i)) return;
    const c = collapsedOf(ctx, i, REPEATED_LINES_MIN_RUN);
    if (!c) return;
    lines += c.collapsedLines;
    decisions[i] = {
      decision: 'truncated',
      reason: `${d.reason}; ${formatCount(c.collapsedLines)} repeated output lines collapsed into counts (the archive keeps the original)`,
      replacement: c.message,
    };
  });
  return lines;
}

/** Summarizes the present messages outside the most recent `keep` messages (whole turns);
 *  returns how many. */
function summarizeOlder(ctx: StrategyContext, decisions: MessageDecision[], keep: number): number {
  const recent = keepRecentMessages(turnsOf(ctx), keep, '');
  let n = 0;
  decisions.forEach((d, i) => {
    if (isFixed(ctx, i) || recent.has(i) || d.decision === 'summarized' || d.decision === 'dropped') return;
    decisions[i] = { decision: 'summarized', reason: `summarized to fit the emergency budget (the strategy kept it: ${d.reason})` };
    n++;
  });
  return n;
}

/** Cuts kept messages to previews until they fit `room`; returns how many were cut. */
function fitRoom(ctx: StrategyContext, decisions: MessageDecision[], room: number): number {
  const cut = new Set<number>();
  const done = new Set<number>();
  for (let round = 0; round < EMERGENCY_ROUNDS; round++) {
    const over = keptTokens(ctx, decisions) - room;
    if (over <= 0) break;
    const present = decisions
      .map((d, i) => ({ d, i, t: sentTokens(ctx, d, i) }))
      .filter(({ d, i, t }) => !isFixed(ctx, i) && d.decision !== 'summarized' && d.decision !== 'dropped' && t > EMERGENCY_MIN_TOKENS && !done.has(i))
      .sort((a, b) => b.t - a.t || a.i - b.i);
    if (present.length === 0) break;
    const total = present.reduce((s, x) => s + x.t, 0);
    for (const { i, t } of present) {
      // Each gives up its share of the overshoot (the largest give most), never below the minimum.
      const to = Math.max(EMERGENCY_MIN_TOKENS, Math.floor(t - (over * t) / total) - 1);
      if (to >= t) continue;
      const replacement = emergencyPreview(ctx.messages[i]!, ctx.tokens[i]!, to, ctx.counter);
      if (!replacement || ctx.counter.countMessage(replacement) >= t) {
        done.add(i); // nothing shorter comes of it
        continue;
      }
      decisions[i] = {
        decision: 'truncated',
        reason: `shortened to fit the emergency budget (${formatCount(ctx.tokens[i]!)} → ${formatCount(ctx.counter.countMessage(replacement))} tokens; the archive keeps the original)`,
        replacement,
      };
      cut.add(i);
    }
  }
  return cut.size;
}

export function finishTail(ctx: StrategyContext, decision: StrategyDecision): StrategyDecision {
  const decisions = [...decision.decisions];
  collapseRepeats(ctx, decisions);
  const steps = [...(decision.degradation ?? [])];
  let warnings = decision.warnings;
  if (ctx.level === 'emergency') {
    let before = keptTokens(ctx, decisions);
    if (before > ctx.budget.keep) {
      const older = summarizeOlder(ctx, decisions, ctx.limits.strategy.LEVEL_EMERGENCY_KEEP);
      if (older > 0) {
        const after = keptTokens(ctx, decisions);
        steps.push({
          step: 'summarize-kept',
          detail: `${older} older message${older === 1 ? '' : 's'} the strategy kept summarized instead (${formatCount(before)} → ${formatCount(after)} tokens kept)`,
        });
        before = after;
      }
    }
    if (before > ctx.budget.keep) {
      const n = fitRoom(ctx, decisions, Math.max(0, ctx.budget.keep));
      if (n > 0) {
        const after = keptTokens(ctx, decisions);
        steps.push({
          step: 'shorten-recent',
          detail: `${n} recent message${n === 1 ? '' : 's'} kept verbatim shortened to previews (${formatCount(before)} → ${formatCount(after)} tokens)`,
        });
        // The strategy's "kept whole anyway" no longer holds.
        warnings = warnings.filter((w) => !w.endsWith('it is kept whole anyway'));
      }
    }
  }
  const out: StrategyDecision = { ...decision, decisions, warnings, ...(steps.length > 0 ? { degradation: steps } : {}) };
  // Chunks list what the strategy summarized; messages summarized here are in none of them, so
  // the summary is made of the whole span at once.
  if (steps.some((s) => s.step === 'summarize-kept')) delete out.chunks;
  return out;
}
