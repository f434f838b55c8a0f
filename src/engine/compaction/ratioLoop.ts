// Stage 6: the ratio loop. The first attempt gives the summary what the kept messages leave;
// the ratio controller then shrinks or grows the summary, or gives the kept messages less room,
// for at most RATIO_MAX_ATTEMPTS runs. The best attempt wins: within the target (with its
// tolerance) beats over it; among those within, higher retention, then the fuller result; among
// those over, the smaller. Edited sections are taken as they are (nothing to re-run).

import { fitSectionMaterial } from '../segments/extractSections';
import { controlRatio } from '../validate/ratioController';
import type { ValidateConstants } from '../validate/constants';
import { extractiveAttempt, hasEditedSections, type Attempt, type AttemptContext } from './attempt';
import type { Budget } from './budget';
import { decide, keptTokens, type Decided } from './decisions';
import type { CompactionInput } from './input';
import type { ResolvedOptions } from './options';
import { extractOptions, materialOf, spanContent, type SpanContent } from './spanContent';
import { buildSummaryMessage, SKELETON_METADATA, summaryStyleOf } from './summaryMessage';

function better(a: Attempt, b: Attempt, target: number, c: ValidateConstants): boolean {
  const tol = target * (1 + c.RATIO_OVERSHOOT_TOLERANCE);
  const aIn = a.tokensAfter <= tol;
  const bIn = b.tokensAfter <= tol;
  if (aIn !== bIn) return aIn;
  if (aIn) return a.loss.overallRetention > b.loss.overallRetention || (a.loss.overallRetention === b.loss.overallRetention && a.tokensAfter > b.tokensAfter);
  return a.tokensAfter < b.tokensAfter;
}

/** The summary's budget when the kept messages of `decided` take what they take. */
function summaryBudgetFor(ctx: AttemptContext, budget: Budget, decided: Decided): number {
  return Math.max(budget.summaryMin, Math.min(budget.bodyCap, budget.available - keptTokens(ctx.input, decided.decisions)));
}

/** The ratio loop. The first attempt runs the strategy with the summary's reserve set aside and
 *  gives the summary what the kept messages leave; `compactions` counts the earlier compactions
 *  (`recorded` by the conversation, or the summaries in the span) and this one when it
 *  summarizes. Only the best attempt so far and the one being built are alive at a time (each
 *  holds its span's whole material). */
export function bestAttempt(
  input: CompactionInput,
  options: ResolvedOptions,
  budget: Budget,
  recorded: number,
): { ctx: AttemptContext; attempt: Attempt; prior: number } {
  // The first attempt is held as `best` only: once a better one is made, it is let go.
  let best = firstAttempt(input, options, budget, recorded);
  const { ctx, prior } = contextOf(input, options, best.decided, best.content, recorded);
  const initialBudget = best.summaryBudget;
  /** The last attempt, when it is not the best. */
  let last: Attempt | undefined;
  /** The figures of the attempt before the last one made, when the last one gave the recent
   *  messages less room (what that saved tells the controller whether more could help). */
  let beforeShrink: { tokensAfter: number; tailBudget: number } | undefined;
  if (best.decided.span.length === 0 || hasEditedSections(options.edits)) return { ctx, attempt: best, prior };
  for (let k = 1; k < options.limits.validate.RATIO_MAX_ATTEMPTS; k++) {
    const from = last ?? best;
    const next = nextAttempt(ctx, budget, from, initialBudget, beforeShrink);
    if (!next) break;
    last = undefined; // not needed any more: only the best and the new attempt are alive
    const made = next();
    beforeShrink = made.decided.keepRoom < from.decided.keepRoom ? { tokensAfter: from.tokensAfter, tailBudget: from.decided.keepRoom } : undefined;
    if (better(made, best, budget.target, options.limits.validate)) best = made;
    else last = made;
  }
  return { ctx, attempt: best, prior };
}

/** What the ratio controller asks for after `attempt`, as the attempt to make; undefined when
 *  it accepts, or when the tail cannot shrink further. */
function nextAttempt(
  ctx: AttemptContext,
  budget: Budget,
  attempt: Attempt,
  initialBudget: number,
  beforeShrink: { tokensAfter: number; tailBudget: number } | undefined,
): (() => Attempt) | undefined {
  const { input, options } = ctx;
  const step = controlRatio(
    {
      target: budget.target,
      tokensAfter: attempt.tokensAfter,
      summaryBudget: attempt.summaryBudget,
      summaryTokens: attempt.fit.tokens,
      summaryFloor: attempt.fit.floor,
      summaryNeed: attempt.fit.need,
      summaryCap: budget.bodyCap,
      initialSummaryBudget: initialBudget,
      tailBudget: attempt.decided.keepRoom,
      ...(beforeShrink ? { beforeShrink } : {}),
      loss: attempt.loss,
      importance: attempt.content.importance,
    },
    options.limits.validate,
  );
  if (step.action === 'accept') return undefined;
  if (step.action === 'shrink-tail') {
    const decided = decide(input, options, budget, step.tailBudget);
    if (decided.span.length === attempt.decided.span.length) return undefined;
    return () => extractiveAttempt(ctx, decided, spanContent(input, options, decided), summaryBudgetFor(ctx, budget, decided));
  }
  const { decided, content } = attempt;
  return () => extractiveAttempt(ctx, decided, content, step.summaryBudget);
}

function contextOf(
  input: CompactionInput,
  options: ResolvedOptions,
  decided: Decided,
  content: SpanContent,
  recorded: number,
): { ctx: AttemptContext; prior: number } {
  const prior = Math.max(content.material.previousCompactions, recorded);
  return { ctx: { input, options, compactions: decided.span.length > 0 ? prior + 1 : prior }, prior };
}

function firstAttempt(input: CompactionInput, options: ResolvedOptions, budget: Budget, recorded: number): Attempt {
  const decided = decide(input, options, budget, Math.max(0, budget.available - budget.reserve));
  const content = spanContent(input, options, decided);
  const { ctx } = contextOf(input, options, decided, content, recorded);
  return extractiveAttempt(ctx, decided, content, summaryBudgetFor(ctx, budget, decided));
}

/** The smallest result the invariants allow: header and pinned messages, the strategy's tail
 *  when it is given no room, and a summary holding only its required content. Exact when the
 *  attempt is over the target (the minimal span is summarized for it); otherwise estimated
 *  from the attempt's own span. */
export function minimumTokens(ctx: AttemptContext, budget: Budget, attempt: Attempt): number {
  const { input, options } = ctx;
  // An attempt the loop made with no room for the tail was decided exactly so (decide is pure).
  const minimal = attempt.decided.keepRoom === 0 ? attempt.decided : decide(input, options, budget, 0);
  const over = attempt.tokensAfter > budget.target * (1 + options.limits.validate.RATIO_OVERSHOOT_TOLERANCE);
  const material =
    over && minimal.span.length !== attempt.decided.span.length ? materialOf(input, options, minimal, minimal.span, undefined) : attempt.content.material;
  const floorSections = fitSectionMaterial(material, 0, extractOptions(input, options)).sections;
  const meta = { ...SKELETON_METADATA, compactions: ctx.compactions, summarizedMessages: minimal.span.length };
  const summaryTokens =
    minimal.span.length > 0
      ? input.counter.countMessageWith(
          buildSummaryMessage(floorSections, meta, summaryStyleOf(options), undefined, true),
          options.cache.textCounter(input.counter),
        )
      : 0;
  return budget.fixedTokens + keptTokens(input, minimal.decisions) + summaryTokens;
}
