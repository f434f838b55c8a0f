// Every number the analyze and prioritize stages use — keyword tiers, classification, density,
// importance, temporal relevance, relevance, role score, key events, task type — named and
// documented in one place. Callers override any of them by name through AnalyzeOptions.constants
// (CompactOptions.limits.analyze).

export const ANALYZE_CONSTANTS = {
  // ── Keyword tiers ─────────────────────────────────────────────────────────────────
  /** Tier of a message carrying a rule, decision, architecture or must/never: keep verbatim. */
  TIER_EXTREME: 1.0,
  /** Tier of code, plan, design, implementation, change, done: keep a summary. */
  TIER_HIGH: 0.7,
  /** Tier of discussion and opinion ("讨论:", "觉得"): summarize or merge. */
  TIER_MEDIUM: 0.4,
  /** Tier of a bare acknowledgement ("ok", "好的", "thanks"): candidate to drop. */
  TIER_LOW: 0.1,
  /** Tier when no list matches. */
  TIER_DEFAULT: 0.5,
  /** An acknowledgement is at most this many characters once punctuation, emoji and
   *  whitespace are removed ("thank you very much" is 16): longer messages say more. */
  ACK_MAX_CHARS: 24,

  // ── Content classification ───────────────────────────────────────────────────
  /** Pattern matches for full confidence: confidence = min(score / this, 1). */
  CLASSIFY_CONFIDENCE_SATURATION: 10,
  /** Confidence reported for "general" (no pattern matched). */
  CLASSIFY_GENERAL_CONFIDENCE: 0.5,
  /** Score an extracted error signature adds to error_information (structure beats words). */
  CLASSIFY_ERROR_SIGNATURE_WEIGHT: 2,
  /** Score a fenced code block or diff adds to code_implementation. */
  CLASSIFY_CODE_BLOCK_WEIGHT: 2,

  // ── Information density ──────────────────────────────────────────────────────
  /** Weight of vocabulary diversity (unique words / words) in the base density. */
  DENSITY_DIVERSITY_WEIGHT: 0.3,
  /** Weight of sentence complexity (words per sentence / DENSITY_SENTENCE_WORDS). */
  DENSITY_COMPLEXITY_WEIGHT: 0.3,
  /** Weight of technical density ((CamelCase terms + 5·code snippets) / words, capped at 1). */
  DENSITY_TECHNICAL_WEIGHT: 0.4,
  /** Words per sentence that count as fully complex. */
  DENSITY_SENTENCE_WORDS: 15,
  /** A `code` snippet counts as this many technical terms. */
  DENSITY_CODE_SNIPPET_WEIGHT: 5,
  /** Density is a ratio: for longer texts it is measured on their first this-many characters
   *  (a 500 KB log reads the same at 20 KB, and sentence splitting it whole is slow). */
  DENSITY_SAMPLE_CHARS: 20000,
  /** CJK characters per word, to count words in text without spaces (as the token estimate does). */
  CJK_CHARS_PER_WORD: 1.5,
  /** Density multiplier for technical_specification. */
  DENSITY_MULT_TECHNICAL_SPECIFICATION: 1.5,
  /** Density multiplier for code_implementation. */
  DENSITY_MULT_CODE_IMPLEMENTATION: 1.8,
  /** Density multiplier for error_information. */
  DENSITY_MULT_ERROR_INFORMATION: 1.3,
  /** Density multiplier for user_interaction. */
  DENSITY_MULT_USER_INTERACTION: 0.8,
  /** Density multiplier for workflow_status. */
  DENSITY_MULT_WORKFLOW_STATUS: 1.0,
  /** Density multiplier for documentation. */
  DENSITY_MULT_DOCUMENTATION: 1.2,
  /** Density multiplier for general. */
  DENSITY_MULT_GENERAL: 1.0,
  /** Density multiplier for advanced technical level. */
  DENSITY_MULT_ADVANCED: 1.5,
  /** Density multiplier for intermediate technical level. */
  DENSITY_MULT_INTERMEDIATE: 1.2,
  /** Density multiplier for basic technical level. */
  DENSITY_MULT_BASIC: 1.0,

  // ── Importance ───────────────────────────────────────────────────────────────
  /** Weight of criticality in overall importance. */
  WEIGHT_CRITICALITY: 0.35,
  /** Weight of dependency in overall importance. */
  WEIGHT_DEPENDENCY: 0.25,
  /** Weight of uniqueness in overall importance. */
  WEIGHT_UNIQUENESS: 0.2,
  /** Weight of actionability in overall importance. */
  WEIGHT_ACTIONABILITY: 0.2,
  /** Criticality keyword matches for a full keyword score: min(matches / this, 1). */
  CRITICALITY_SATURATION: 3,
  /** Criticality multiplier for error_information. */
  CRITICALITY_MULT_ERROR_INFORMATION: 1.5,
  /** Criticality multiplier for technical_specification. */
  CRITICALITY_MULT_TECHNICAL_SPECIFICATION: 1.3,
  /** Criticality multiplier for code_implementation. */
  CRITICALITY_MULT_CODE_IMPLEMENTATION: 1.2,
  /** Criticality multiplier for workflow_status. */
  CRITICALITY_MULT_WORKFLOW_STATUS: 1.1,
  /** Criticality multiplier for user_interaction. */
  CRITICALITY_MULT_USER_INTERACTION: 0.9,
  /** Criticality multiplier for documentation. */
  CRITICALITY_MULT_DOCUMENTATION: 0.8,
  /** Criticality multiplier for general. */
  CRITICALITY_MULT_GENERAL: 1.0,
  /** Dependency keyword matches ("depend", "before", "result", 依赖…) divided by this… */
  DEPENDENCY_KEYWORD_SATURATION: 2,
  /** …capped at this share of the dependency score. */
  DEPENDENCY_KEYWORD_CAP: 0.4,
  /** Later messages referring back to this one, divided by this… */
  DEPENDENCY_REFERENCED_SATURATION: 5,
  /** …capped at this share. */
  DEPENDENCY_REFERENCED_CAP: 0.4,
  /** Outbound references (reference words + earlier messages this one refers to), divided by this… */
  DEPENDENCY_OUTBOUND_SATURATION: 3,
  /** …capped at this share. */
  DEPENDENCY_OUTBOUND_CAP: 0.2,
  /** Near-duplicates for zero similarity credit: max(0, 1 − similar / this). */
  UNIQUENESS_SIMILAR_SATURATION: 3,
  /** Weight of the not-repeated part of uniqueness. */
  UNIQUENESS_SIMILARITY_WEIGHT: 0.6,
  /** Specific details (CamelCase terms, numbers, 2·code blocks) for a full detail score. */
  UNIQUENESS_INDICATOR_SATURATION: 10,
  /** Weight of the specific-details part of uniqueness. */
  UNIQUENESS_INDICATOR_WEIGHT: 0.4,
  /** A code block counts as this many uniqueness indicators. */
  UNIQUENESS_CODE_BLOCK_WEIGHT: 2,
  /** Actionability score of an "actionable" message before its match bonus. */
  ACTIONABILITY_BASE_ACTIONABLE: 0.7,
  /** Actionability score of an "informational" message. */
  ACTIONABILITY_BASE_INFORMATIONAL: 0.4,
  /** Actionability score of a "historical" message. */
  ACTIONABILITY_BASE_HISTORICAL: 0.2,
  /** Actionable phrase matches ("need to", "fix", "todo") for the full bonus. */
  ACTIONABILITY_MATCH_SATURATION: 5,
  /** Bonus for actionable phrases: min(matches / saturation, 1) · this. */
  ACTIONABILITY_MATCH_WEIGHT: 0.3,

  // ── Near-duplicates (uniqueness) ───────────────────────────────────────────────────────
  /** Jaccard similarity of word/character bigram sets above which two messages are near-duplicates (0.8). */
  NEAR_DUPLICATE_SIMILARITY: 0.8,
  /** MinHash LSH bands; with NEAR_DUPLICATE_ROWS rows each, a pair at 0.8 is a candidate with p ≈ 0.985. */
  NEAR_DUPLICATE_BANDS: 8,
  /** MinHash rows per band. */
  NEAR_DUPLICATE_ROWS: 4,
  /** Most candidates one message is compared with per LSH bucket (first member + most recent);
   *  uniqueness saturates at UNIQUENESS_SIMILAR_SATURATION similar messages, so more never changes a score. */
  NEAR_DUPLICATE_BUCKET_COMPARISONS: 16,

  // ── Temporal relevance ───────────────────────────────────────────────────────
  /** Decay per day of age, when timestamps exist (10% a day). */
  TEMPORAL_DECAY_PER_DAY: 0.1,
  /** Position decay for the oldest message: recency = 1 − this · (messages after it / (n − 1)).
   *  Applies with or without timestamps, so a transcript without them still decays. */
  POSITION_DECAY_MAX: 0.5,
  /** Temporal multiplier: errors, urgent, now. */
  TEMPORAL_MULT_IMMEDIATE: 1.5,
  /** Temporal multiplier: working on, in progress. */
  TEMPORAL_MULT_CURRENT_PHASE: 1.2,
  /** Temporal multiplier: next, later, todo. */
  TEMPORAL_MULT_FUTURE_RELEVANT: 1.0,
  /** Temporal multiplier: was, previous, completed. */
  TEMPORAL_MULT_HISTORICAL: 0.7,
  /** Temporal multiplier: none of the above. */
  TEMPORAL_MULT_TIMELESS: 0.9,

  // ── Relevance ────────────────────────────────────────────────────────────────
  /** Trailing rounds that make up "the current work" when AnalyzeOptions.currentRounds is not given. */
  CURRENT_ROUNDS_DEFAULT: 2,
  /** At most this many trailing messages count as current work: one agent round can hold hundreds of tool calls. */
  CURRENT_WINDOW_MAX_MESSAGES: 12,
  /** Shortest English word that counts as a subject term. */
  TERM_MIN_LENGTH: 3,
  /** Shared subject terms with the current work for a full term score. */
  RELEVANCE_TERM_SATURATION: 10,
  /** Shared files/identifiers/errors with the current work for a full reference score. */
  RELEVANCE_REF_SATURATION: 2,
  /** Weight of shared terms in current-work relevance. */
  RELEVANCE_TERM_WEIGHT: 0.5,
  /** Weight of shared references in current-work relevance. */
  RELEVANCE_REF_WEIGHT: 0.5,
  /** Terms found in more than this share of messages carry no signal and are ignored… */
  RELEVANCE_MAX_DOC_FREQ: 0.5,
  /** …once the conversation has at least this many messages. */
  RELEVANCE_DOC_FREQ_MIN_MESSAGES: 10,
  /** Weight of current-work relevance when a focus is given. */
  RELEVANCE_CURRENT_WEIGHT: 0.4,
  /** Weight of focus relevance when a focus is given (the rest). */
  RELEVANCE_FOCUS_WEIGHT: 0.6,
  /** Named focus: weight of the role keyword share (current role 0.4)… */
  FOCUS_ROLE_WEIGHT: 0.4,
  /** …and of the stage pattern score (stage 0.2); the two are normalized by their sum. */
  FOCUS_STAGE_WEIGHT: 0.2,
  /** Stage pattern matches for a full stage score (5). */
  FOCUS_STAGE_SATURATION: 5,

  // ── Role score ─────────────────────────────────────────────────────────────────
  /** Base score of a message a person typed. */
  ROLE_BASE_USER: 5.0,
  /** Base score of an assistant message (thinking included). */
  ROLE_BASE_ASSISTANT: 2.0,
  /** Base score of a system prompt, tool definitions or memory item (always kept anyway). */
  ROLE_BASE_SYSTEM: 1.0,
  /** Base score of a tool's output: raw material, below the assistant's own words. With
   *  ROLE_TOOL_BONUS it lands at 2.5, under the importance strategy's keep threshold of 3.0, so only outputs
   *  with errors, fixes, completions or key words clear it. */
  ROLE_BASE_TOOL_RESULT: 0.5,
  /** Base score of an earlier compaction summary: it stands for the user's earlier messages. */
  ROLE_BASE_SUMMARY: 5.0,
  /** Bonus per distinct important keyword (错误 失败 修复 完成 任务, error, fix, …). */
  ROLE_KEYWORD_BONUS: 0.5,
  /** Bonus for tool calls and tool results. */
  ROLE_TOOL_BONUS: 2.0,
  /** Bonus for errors and fixes. */
  ROLE_ERROR_FIX_BONUS: 2.0,
  /** Bonus for task completion. */
  ROLE_COMPLETION_BONUS: 1.5,
  /** Bonus for pinned or user-marked important content (<Pin>, 重要, 关键). */
  ROLE_PINNED_BONUS: 3.0,

  // ── Key events ────────────────────────────────────────────────────────────────
  /** A decision must be longer than this many characters (> 100). */
  DECISION_MIN_CHARS: 100,

  // ── References (analyze/refs.ts) ───────────────────────────────────────────────────────
  /** Most file paths kept per message. */
  REFS_MAX_FILES: 50,
  /** Most identifiers kept per message (the most frequent). */
  REFS_MAX_IDENTIFIERS: 64,
  /** Most error signatures kept per message. */
  REFS_MAX_ERRORS: 20,
  /** Longest error signature, in characters (longer ones are cut with "…"). */
  ERROR_SIGNATURE_MAX_CHARS: 200,

  // ── Task type ─────────────────────────────────────────────────────────────────
  /** Evidence weight of one file-editing tool call (or an applied edit / diff). */
  TASK_CODE_EDIT_WEIGHT: 3,
  /** Evidence weight of one test or build run. */
  TASK_TEST_RUN_WEIGHT: 2,
  /** Evidence weight of one other code-related call (running a script, reading code). */
  TASK_CODE_OTHER_WEIGHT: 1,
  /** Evidence weight of one search/listing/retrieval call. */
  TASK_ANALYSIS_WEIGHT: 1,
  /** Evidence weight of one read-only file call, for analysis: reading files is part of coding
   *  as much as of analysis, so it weighs half a search. */
  TASK_READ_WEIGHT: 0.5,
  /** Confidence of "unknown" when tools were used but none of a recognizable kind. */
  TASK_UNKNOWN_TOOLS_CONFIDENCE: 0.3,
  /** Share of the evidence a kind needs to dominate; below it a session with tools is "mixed". */
  TASK_DOMINANT_SHARE: 0.6,
  /** Evidence score at which confidence stops growing with more evidence. */
  TASK_EVIDENCE_SATURATION: 10,
  /** A user or assistant turn at most this long (characters) is "short" (question-and-answer style). */
  TASK_SHORT_TURN_CHARS: 2000,
} as const satisfies Record<string, number>;

