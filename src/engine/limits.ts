// Every number a compaction can be tuned with, as one typed object: the sizes of tool content
// (what the extension's settings of the same names set), and the named constants of each stage
// (analysis, strategies, section builders, validation), each documented where it is defined.
// CompactOptions.limits overrides any of them by name, checked by the compiler; DEFAULT_LIMITS
// is the one set of defaults the CLI and the extension share.

import { ANALYZE_CONSTANTS, type AnalyzeConstants } from './analyze/constants';
import { SEGMENT_CONSTANTS, type SegmentConstants } from './segments/constants';
import { STRATEGY_DEFAULTS, type StrategyConstants } from './strategies/constants';
import { VALIDATE_CONSTANTS, type ValidateConstants } from './validate/constants';

/** Sizes of tool calls and results that the selective rules shorten and offload moves to the
 *  archive. The names are the extension's settings (contextCompactor.toolArgumentTokens, …). */
export interface ToolLimits {
  /** Inside the recent tool blocks the selective rules keep, call arguments longer than this
   *  many tokens become previews (valid JSON naming the archive entry). */
  toolArgumentTokens: number;
  /** …and tool results longer than this many tokens become previews. */
  toolResultTokens: number;
  /** The size of such a preview, and of an older tool result cut by the selective rules. */
  previewTokens: number;
  /** The most recent tool blocks the selective rules keep whole (apart from oversized
   *  arguments and results); older results are cut to previews. */
  keepRecentToolBlocks: number;
  /** Older tool results longer than this many tokens are not previewed but offloaded: stored
   *  in the archive under their own entry, a one-line placeholder naming it in their place. */
  offloadTokens: number;
}

export const DEFAULT_TOOL_LIMITS: Readonly<ToolLimits> = {
  toolArgumentTokens: 500,
  toolResultTokens: 600,
  previewTokens: 200,
  keepRecentToolBlocks: 5,
  offloadTokens: 1000,
};

export interface CompactionLimits {
  tools: Readonly<ToolLimits>;
  analyze: AnalyzeConstants;
  strategy: Readonly<StrategyConstants>;
  segments: SegmentConstants;
  validate: ValidateConstants;
}

export const DEFAULT_LIMITS: CompactionLimits = {
  tools: DEFAULT_TOOL_LIMITS,
  analyze: ANALYZE_CONSTANTS,
  strategy: STRATEGY_DEFAULTS,
  segments: SEGMENT_CONSTANTS,
  validate: VALIDATE_CONSTANTS,
};

/** What a caller may override: any of the numbers, by group and name. */
export type LimitOverrides = { readonly [G in keyof CompactionLimits]?: Partial<CompactionLimits[G]> };
