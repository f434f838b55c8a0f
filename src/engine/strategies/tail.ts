// What happens to the kept messages after any strategy has chosen them (the compactor runs it on
// every decision): the verbatim tail reads well, and at the emergency level it fits.
//   • The latest request — the last message a person wrote — is kept verbatim, whatever the
//     strategy and the level: an agent must never resume with its own last answer and not the
//     question that asked for it. When the tail is over its room at the emergency level, its
//     assistant and tool parts are summarized or shortened instead (below), never the request —
//     unless the request alone is over that room: then its whole round goes into the summary.
//   • A kept tool output's runs of repeated lines collapse to one line and a count
//     (repeatedLines.ts). The message becomes 'truncated' with a replacement that records the
//     collapse; the archive holds the original, so undo stays exact.
//   • At the emergency level, when the kept messages are over the room the budget leaves them:
//     first those a strategy kept beyond the most recent LEVEL_EMERGENCY_KEEP messages (whole
//     turns) are summarized instead; then what is still over is cut to previews, the largest
//     first, down to EMERGENCY_MIN_TOKENS each — tool blocks stay whole (every call keeps its
//     result), only their text and arguments are shortened.

import { memoSlot, type MemoSlot } from '../conversation/messageMemo';
import { isUserAuthored } from '../conversation/model';
import { formatCount } from '../text/formatNumber';
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

/** The counter a message's collapsedMessage was made with and what it gave (one counter per
 *  compaction, or per conversation): one pair per message, not a table. */
type CollapsedSlot = MemoSlot<{ counter: object | undefined; value: Collapsed | undefined }>;

function collapsedSlot(ctx: StrategyContext, minRun: number): CollapsedSlot {
  return memoSlot(`tail.collapsed:${minRun}:${ctx.archived !== false}`);
}

function noCollapse(): { counter: object | undefined; value: Collapsed | undefined } {
  return { counter: undefined, value: undefined };
}

/** collapsedMessage of a message, once per message, run length and counter (`slot`: collapsedSlot). */
function collapsedOf(ctx: StrategyContext, i: number, minRun: number, slot: CollapsedSlot): Collapsed {
  const m = ctx.messages[i]!;
  const archived = ctx.archived !== false;
  const make = () => collapsedMessage(m, ctx.tokens[i]!, minRun, ctx.counter, archived);
  if (!ctx.memo) return make();
  const last = ctx.memo.get(m, slot, noCollapse);
  if (last.counter !== ctx.counter) {
    last.value = make();
    last.counter = ctx.counter;
  }
  return last.value as Collapsed;
}

function collapseRepeats(ctx: StrategyContext, decisions: MessageDecision[]): number {
  const { REPEATED_LINES_MIN_RUN } = ctx.limits.strategy;
  const slot = collapsedSlot(ctx, REPEATED_LINES_MIN_RUN);
  let lines = 0;
  decisions.forEach((d, i) => {
    if (d.decision !== 'kept' || d.replacement || isFixed(ctx, i)) return;
    const c = collapsedOf(ctx, i, REPEATED_LINES_MIN_RUN, slot);
    if (!c) return;
    lines += c.collapsedLines;
    decisions[i] = {
      decision: 'truncated',
      reason: `${d.reason}; ${formatCount(c.collapsedLines)} repeated output lines collapsed into counts${ctx.archived !== false ? ' (the archive keeps the original)' : ''}`,
      replacement: c.message,
    };
  });
  return lines;
}

/** The index of the latest request: the last message a person wrote (undefined when none). */
export function latestRequest(ctx: Pick<StrategyContext, 'messages'>): number | undefined {
  for (let i = ctx.messages.length - 1; i >= 0; i--) if (isUserAuthored(ctx.messages[i]!)) return i;
  return undefined;
}

/** The reason the latest request is kept when the strategy did not keep it as it is. */
export const LATEST_REQUEST_REASON = 'the latest request: always kept verbatim (the turns after it answer it)';

/** Keeps the latest request verbatim; returns whether the strategy had not. */
function keepLatestRequest(decisions: MessageDecision[], at: number): boolean {
  const d = decisions[at]!;
  if (d.decision === 'kept' && !d.replacement) return false;
  decisions[at] = { decision: 'kept', reason: LATEST_REQUEST_REASON };
  return true;
}

/** Summarizes the latest request and every message after it that is not fixed (its round goes
 *  into the summary whole, never split from it); returns how many were present. */
function summarizeRound(ctx: StrategyContext, decisions: MessageDecision[], from: number): number {
  let n = 0;
  for (let i = from; i < decisions.length; i++) {
    const d = decisions[i]!;
    if (isFixed(ctx, i) || d.decision === 'summarized' || d.decision === 'dropped') continue;
    decisions[i] = { decision: 'summarized', reason: 'the latest round, summarized whole: its request alone is over the emergency budget' };
    n++;
  }
  return n;
}

/** Summarizes the present messages outside the most recent `keep` messages (whole turns) and
 *  the latest request; returns how many. */
