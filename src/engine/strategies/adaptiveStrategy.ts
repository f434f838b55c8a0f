// Adaptive, the default: detect the task type (analyze/taskType.ts) and try its
// chain of strategies in order, taking the first whose kept messages fit the room the budget
// leaves; emergency (keep 3) is the last resort, and when even that does not fit, the 'summary'
// strategy cuts inside the last round (keeping at least the last tool block whole).
//   code          window → key events  → incremental
//   analysis      window → importance  → incremental
//   conversation  window → importance  → incremental
//   mixed         window → incremental → importance
// Room the chosen step leaves unused goes to the most recent summarized turns (kept verbatim).
// Levels: light and normal run the chain; heavy starts at the heavy level (keep 5), emergency
// goes straight to emergency (keep 3); neither fills the unused room.
// Each message's reason names the chain and the step that met the budget.

import type { TaskType } from '../result';
import { importanceKeep } from './importanceStrategy';
import { incrementalChunks, incrementalKeep } from './incrementalStrategy';
import { keyEventsKeep } from './keyEventsStrategy';
import { levelChoice } from './levelStrategy';
import { plainDecision, type MessageDecision, type Strategy, type StrategyContext, type StrategyDecision } from './strategy';
import { summaryStrategy } from './summaryStrategy';
import { decisionsFrom, keptTokens, keptTokensOf, turnsOf } from './turns';
import { windowKeep } from './windowStrategy';
import type { EngineWarning } from '../warnings';

export type AdaptiveStep = 'window' | 'key-events' | 'importance' | 'incremental';

export const ADAPTIVE_CHAINS: Readonly<Record<TaskType, readonly AdaptiveStep[]>> = {
  code: ['window', 'key-events', 'incremental'],
  analysis: ['window', 'importance', 'incremental'],
  conversation: ['window', 'importance', 'incremental'],
  mixed: ['window', 'incremental', 'importance'],
  // Undetected: the mixed chain, the most cautious ordering.
  unknown: ['window', 'incremental', 'importance'],
};

interface StepResult {
  decisions: MessageDecision[];
  chunks?: number[][];
  warnings: EngineWarning[];
}

/** What a step keeps, before it becomes a decision for every message: most steps are tried and
 *  passed over, so their kept tokens are found from the messages they keep, and the decisions
 *  are built for the step that is taken. */
interface StepChoice {
  keep: ReadonlyMap<number, string>;
  replaced?: ReadonlyMap<number, MessageDecision>;
  summarizedReason: string;
  /** The incremental step's chunks, found when it is taken. */
  chunks?: () => number[][];
}

function choiceOf(ctx: StrategyContext, step: AdaptiveStep | 'heavy' | 'emergency'): StepChoice {
  switch (step) {
    case 'window':
      return { keep: windowKeep(ctx), summarizedReason: 'older than the sliding window' };
    case 'key-events':
      return { keep: keyEventsKeep(ctx), summarizedReason: 'not a key event' };
    case 'importance':
      return { keep: importanceKeep(ctx), summarizedReason: 'scored under the importance threshold' };
    case 'incremental':
      return { keep: incrementalKeep(ctx), chunks: () => incrementalChunks(ctx), summarizedReason: 'in an earlier chunk' };
    case 'heavy':
    case 'emergency':
      return levelChoice(ctx, step);
  }
}

/** The steps last tried for a conversation's turns (turnsOf gives the same array for every
 *  decision of one compaction), with what they were run from. */
const STEPS = new WeakMap<
  object,
  { from: Pick<StrategyContext, 'analysis' | 'limits' | 'tokens' | 'counter'>; byStep: Map<string, { choice: StepChoice; kept: number; result?: StepResult }> }
>();

/** A step's choice and the tokens it keeps. Neither depends on the budget, so every attempt and
 *  the floor estimate of one compaction share them. */
function stepOf(ctx: StrategyContext, step: AdaptiveStep | 'heavy' | 'emergency'): { choice: StepChoice; kept: number; result?: StepResult } {
  const turns = turnsOf(ctx);
  let memo = STEPS.get(turns);
  const f = memo?.from;
  if (!memo || f!.analysis !== ctx.analysis || f!.limits !== ctx.limits || f!.tokens !== ctx.tokens || f!.counter !== ctx.counter) {
    const { analysis, limits, tokens, counter } = ctx;
    memo = { from: { analysis, limits, tokens, counter }, byStep: new Map() };
    STEPS.set(turns, memo);
  }
  let hit = memo.byStep.get(step);
  if (!hit) {
    const choice = choiceOf(ctx, step);
    hit = { choice, kept: keptTokensOf(ctx, choice.keep, choice.replaced) };
    memo.byStep.set(step, hit);
  }
  return hit;
}

