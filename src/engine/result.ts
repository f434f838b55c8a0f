// What a compaction produces. Small explicit result objects (STYLE.md): the extension,
// the CLI, the inspector and the tests all read these shapes.

import type { Conversation, ItemType, Message, Role } from './conversation/model';
import type { Decision } from '../shared/engineNames';
import type { SectionName, Summary } from './sections';
import type { EngineWarning } from './warnings';

export { DECISIONS, type Decision } from '../shared/engineNames';

export type ContentType =
  'technical_specification' | 'code_implementation' | 'error_information' | 'user_interaction' | 'workflow_status' | 'documentation' | 'general';

export type TechnicalLevel = 'basic' | 'intermediate' | 'advanced';
export type Actionability = 'actionable' | 'informational' | 'historical';
export type TemporalCategory = 'immediate' | 'current_phase' | 'future_relevant' | 'historical' | 'timeless';
export type TaskType = 'code' | 'analysis' | 'conversation' | 'mixed' | 'unknown';

export interface Classification {
  contentType: ContentType;
  confidence: number;
  keywords: readonly string[];
  technicalLevel: TechnicalLevel;
  actionability: Actionability;
  /** 0..1: vocabulary diversity, sentence complexity and technical density, weighted by content type. */
  density: number;
}

/** Importance metrics (each 0..1), temporal relevance and the role score. */
export interface ImportanceMetrics {
  criticality: number;
  dependency: number;
  uniqueness: number;
  actionability: number;
  /** criticality·0.35 + dependency·0.25 + uniqueness·0.20 + actionability·0.20 */
  overall: number;
  temporal: number;
  temporalCategory: TemporalCategory;
  /** 0..1 relevance to the current work and the focus. */
  relevance: number;
  /** Score: role base + keyword bonuses (user 5.0, assistant 2.0, …). */
  roleScore: number;
  /** Keyword tier: 1.0 / 0.7 / 0.4 / 0.1, or 0.5 by default. */
  tier: number;
}

export interface MessagePlan {
  id: string;
  index: number;
  role: Role;
  itemType: ItemType;
  tokens: number;
  decision: Decision;
  /** One line: why this decision ("recent round", "pinned", "tool output masked", …). */
  reason: string;
  classification: Classification;
  importance: ImportanceMetrics;
  /** Tokens it occupies in the result (0 when summarized/dropped). */
  tokensAfter: number;
}

export type FactKind = 'userMessage' | 'filePath' | 'errorSignature' | 'technicalTerm' | 'keyword' | 'number' | 'pendingTask';

export interface Fact {
  kind: FactKind;
  value: string;
  /** Message the fact was found in. */
  sourceId: string;
}

export type LossLevel = 'minimal' | 'acceptable' | 'moderate' | 'severe';

export interface LossReport {
  /** 0..1 per kind; 1 when the kind had no facts. */
  retentionByKind: Record<FactKind, number>;
  overallRetention: number;
  lossLevel: LossLevel;
  acceptable: boolean;
  /** Facts from the compacted span that appear nowhere in the result. */
  missing: Fact[];
  /** Facts an LLM summary dropped and the extractive pass merged back. */
  mergedBack: Fact[];
  readability: { ok: boolean; issues: string[] };
  /** What an LLM summary says that the conversation does not show (set for LLM summaries). */
  unsupported?: UnsupportedClaim[];
}

/** A line of an LLM summary naming a user request or a file the conversation does not hold. */
export interface UnsupportedClaim {
  kind: 'userRequest' | 'filePath';
  section: SectionName;
  /** The request or the path as the summary wrote it (cut to UNSUPPORTED_CLAIM_CHARS). */
  text: string;
}

/** The stats block of a result, in the snake_case field names its JSON has always had. */
export interface CompactionStats {
  original_tokens: number;
  compressed_tokens: number;
  /** e.g. "5.6x" */
  ratio: string;
  kept_messages: number;
  summarized_count: number;
  dropped_count: number;
  compression_level: string;
  system_prompt_preserved: boolean;
  timestamp: string;
  messages: { role: Role; content: string; tokens: number }[];
}

export interface SummarizerInfo {
  name: string;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  durationMs?: number;
  /** Why an LLM summary was not used, when it was not. */
  fallbackReason?: string;
  retries?: number;
}

/** What was given up to meet the target, in the order it was done: the result reports every step
 *  (the CLI prints them, the inspector shows them). */
export type DegradationStepName =
  /** The target was not met at the level asked for: the next heavier level was run. */
  | 'heavier-level'
  /** Long user messages shortened to their opening and closing words, names kept. */
  | 'shorten-user-messages'
  /** Acknowledgements and near-duplicate user messages merged into single lines. */
  | 'merge-repeats'
  /** User messages other than the first request and the most recent ones as one-line gists. */
  | 'gist-user-messages'
  /** Emergency: the summary's required content cut further, to fit the target. */
  | 'cut-required'
  /** Emergency: messages a strategy kept beyond the most recent ones summarized instead. */
  | 'summarize-kept'
  /** Emergency: the messages kept verbatim shortened to fit the target. */
  | 'shorten-recent';

export interface DegradationStep {
  step: DegradationStepName;
  /** One line: what was done, with counts. */
  detail: string;
  /** heavier-level: the level that missed the target, and the tokens it gave. */
  level?: string;
  tokensAfter?: number;
}

export interface CompactionResult {
  /** The compacted conversation (a new object; the input is never mutated). */
  conversation: Conversation;
  summary: Summary;
  plan: MessagePlan[];
  loss: LossReport;
  stats: CompactionStats;
  /** Archive key of the original conversation: undo reads it back. */
  archiveId: string;
  tokensBefore: number;
  tokensAfter: number;
  strategy: string;
  level: string;
  summarizer: SummarizerInfo;
  /** How many compactions this conversation has been through, this one included. */
  compactionCount: number;
  warnings: EngineWarning[];
  durationMs: number;
  /** The target size the budget/ratio resolved to, in tokens. */
  target?: number;
  /** The smallest result the invariants allow (header, pinned, the summary's required content,
   *  the last tool block): a target below it cannot be met. */
  minimumTokens?: number;
  /** Each step taken to meet the target, in order (empty when nothing had to give). */
  degradation: DegradationStep[];
}

/** Edits a person made in the inspector, applied on top of a computed plan. */
export interface CompactionEdits {
  sections?: Partial<Record<SectionName, string>>;
  /** Messages to keep verbatim in the result. */
  restore?: string[];
  /** Messages to pin (never summarized or dropped). */
  pin?: string[];
  unpin?: string[];
  /** Compact only up to this message (inclusive): every later one is kept verbatim, and the target
   *  is a share of the messages up to it. */
  upTo?: string;
  /** Tool results to offload: each goes to an archive entry of its own, a one-line placeholder
   *  naming it in its place. */
  offload?: string[];
  /** Change nothing but the offloads: every other message is kept verbatim, nothing is summarized. */
  offloadOnly?: boolean;
}

/** Find a message by id (small helper the host and CLI use on results). */
export function findMessage(messages: readonly Message[], id: string): Message | undefined {
  return messages.find((m) => m.id === id);
}
