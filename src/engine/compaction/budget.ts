// Stage 3: the target size and how it divides. Header items and pinned messages are fixed; the
// summary message's skeleton (title, lead, headings, metadata) costs a known amount; what is left
// is shared between the summary and the messages the strategy keeps, half each to start with
// (the ratio loop moves the line).

import { emptySectionTexts } from '../sections';
import { REPLY_PRIMING } from '../tokens/messageCounter';
import { buildSummaryMessage, SKELETON_METADATA, summaryStyleOf } from './summaryMessage';
import type { CompactionInput } from './input';
import { COMPACTION_DEFAULTS, SUMMARY_MIN_TOKENS, SUMMARY_RESERVE_SHARE, type ResolvedOptions } from './options';
import type { EngineWarning } from '../warnings';

export interface Budget {
  /** Target size of the whole result, in tokens. */
  target: number;
  /** The caller gave a budget or a ratio (else the default ratio applies). */
  explicit: boolean;
  /** Tokens that are in every result: header items, pinned and restored messages, reply priming. */
  fixedTokens: number;
  /** Room left for the summary and the kept messages. */
  available: number;
  /** Most the summary's sections may take. */
  bodyCap: number;
  /** What the summary is expected to take before the kept messages are chosen. */
  reserve: number;
  /** The least the summary's sections get: SUMMARY_MIN_TOKENS, or 0 at the emergency level,
   *  where the target comes first and the sections take what is left. */
  summaryMin: number;
  warnings: EngineWarning[];
}

/** The target in tokens: the budget, the ratio of the original, or the default ratio. */
export function resolveTarget(options: Pick<ResolvedOptions, 'budget' | 'ratio'>, tokensBefore: number): { target: number; explicit: boolean } {
  if (options.budget !== undefined) return { target: options.budget, explicit: true };
  if (options.ratio !== undefined) return { target: Math.max(1, Math.round(options.ratio * tokensBefore)), explicit: true };
  return { target: Math.max(1, Math.round(COMPACTION_DEFAULTS.targetRatio * tokensBefore)), explicit: false };
}

/** The compaction changes only part of the conversation (up to a message, or only offloads). */
export function isScoped(options: Pick<ResolvedOptions, 'edits'>): boolean {
  return options.edits?.upTo !== undefined || options.edits?.offloadOnly === true;
}

export function planBudget(input: CompactionInput, options: ResolvedOptions): Budget {
  const resolved = resolveTarget(options, input.tokensBefore);
  const explicit = resolved.explicit;
  let target = resolved.target;
  let fixedTokens = REPLY_PRIMING;
  input.messages.forEach((m, i) => {
    if (input.header.has(i) || input.keptAlways.has(m.id)) fixedTokens += input.tokens[i]!;
  });
  // A scoped compaction's default target is a share of what it may change, besides what it keeps.
  if (!explicit && isScoped(options)) target = fixedTokens + Math.round(COMPACTION_DEFAULTS.targetRatio * Math.max(0, input.tokensBefore - fixedTokens));
  const summaryCap = options.summaryMaxTokens ?? (explicit ? Number.POSITIVE_INFINITY : COMPACTION_DEFAULTS.summaryMaxTokens);
  const style = summaryStyleOf(options);
  // Every heading is always there; an empty section's "- (none)" is the most a body can cost
  // beyond what the sections' budget counts.
  const skeleton = input.counter.countMessage(buildSummaryMessage(emptySectionTexts(), SKELETON_METADATA, style));
  const available = target - fixedTokens - skeleton;
  const summaryMin = options.level === 'emergency' ? 0 : SUMMARY_MIN_TOKENS;
  const bodyCap = Math.max(summaryMin, summaryCap - skeleton);
  const reserve = Math.min(bodyCap, Math.max(summaryMin, Math.floor(available * SUMMARY_RESERVE_SHARE)));
  const warnings: EngineWarning[] = [];
  // Only offloading needs no room for a summary.
  if (available < Math.max(1, summaryMin) && !options.edits?.offloadOnly) warnings.push({ code: 'noRoom', target, fixed: fixedTokens });
  return { target, explicit, fixedTokens, available, bodyCap, reserve, summaryMin, warnings };
}