/** The decisions of a step taken, built once per compaction (callers copy before they change any). */
function resultOf(ctx: StrategyContext, hit: { choice: StepChoice; result?: StepResult }): StepResult {
  if (!hit.result) {
    const { keep, replaced, summarizedReason, chunks } = hit.choice;
    hit.result = { decisions: decisionsFrom(ctx, keep, summarizedReason, replaced), ...(chunks ? { chunks: chunks() } : {}), warnings: [] };
  }
  return hit.result;
}

function summaryStep(ctx: StrategyContext): StepResult {
  const d = summaryStrategy.decide({ ...ctx, keepRecentRounds: 1 });
  return { decisions: d.decisions, warnings: d.warnings };
}

/** Which step the adaptive strategy takes for this context, and the chain it tried. */
export function adaptiveChoice(ctx: StrategyContext): { taskType: TaskType; chain: readonly AdaptiveStep[]; chosen: string; result: StepResult } {
  const taskType = ctx.analysis.taskType;
  const chain = ADAPTIVE_CHAINS[taskType] ?? ADAPTIVE_CHAINS.unknown;
  // A heavier level asked for skips the gentle steps: heavy keeps 5 recent messages, emergency 3.
  const steps =
    ctx.level === 'emergency' ? (['emergency'] as const) : ctx.level === 'heavy' ? (['heavy', 'emergency'] as const) : ([...chain, 'emergency'] as const);
  for (const step of steps) {
    const hit = stepOf(ctx, step);
    if (hit.kept <= ctx.budget.keep) return { taskType, chain, chosen: step, result: resultOf(ctx, hit) };
  }
  return { taskType, chain, chosen: 'summary', result: summaryStep(ctx) };
}

/** The chosen step's kept messages may leave room unused (a window of 9 messages under a
 *  generous target): the most recent summarized turns are kept too, newest first, while they fit,
 *  so the result uses its budget for verbatim context rather than undershooting it. */
function fillRecent(ctx: StrategyContext, decisions: MessageDecision[]): MessageDecision[] {
  const out = [...decisions];
  let used = keptTokens(ctx, out);
  const turns = turnsOf(ctx);
  for (let t = turns.length - 1; t >= 0; t--) {
    const turn = turns[t]!;
    if (turn.every((i) => out[i]!.decision !== 'summarized')) continue;
    if (turn.some((i) => ctx.messages[i]!.itemType === 'COMPACTION_SUMMARY')) break;
    const extra = turn.reduce((s, i) => s + (out[i]!.decision === 'summarized' ? ctx.tokens[i]! : 0), 0);
    if (used + extra > ctx.budget.keep) break;
    for (const i of turn) if (out[i]!.decision === 'summarized') out[i] = plainDecision('kept', 'recent, and the budget has room for it');
    used += extra;
  }
  return out;
}

export const adaptiveStrategy: Strategy = {
  name: 'adaptive',
  description:
    'Adaptive (default): detect the task type (code, analysis, conversation, mixed) and try its chain — sliding window, key events or importance, incremental — until the budget is met; emergency (keep 3) as the last resort. --level heavy starts at keep-5, emergency at keep-3.',
  keeps: "header, pinned, and what the chosen step keeps (see each message's reason)",
  decide(ctx: StrategyContext): StrategyDecision {
    const { taskType, chain, chosen, result } = adaptiveChoice(ctx);
    // Filling is for the gentle levels; heavy and emergency asked for fewer verbatim messages.
    const gentle = ctx.level !== 'heavy' && ctx.level !== 'emergency';
    const label = `adaptive ${taskType}${gentle ? '' : ` (${ctx.level})`}: ${chain.join(' → ')}; ${chosen === 'summary' ? 'none fitted, summary of all but the last round' : `${chosen} met the budget`}`;
    const filled = chosen === 'summary' || !gentle ? result.decisions : fillRecent(ctx, result.decisions);
    // Few distinct reasons: each labelled once, one string for all the messages that share it.
    const labelled = new Map<string, string>();
    const decisions = filled.map((d) => {
      let reason = labelled.get(d.reason);
      if (reason === undefined) labelled.set(d.reason, (reason = `${d.reason} [${label}]`));
      return d.replacement ? { ...d, reason } : plainDecision(d.decision, reason);
    });
    return { decisions, ...(result.chunks ? { chunks: result.chunks } : {}), warnings: result.warnings };
  },
};
