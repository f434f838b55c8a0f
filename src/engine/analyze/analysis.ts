// What the analyze + prioritize stages produce for the rest of the engine.
// Implemented by analyze/analyzeConversation.ts; consumed by segments/, strategies/, validate/,
// the compactor, `ctxc inspect` and the inspector timeline.

import type { Classification, ImportanceMetrics, TaskType } from '../result';
import type { MessageMemo } from '../conversation/messageMemo';
import type { AnalyzeConstants } from './constants';

/** Things a message mentions that other messages can refer back to (cross-references).
 *  Extracted by analyze/refs.ts (extractMessageRefs; the single extractors are exported too). */
export interface MessageRefs {
  /** File paths, normalized (no leading ./, forward slashes), in order of first appearance;
   *  paths named in tool-call arguments first. */
  files: readonly string[];
  /** Code identifiers: CamelCase, lowerCamelCase, snake_case / SCREAMING_CASE / __dunder__,
   *  dotted calls (os.path.join) and dotted module paths; the most frequent first. */
  identifiers: readonly string[];
  /** Error signatures: "TypeError: x is not a function", "FAILED tests/test_a.py::test_b",
   *  "error TS2345: …", "exit code 1", …; whitespace collapsed, length capped, in order. */
  errors: readonly string[];
}

export type KeyEventKind = 'task_start' | 'task_complete' | 'decision' | 'error' | 'fix' | 'key_tool_result' | 'pinned' | 'user_input';

export interface MessageAnalysis {
  index: number;
  id: string;
  classification: Classification;
  importance: ImportanceMetrics;
  refs: MessageRefs;
  /** Acknowledgements ("ok", "thanks", 好的, 收到): candidates for dropping. */
  isAcknowledgement: boolean;
  /** Key events this message is. Empty when it is none. */
  keyEvents: readonly KeyEventKind[];
  /** Indices of later messages that mention this message's files, identifiers or errors. */
  referencedBy: readonly number[];
  /** Index of an earlier message this one nearly duplicates (similarity > 0.8), if any. */
  nearDuplicateOf?: number;
}

export type FocusName = 'planning' | 'implementation' | 'testing' | 'review';

export interface AnalyzeOptions {
  /** A named focus or free-text focus instructions. */
  focus?: string;
  /** How many trailing rounds count as "the current work" for relevance. Default 2. */
  currentRounds?: number;
  /** Reference time for temporal decay (ISO). Default: the last message's timestamp, else none. */
  now?: string;
  /** Overrides of the named constants in analyze/constants.ts. */
  constants?: Readonly<Partial<AnalyzeConstants>>;
  /** Keeps each message's reading for the next analysis of the same messages. */
  memo?: MessageMemo;
}

/** How AnalyzeOptions.focus was read: one of the named focuses, the terms of a free-text focus. */
export type ParsedFocus = { kind: 'named'; name: FocusName; text: string } | { kind: 'free'; text: string; terms: string[] };

export interface ConversationAnalysis {
  messages: MessageAnalysis[];
  taskType: TaskType;
  /** How confident the task type detection is, 0..1, and the evidence for it. */
  taskTypeEvidence: { confidence: number; signals: string[] };
  /** First message index of "the current work" used for relevance (messages.length if none). */
  currentStart?: number;
  /** The focus relevance was scored against, when one was given. */
  focus?: ParsedFocus;
}
