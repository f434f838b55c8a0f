// Named numbers of the compaction strategies. Every one can be overridden per call through
// CompactOptions.limits.strategy (same name); the sizes of tool content the selective rules
// and offload use are in limits.ts (ToolLimits), where the extension's settings set them.

export const STRATEGY_DEFAULTS = {
  /** The sliding window keeps the 4 most recent user/tool messages… */
  WINDOW_USER_TOOL_MESSAGES: 4,
  /** …and the 5 most recent assistant messages (9 in all: odd, so roles alternate). */
  WINDOW_ASSISTANT_MESSAGES: 5,
  /** Messages whose role score reaches this are kept verbatim. */
  IMPORTANCE_KEEP_THRESHOLD: 3.0,
  /** The most recent low scorers kept as context. */
  IMPORTANCE_RECENT_LOW_KEPT: 5,
  /** The most recent non-key messages kept as context. */
  KEY_EVENTS_RECENT_CONTEXT: 5,
  /** Turns per chunk of the incremental summary (a turn: a message, or a tool
   *  call with its results). The last chunk is kept whole. */
  INCREMENTAL_CHUNK_TURNS: 20,
  /** Levels: recent messages kept verbatim at light / normal / heavy / emergency. */
  LEVEL_LIGHT_KEEP: 10,
  LEVEL_NORMAL_KEEP: 10,
  LEVEL_HEAVY_KEEP: 5,
  LEVEL_EMERGENCY_KEEP: 3,
  /** Normal level: a topic group with more messages than this is summarized together;
   *  smaller groups have each message shortened on its own. */
  LEVEL_NORMAL_GROUP_MIN: 3,
  /** Normal level: a message shortened on its own keeps about this many tokens. */
  LEVEL_NORMAL_SHORT_TOKENS: 120,
  /** Items of a TRUNCATE rule beyond the most recent N are cut to previews. */
  SELECTIVE_KEEP_RECENT: 5,
  /** Observation masking: the most recent tool outputs left unmasked. */
  MASK_KEEP_RECENT_OUTPUTS: 3,
  /** Observation masking: outputs at or below this many tokens are not worth a placeholder. */
  MASK_MIN_TOKENS: 50,
  /** Duplicate merging: consecutive messages at least this similar are merged. */
  DUPLICATE_SIMILARITY: 0.8,
  /** A diff takes at most this share of the context window. */
  DIFF_WINDOW_SHARE: 0.1,
  /** A kept tool output's run of at least this many repeated lines collapses to one line and a
   *  count (strategies/repeatedLines.ts): three is the shortest run a count makes shorter. */
  REPEATED_LINES_MIN_RUN: 3,
} as const;

export type StrategyConstants = { readonly [K in keyof typeof STRATEGY_DEFAULTS]: number };

/** Approximate characters per token, for cutting text to a token size before counting it
 *  exactly (English prose and code average about 4). */
export const CHARS_PER_TOKEN_ESTIMATE = 4;