function summarizeOlder(ctx: StrategyContext, decisions: MessageDecision[], keep: number, request: number | undefined): number {
  const recent = keepRecentMessages(turnsOf(ctx), keep, '');
  let n = 0;
  decisions.forEach((d, i) => {
    if (isFixed(ctx, i) || recent.has(i) || i === request || d.decision === 'summarized' || d.decision === 'dropped') return;
    decisions[i] = { decision: 'summarized', reason: `summarized to fit the emergency budget (the strategy kept it: ${d.reason})` };
    n++;
  });
  return n;
}

/** Cuts kept messages to previews until they fit `room`; the latest request (`request`) is never
 *  cut. Returns how many were cut. */
function fitRoom(ctx: StrategyContext, decisions: MessageDecision[], room: number, request: number | undefined): number {
  const cut = new Set<number>();
  const done = new Set<number>();
  for (let round = 0; round < EMERGENCY_ROUNDS; round++) {
    const over = keptTokens(ctx, decisions) - room;
    if (over <= 0) break;
    const present = decisions
      .map((d, i) => ({ d, i, t: sentTokens(ctx, d, i) }))
      .filter(
        ({ d, i, t }) =>
          i !== request && !isFixed(ctx, i) && d.decision !== 'summarized' && d.decision !== 'dropped' && t > EMERGENCY_MIN_TOKENS && !done.has(i),
      )
      .sort((a, b) => b.t - a.t || a.i - b.i);
    if (present.length === 0) break;
    const total = present.reduce((s, x) => s + x.t, 0);
    for (const { i, t } of present) {
      // Each gives up its share of the overshoot (the largest give most), never below the minimum.
      const to = Math.max(EMERGENCY_MIN_TOKENS, Math.floor(t - (over * t) / total) - 1);
      if (to >= t) continue;
      const replacement = emergencyPreview(ctx.messages[i]!, ctx.tokens[i]!, to, ctx.counter, ctx.archived !== false);
      if (!replacement || ctx.counter.countMessage(replacement) >= t) {
        done.add(i); // nothing shorter comes of it
        continue;
      }
      decisions[i] = {
        decision: 'truncated',
        reason: `shortened to fit the emergency budget (${formatCount(ctx.tokens[i]!)} → ${formatCount(ctx.counter.countMessage(replacement))} tokens${ctx.archived !== false ? '; the archive keeps the original' : ''})`,
        replacement,
      };
      cut.add(i);
    }
  }
  return cut.size;
}

export function finishTail(ctx: StrategyContext, decision: StrategyDecision): StrategyDecision {
  const decisions = [...decision.decisions];
  const steps = [...(decision.degradation ?? [])];
  let warnings = decision.warnings;
  const last = latestRequest(ctx);
  let request = last !== undefined && !isFixed(ctx, last) ? last : undefined;
  if (request !== undefined && ctx.level === 'emergency' && ctx.tokens[request]! > Math.max(0, ctx.budget.keep)) {
    // The request alone is over the room the emergency budget leaves: none of its round is kept.
    const n = summarizeRound(ctx, decisions, request);
    if (n > 0)
      steps.push({
        step: 'summarize-kept',
        detail: `the latest request alone takes ${formatCount(ctx.tokens[request]!)} tokens, over the ${formatCount(Math.max(0, ctx.budget.keep))} left for recent messages: its round (${n} message${n === 1 ? '' : 's'}) summarized whole, never split from it`,
      });
    request = undefined;
  } else if (request !== undefined) {
    // Its decision's reason says so when the strategy had not kept it as it is.
    keepLatestRequest(decisions, request);
  }
  collapseRepeats(ctx, decisions);
  if (ctx.level === 'emergency') {
    let before = keptTokens(ctx, decisions);
    if (before > ctx.budget.keep) {
      const older = summarizeOlder(ctx, decisions, ctx.limits.strategy.LEVEL_EMERGENCY_KEEP, request);
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
      const n = fitRoom(ctx, decisions, Math.max(0, ctx.budget.keep), request);
      if (n > 0) {
        const after = keptTokens(ctx, decisions);
        steps.push({
          step: 'shorten-recent',
          detail: `${n} recent message${n === 1 ? '' : 's'} kept verbatim shortened to previews (${formatCount(before)} → ${formatCount(after)} tokens)`,
        });
        // The strategy's "kept whole anyway" no longer holds.
        warnings = warnings.filter((w) => w.code !== 'lastKeptWhole');
      }
    }
  }
  const out: StrategyDecision = { ...decision, decisions, warnings, ...(steps.length > 0 ? { degradation: steps } : {}) };
  // The summary goes before the latest request when the request comes before everything
  // summarized: the reader gets what was done, then the request, then the latest work — and a
  // later compaction finds the summary first, as it put it.
  if (request !== undefined && out.summaryBefore === undefined) {
    const first = decisions.findIndex((d) => d.decision === 'summarized');
    if (first > request && decisions[request]!.decision === 'kept') out.summaryBefore = request;
  }
  // Chunks list what the strategy summarized; messages summarized here are in none of them, so
  // the summary is made of the whole span at once.
  if (steps.some((s) => s.step === 'summarize-kept')) delete out.chunks;
  return out;
}
