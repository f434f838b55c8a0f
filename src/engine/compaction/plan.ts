// The synchronous pipeline, stage by stage: options → input checks and measures → budget →
// decisions → span → the ratio loop over extractive attempts → final checks. planCompaction
// returns its result as a preview; compactConversation continues from it with the summarizer,
// the archive and the result objects.

import { validateApiShape } from '../conversation/apiShape';
import type { Conversation } from '../conversation/model';
import type { DegradationStep } from '../result';
import { buildSectionMaterial, fitSectionMaterial } from '../segments/extractSections';
import { emptySectionTexts } from '../sections';
import { escalateLevels } from '../strategies/escalation';
import { buildAttempt, type Attempt, type AttemptContext } from './attempt';
import { planBudget, resolveTarget, type Budget } from './budget';
import { keepEverything } from './decisions';
import { checkConversation, measureInput, type CompactionInput } from './input';
import { COMPACTION_WARN_AFTER, resolveOptions, type PlanOptions, type ResolvedOptions } from './options';
import { bestAttempt, minimumTokens } from './ratioLoop';
import type { EngineWarning } from '../warnings';

export interface PlannedCompaction {
  ctx: AttemptContext;
  budget: Budget;
  /** The chosen attempt (extractive sections). */
  attempt: Attempt;
  /** How many compactions the conversation has been through, this one included if it happens. */
  compactionCount: number;
  minimumTokens: number;
  warnings: EngineWarning[];
  /** Each step taken to meet the target, in order: levels handed over, then what the chosen
   *  attempt's summary and kept messages gave way (empty when nothing had to give). */
  degradation: DegradationStep[];
}

/** The attempt that leaves the conversation as it is. */
function unchanged(ctx: AttemptContext, reason: string): Attempt {
  const decided = keepEverything(ctx.input, reason);
  const material = buildSectionMaterial([], []);
  const fit = fitSectionMaterial(material, 0);
  const content = { span: [], messages: [], analyses: [], material, facts: [], importance: 0.5 };
  return buildAttempt(ctx, decided, content, emptySectionTexts(), { tokens: fit.tokens, floor: fit.floor, need: fit.need, degradation: [] }, 0);
}

/** The pipeline at the level asked for, then — with an explicit target — at heavier levels while
 *  the target is missed (strategies/escalation.ts); the hand-overs lead the degradation steps.
 *  The input is measured once for all levels. The same conversation planned again with the same
 *  options (the confirmation's preview, then Compact) is the plan the cache kept. */
export function planPipeline(conv: Conversation, opts: PlanOptions): PlannedCompaction {
  const options = resolveOptions(opts);
  checkConversation(conv, options.cache.messages);
  // The 'plan' phase starts when the analysis and the counts are done: the strategy, the sections
  // and the checks follow. A plan the cache kept announces it all the same, once.
  let announced = false;
  const announcePlan = () => {
    if (announced) return;
    announced = true;
    opts.onProgress?.({ phase: 'plan', fraction: 0.3 });
  };
  const planned = options.cache.plan(conv, options.counter, planKey(options), () => {
    const input = measureInput(conv, options);
    announcePlan();
    const { target, explicit } = resolveTarget(options, input.tokensBefore);
    const e = escalateLevels(
      options.level,
      explicit,
      target,
      (level) => planAtLevel(conv, level === options.level ? options : { ...options, level }, input),
      (p) => p.attempt.tokensAfter,
    );
    return e.steps.length > 0 ? { ...e.value, degradation: [...e.steps, ...e.value.degradation] } : e.value;
  });
  announcePlan();
  return planned;
}

function planAtLevel(conv: Conversation, options: ResolvedOptions, input: CompactionInput): PlannedCompaction {
  const budget = planBudget(input, options);
  const loop = bestAttempt(input, options, budget, conv.meta?.compactions ?? 0);
  const { ctx, prior } = loop;
  let attempt = loop.attempt;
  const minimum = minimumTokens(ctx, budget, attempt);
  let compactionCount = ctx.compactions;
  let warnings = [...budget.warnings, ...attempt.decided.strategy.warnings];
  if (attempt.decided.span.length > 0 && attempt.tokensAfter >= input.tokensBefore) {
    // Summarizing would not make it smaller (a short conversation, a tight target): keep it as it is.
    const warning: EngineWarning = { code: 'notSmaller', after: attempt.tokensAfter, before: input.tokensBefore };
    attempt = unchanged(ctx, 'compaction would not make the conversation smaller');
    compactionCount = prior;
    warnings = [warning];
  }
  const summarizing = attempt.decided.span.length > 0;
  if (summarizing && attempt.fit.floor > attempt.summaryBudget) {
    warnings.push({ code: 'requiredContentOver', floor: attempt.fit.floor, budget: attempt.summaryBudget });
  }
  if (summarizing && attempt.tokensAfter > budget.target * (1 + options.limits.validate.RATIO_OVERSHOOT_TOLERANCE)) {
    warnings.push({ code: 'overTarget', after: attempt.tokensAfter, target: budget.target });
  }
  if (!summarizing && attempt.decided.decisions.every((d) => d.decision === 'kept')) warnings.push({ code: 'nothingToCompact' });
  if (compactionCount > COMPACTION_WARN_AFTER) {
    warnings.push({ code: 'manyCompactions', count: compactionCount });
  }
  warnings.push(...apiShapeWarnings(conv, attempt));
  return { ctx, budget, attempt, compactionCount, minimumTokens: minimum, warnings, degradation: attempt.degradation };
}

/** Warnings for API-shape problems of the result; a problem the original did not have is a bug. */
function apiShapeWarnings(conv: Conversation, attempt: Attempt): EngineWarning[] {
  const shape = validateApiShape(attempt.messages);
  if (shape.ok) return [];
  const before = new Set(validateApiShape(conv.messages).problems.map((p) => `${p.kind}:${p.id}`));
  const fresh = shape.problems.filter((p) => !before.has(`${p.kind}:${p.id}`));
  if (fresh.length > 0) throw new Error(`compaction produced a conversation the chat APIs reject: ${fresh[0]!.message}`);
  return shape.problems
    .slice(0, 5)
    .map((p) => ({ code: 'apiShape', api: p.api, messageId: p.id, problem: p.message, inOriginal: before.has(`${p.kind}:${p.id}`) }));
}

/** Everything in the options a plan depends on (the counter is compared by identity). */
function planKey(o: ResolvedOptions): string {
  return JSON.stringify([o.budget, o.ratio, o.keepRecentRounds, o.strategy.name, o.level, o.focus, o.edits ?? null, o.summaryMaxTokens, o.limits, o.archived]);
}