export type AnalyzeConstantName = keyof typeof ANALYZE_CONSTANTS;
export type AnalyzeConstants = { readonly [K in AnalyzeConstantName]: number };

/** Constants that are counts or sizes: overrides must be whole numbers. */
const INTEGER_CONSTANTS: ReadonlySet<AnalyzeConstantName> = new Set<AnalyzeConstantName>([
  'ACK_MAX_CHARS',
  'DENSITY_SAMPLE_CHARS',
  'NEAR_DUPLICATE_BANDS',
  'NEAR_DUPLICATE_ROWS',
  'NEAR_DUPLICATE_BUCKET_COMPARISONS',
  'CURRENT_ROUNDS_DEFAULT',
  'CURRENT_WINDOW_MAX_MESSAGES',
  'TERM_MIN_LENGTH',
  'RELEVANCE_DOC_FREQ_MIN_MESSAGES',
  'DECISION_MIN_CHARS',
  'REFS_MAX_FILES',
  'REFS_MAX_IDENTIFIERS',
  'REFS_MAX_ERRORS',
  'ERROR_SIGNATURE_MAX_CHARS',
]);

/** Constants used as divisors: zero would divide by zero. */
const POSITIVE_CONSTANTS: ReadonlySet<AnalyzeConstantName> = new Set<AnalyzeConstantName>([
  'CLASSIFY_CONFIDENCE_SATURATION',
  'DENSITY_SENTENCE_WORDS',
  'DENSITY_SAMPLE_CHARS',
  'CJK_CHARS_PER_WORD',
  'CRITICALITY_SATURATION',
  'DEPENDENCY_KEYWORD_SATURATION',
  'DEPENDENCY_REFERENCED_SATURATION',
  'DEPENDENCY_OUTBOUND_SATURATION',
  'UNIQUENESS_SIMILAR_SATURATION',
  'UNIQUENESS_INDICATOR_SATURATION',
  'ACTIONABILITY_MATCH_SATURATION',
  'NEAR_DUPLICATE_BANDS',
  'NEAR_DUPLICATE_ROWS',
  'NEAR_DUPLICATE_BUCKET_COMPARISONS',
  'RELEVANCE_TERM_SATURATION',
  'RELEVANCE_REF_SATURATION',
  'FOCUS_STAGE_SATURATION',
  'TASK_EVIDENCE_SATURATION',
  'ERROR_SIGNATURE_MAX_CHARS',
]);

