// Every number the section builders, the budget allocation and the rendering use, named and
// documented in one place. Callers override any of them by
// name through CompactOptions.limits.segments.

export const SEGMENT_CONSTANTS = {
  // ── Budget allocation across the eight sections (one strategy per section) ──
  /** Relative share of the free budget (after every section's floor) for each section. The
   *  user's words and the files carry the most weight: they are what the next turn needs most. */
  WEIGHT_PRIMARY_REQUEST: 0.16,
  WEIGHT_TECHNICAL_CONCEPTS: 0.06,
  WEIGHT_FILES_AND_CODE: 0.18,
  WEIGHT_ERRORS_AND_FIXES: 0.12,
  WEIGHT_PROBLEM_SOLVING: 0.1,
  WEIGHT_USER_MESSAGES: 0.2,
  WEIGHT_PENDING_TASKS: 0.08,
  WEIGHT_CURRENT_WORK: 0.1,
  /** A section's weight is scaled by (IMPORTANCE_WEIGHT_BASE + mean item priority): sections
   *  whose material scored as important get more of the free budget. */
  IMPORTANCE_WEIGHT_BASE: 0.5,

  // ── Text cutting ───────────────────────────────────────────────────────────────────────
  /** A cut text ends at a sentence boundary found at most this many characters before the
   *  limit; otherwise it ends at a word boundary. */
  SENTENCE_CUT_LOOKBACK_CHARS: 200,

  // ── Primary Request and Intent ─────────────────────────────────────────────────────────
  /** The first request in its shortest form (it is shown whole when the budget allows). */
  PRIMARY_FIRST_MIN_CHARS: 600,
  /** Even "whole" stops here: a pasted log is not the request. */
  PRIMARY_FIRST_MAX_CHARS: 12000,
  /** Most requirement sentences taken from later user messages. */
  PRIMARY_MAX_REQUIREMENTS: 40,
  /** Most requirement sentences taken from any one message (a long message is not many requests). */
  PRIMARY_MAX_PER_MESSAGE: 3,
  /** A requirement sentence longer than this is cut. */
  PRIMARY_SENTENCE_MAX_CHARS: 400,

  // ── Key Technical Concepts ─────────────────────────────────────────────────────────────
  /** Most terms listed. */
  CONCEPTS_MAX_TERMS: 40,
  /** Terms listed per bullet (grouped so the list stays a list a person reads). */
  CONCEPTS_TERMS_PER_LINE: 8,
  /** A term said by the user counts this many times a mention. */
  CONCEPTS_USER_MENTION_WEIGHT: 3,
  /** Shortest acronym ([A-Z]{2,}). */
  CONCEPTS_ACRONYM_MIN_LENGTH: 2,

  // ── Files and Code Sections ────────────────────────────────────────────────────────────
  /** Code longer than this many lines is folded ("[code folded: N lines]"). */
  CODE_FOLD_LINES: 12,
  /** Lines shown before the fold marker. */
  CODE_FOLD_KEEP_LINES: 4,
  /** Longest code line shown, in characters. */
  CODE_LINE_MAX_CHARS: 160,
  /** Files mentioned but never acted on, listed by name at most this many. */
  FILES_MENTIONED_MAX: 30,

  // ── Errors and fixes ───────────────────────────────────────────────────────────────────
  /** Longest error signature shown, in characters. */
  ERROR_SIGNATURE_MAX_CHARS: 200,
  /** Longest failing command shown, in characters. */
  ERROR_COMMAND_MAX_CHARS: 120,
  /** A generic exit-code signature ("exit code 1") is shown only if it is one of the errors
   *  of its result; its priority is scaled by this. */
  GENERIC_ERROR_PRIORITY: 0.3,

  // ── Problem Solving ────────────────────────────────────────────────────────────────────
  /** Most decision/approach sentences kept. */
  PROBLEM_MAX_SENTENCES: 40,
  /** Most sentences taken from any one message. */
  PROBLEM_MAX_PER_MESSAGE: 3,
  /** Shortest sentence worth keeping, in characters. */
  PROBLEM_SENTENCE_MIN_CHARS: 25,
  /** Longest sentence kept whole, in characters. */
  PROBLEM_SENTENCE_MAX_CHARS: 320,
  /** Assistant text read per message, in characters (a 50 KB answer is mostly code or output). */
  PROBLEM_TEXT_SAMPLE_CHARS: 20000,

  // ── All user messages ──────────────────────────────────────────────────────────────────
  /** Every user message keeps at least its first this-many characters (to a sentence end
   *  when one follows soon), whatever the budget: "none dropped". */
  USER_MESSAGE_MIN_CHARS: 100,
  /** Medium form of a long user message. */
  USER_MESSAGE_MID_CHARS: 400,
  /** Largest form of a long user message (beyond it the message is cut with a marker). */
  USER_MESSAGE_MAX_CHARS: 3000,
  /** Informative sentences (numbers, names, first-person facts) added to a shortened message. */
  USER_MESSAGE_FACT_SENTENCES: 3,
  /** …and to one that carries a pasted document (analyze/pasted.ts): its content lives here,
   *  since Primary Request and Problem Solving name a paste only by its gist. */
  USER_MESSAGE_PASTE_FACT_SENTENCES: 8,
  /** When the required content does not fit (degrade.ts): a message longer than this is
   *  shortened to its opening and closing words… */
  USER_MESSAGE_SHORTEN_MIN_CHARS: 240,
  /** …the opening words: at least this many characters, to a word boundary… */
  USER_MESSAGE_OPENING_CHARS: 90,
  /** …the closing words: at most this many characters, from a word boundary… */
  USER_MESSAGE_CLOSING_CHARS: 60,
  /** …and at most this many of the paths, identifiers and error names of the part left out. */
  USER_MESSAGE_KEPT_NAMES: 8,
  /** A one-line gist: the opening words, at least this many characters, to a word boundary. */
  USER_MESSAGE_GIST_CHARS: 90,
  /** Gists leave the first request and this many of the most recent user messages as they are. */
  USER_MESSAGE_RECENT_KEPT: 3,
  /** At the emergency level a gist is cut to this many characters, and any other required
   *  entry to one line of ENTRY_EMERGENCY_CHARS. */
  USER_MESSAGE_EMERGENCY_CHARS: 40,
  ENTRY_EMERGENCY_CHARS: 80,
  /** Two user messages at least this similar (Jaccard of word shingles) are near-duplicates. */
  USER_MESSAGE_SIMILARITY: 0.8,

  // ── Pending Tasks ──────────────────────────────────────────────────────────────────────
  /** Most TODO / next-step sentences kept. */
  PENDING_MAX_ITEMS: 20,
  /** Longest pending sentence, in characters. */
  PENDING_SENTENCE_MAX_CHARS: 300,

  // ── Current Work ───────────────────────────────────────────────────────────────────────
  /** Trailing span messages read for "what was happening just before compaction". */
  CURRENT_TRAILING_MESSAGES: 12,
  /** Most recent tool calls listed. */
  CURRENT_MAX_CALLS: 5,
  /** Longest excerpt of the last assistant message, in characters. */
  CURRENT_ASSISTANT_MAX_CHARS: 600,
  /** Longest output line quoted after a command, in characters. */
  CURRENT_RESULT_MAX_CHARS: 160,
} as const satisfies Record<string, number>;

export type SegmentConstants = { readonly [K in keyof typeof SEGMENT_CONSTANTS]: number };
