// Named numbers of the compaction strategies, each from the seed that gives it. Every one can be
// overridden per call through CompactOptions.constants (same name), e.g. by the benchmarks.

export const STRATEGY_DEFAULTS = {
  /** Seed 001 §8: the sliding window keeps the 4 most recent user/tool messages… */
  WINDOW_USER_TOOL_MESSAGES: 4,
  /** …and the 5 most recent assistant messages (9 in all: odd, so roles alternate). */
  WINDOW_ASSISTANT_MESSAGES: 5,
  /** Seed 001 §9: messages whose role score reaches this are kept verbatim. */
  IMPORTANCE_KEEP_THRESHOLD: 3.0,
  /** Seed 001 §9: the most recent low scorers kept as context. */
  IMPORTANCE_RECENT_LOW_KEPT: 5,
  /** Seed 001 §13: the most recent non-key messages kept as context. */
  KEY_EVENTS_RECENT_CONTEXT: 5,
  /** Seed 001 §11: turns per chunk of the incremental summary (a turn: a message, or a tool
   *  call with its results). The last chunk is kept whole. */
  INCREMENTAL_CHUNK_TURNS: 20,
  /** Seed 002 levels: recent messages kept verbatim at light / normal / heavy / emergency. */
  LEVEL_LIGHT_KEEP: 10,
  LEVEL_NORMAL_KEEP: 10,
  LEVEL_HEAVY_KEEP: 5,
  LEVEL_EMERGENCY_KEEP: 3,
  /** Seed 002 normal level: a topic group with more messages than this is summarized together;
   *  smaller groups have each message shortened on its own. */
  LEVEL_NORMAL_GROUP_MIN: 3,
  /** Seed 002 normal level: a message shortened on its own keeps about this many tokens. */
  LEVEL_NORMAL_SHORT_TOKENS: 120,
  /** Seed 004 §4.1: items of a TRUNCATE rule beyond the most recent N are cut to previews. */
  SELECTIVE_KEEP_RECENT: 5,
  /** Seed 004 §4.2: inside kept tool blocks, arguments over this many tokens become previews… */
  SELECTIVE_ARGS_MAX_TOKENS: 500,
  /** …and results over this many tokens… */
  SELECTIVE_RESULT_MAX_TOKENS: 600,
  /** …previews of this many tokens. */
  SELECTIVE_PREVIEW_TOKENS: 200,
  /** Observation masking: the most recent tool outputs left unmasked. */
  MASK_KEEP_RECENT_OUTPUTS: 3,
  /** Observation masking: outputs at or below this many tokens are not worth a placeholder. */
  MASK_MIN_TOKENS: 50,
  /** Seed 002 duplicate merging: consecutive messages at least this similar are merged. */
  DUPLICATE_SIMILARITY: 0.8,
  /** Seed 001 §4: a diff takes at most this share of the context window. */
  DIFF_WINDOW_SHARE: 0.1,
  /** Seed 004 §5.3: tool outputs above this many tokens can be offloaded to the archive. */
  OFFLOAD_THRESHOLD_TOKENS: 1000,
  /** A kept tool output's run of at least this many repeated lines collapses to one line and a
   *  count (strategies/repeatedLines.ts): three is the shortest run a count makes shorter. */
  REPEATED_LINES_MIN_RUN: 3,
} as const;

export type StrategyConstants = { -readonly [K in keyof typeof STRATEGY_DEFAULTS]: number };

/** The defaults with the caller's overrides of the same names. */
export function strategyConstants(overrides: Readonly<Record<string, number>> | undefined): StrategyConstants {
  const out = { ...STRATEGY_DEFAULTS } as StrategyConstants;
  if (!overrides) return out;
  for (const k of Object.keys(out) as (keyof StrategyConstants)[]) {
    const v = overrides[k];
    if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  }
  return out;
}

/** Approximate characters per token, for cutting text to a token size before counting it
 *  exactly (English prose and code average about 4). */
export const CHARS_PER_TOKEN_ESTIMATE = 4;