/** Bad input to the analyzer (an option, a constant, a malformed message); the message names
 *  what is wrong, where, and what was expected. */
export class AnalyzeOptionsError extends Error {
  override name = 'AnalyzeOptionsError';
}

export function isAnalyzeConstantName(name: string): name is AnalyzeConstantName {
  return Object.prototype.hasOwnProperty.call(ANALYZE_CONSTANTS, name);
}

/** The defaults with `overrides` applied; unknown names and bad values are errors. */
export function resolveConstants(overrides?: Readonly<Partial<AnalyzeConstants>>): AnalyzeConstants {
  if (overrides === undefined || overrides === ANALYZE_CONSTANTS) return ANALYZE_CONSTANTS;
  if (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides)) {
    throw new AnalyzeOptionsError('AnalyzeOptions.constants: expected an object of constant names to numbers');
  }
  const out: Record<string, number> = { ...ANALYZE_CONSTANTS };
  for (const [name, value] of Object.entries(overrides)) {
    if (!isAnalyzeConstantName(name)) {
      throw new AnalyzeOptionsError(
        `AnalyzeOptions.constants.${name}: unknown constant; expected one of the names in analyze/constants.ts (e.g. WEIGHT_CRITICALITY, TIER_DEFAULT)`,
      );
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new AnalyzeOptionsError(`AnalyzeOptions.constants.${name}: expected a finite number ≥ 0, got ${String(value)}`);
    }
    if (INTEGER_CONSTANTS.has(name) && !Number.isInteger(value)) {
      throw new AnalyzeOptionsError(`AnalyzeOptions.constants.${name}: expected a whole number, got ${value}`);
    }
    if (POSITIVE_CONSTANTS.has(name) && value === 0) {
      throw new AnalyzeOptionsError(`AnalyzeOptions.constants.${name}: expected a number > 0, got 0`);
    }
    out[name] = value;
  }
  return out as AnalyzeConstants;
}
