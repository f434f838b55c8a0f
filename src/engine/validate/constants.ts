// The numbers of the quality validator, named and documented. Callers override any of them by
// name through CompactOptions.limits.validate.

export const VALIDATE_CONSTANTS = {
  // ── Facts ──────────────────────────────────────────────────────────────────────────────
  /** A user message survives when its first this-many characters (whitespace collapsed,
   *  case ignored) appear in the result. */
  USER_FACT_CHARS: 80,
  /** Most technical terms checked (the most frequent in the span's own words). */
  TERM_FACTS_MAX: 60,
  /** Most numbers checked (the most frequent in the span's own words). */
  NUMBER_FACTS_MAX: 40,

  // ── Overall retention weights ────────────────────────────────────────────────
  /** Keyword retention (the list in facts.ts: must, error, api, database, …). */
  RETENTION_WEIGHT_KEYWORD: 0.25,
  /** Technical terms (CamelCase, acronyms). */
  RETENTION_WEIGHT_TECHNICAL: 0.3,
  /** Numbers. */
  RETENTION_WEIGHT_NUMBER: 0.15,
  /** Structural integrity: user messages, file paths, error signatures, pending tasks. */
  RETENTION_WEIGHT_STRUCTURE: 0.15,
  /** Semantic coherence: the readability score of the summary. */
  RETENTION_WEIGHT_COHERENCE: 0.15,

  // ── Loss levels ──────────────────────────────────────────────────────────────
  /** Above this importance the stricter thresholds apply. */
  HIGH_IMPORTANCE: 0.8,
  /** High importance: retention ≥ this is "minimal" loss… */
  HIGH_MINIMAL: 0.8,
  /** …≥ this "acceptable"… */
  HIGH_ACCEPTABLE: 0.6,
  /** …≥ this "moderate", below "severe". */
  HIGH_MODERATE: 0.4,
  /** Normal importance: retention ≥ this is "minimal" loss… */
  NORMAL_MINIMAL: 0.7,
  /** …≥ this "acceptable"… */
  NORMAL_ACCEPTABLE: 0.5,
  /** …≥ this "moderate", below "severe". */
  NORMAL_MODERATE: 0.3,

  // ── Compression ratio controller ─────────────────────────────────────────────
  /** The summary budget is never cut below this share of its first allocation. */
  RATIO_MIN: 0.3,
  /** Growing the summary stops once the whole result reaches this share of the target. */
  RATIO_MAX: 0.9,
  /** A result over the target by more than this share is re-run with less budget. */
  RATIO_OVERSHOOT_TOLERANCE: 0.01,
  /** A result this far under the target (share of it) while the summary had to shorten is re-run with more. */
  RATIO_DEVIATION: 0.2,
  /** Extra budget (share of the target) for severe loss (+0.3)… */
  RATIO_ADJUST_SEVERE: 0.3,
  /** …for moderate loss (+0.15)… */
  RATIO_ADJUST_MODERATE: 0.15,
  /** …for important content (importance > HIGH_IMPORTANCE, +0.1)… */
  RATIO_ADJUST_IMPORTANT: 0.1,
  /** …for retention below 0.5 (+0.2)… */
  RATIO_ADJUST_LOW_RETENTION: 0.2,
  /** …and below 0.7 (+0.1). */
  RATIO_ADJUST_MEDIUM_RETENTION: 0.1,
  /** Most extraction runs per compaction (the first included). */
  RATIO_MAX_ATTEMPTS: 4,

  // ── Readability ────────────────────────────────────────────────────────────────────────
  /** A line of at least this many words with no punctuation and few function words is keyword soup. */
  SOUP_MIN_WORDS: 15,
  /** Share of function words (the, of, to, 的, 了 …) below which such a line is soup. */
  SOUP_MAX_STOPWORD_SHARE: 0.1,
  /** A single line longer than this (characters, outside code) is a wall of text. */
  WALL_LINE_CHARS: 4000,
} as const satisfies Record<string, number>;

export type ValidateConstants = { readonly [K in keyof typeof VALIDATE_CONSTANTS]: number };
