// The one protocol between the inspector panel host (src/extension/inspector) and the inspector
// webview (webview-ui/). Types only: both sides import it, neither imports the other.
//
// The conversation is shaped for display here rather than sent as a raw CompactionResult: the
// webview needs each original message once (text, plan, importance side by side) and never the
// archive id, stats.messages copies or token caches.
//
// Flow: the webview posts `ready` first; the host answers with `init`. Requests carry an `id`
// chosen by the webview; the host answers each with exactly one `response` carrying the same id.
// Notifications (no id) go either way and are never answered.

import type { Role, ItemType } from '../engine/conversation/model';
import type { Decision, DegradationStep, FactKind, ImportanceMetrics, LossLevel, ContentType } from '../engine/result';
import type { SectionName } from '../engine/sections';

// ───────────────────────────── what the webview shows ─────────────────────────────

/** The four importance components (criticality, dependency, uniqueness, actionability), their
 *  weighted score and the temporal relevance of one message. */
export type ImportanceView = Pick<
  ImportanceMetrics,
  'criticality' | 'dependency' | 'uniqueness' | 'actionability' | 'overall' | 'temporal' | 'temporalCategory'
>;

/** One original message and what the compaction does with it. */
export interface MessageView {
  id: string;
  /** Position in the original conversation (0-based). */
  index: number;
  role: Role;
  itemType: ItemType;
  /** What the model reads: text, thinking, tool calls (name + arguments), image placeholders. */
  text: string;
  tokens: number;
  tokensAfter: number;
  decision: Decision;
  reason: string;
  importance: ImportanceView;
  contentType: ContentType;
  pinned: boolean;
  timestamp?: string;
}

/** One message of the compacted conversation (for the diff). */
export interface ResultMessageView {
  id: string;
  role: Role;
  itemType: ItemType;
  text: string;
}

export interface SectionView {
  name: SectionName;
  text: string;
  tokens: number;
}

export interface MissingFactView {
  kind: FactKind;
  value: string;
  sourceId: string;
}

export interface HeaderView {
  /** Before → after as the agent will send them: the compaction's figures, as every surface shows them. */
  tokensBefore: number;
  tokensAfter: number;
  /** Of each, what the agent sends that the file does not hold (its system prompt and tools), when
   *  anything: tokensBefore − before is the file's part. */
  notInFile?: { before: number; after: number };
  /** before / after, e.g. "1.7x". */
  ratio: string;
  /** Overall fact retention, 0..1. */
  retention: number;
  lossLevel: LossLevel;
  lossAcceptable: boolean;
  strategy: string;
  level: string;
  summarizer: string;
  summarizerModel?: string;
  /** Why an LLM summary was not used, when it was not. */
  summarizerFallback?: string;
  /** The model tokens are counted for. */
  model: string;
  /** How the counts were made: the model's own tokenizer, a stand-in encoding, or an estimate. */
  countMethod?: 'exact' | 'proxy' | 'estimate';
  compactionCount: number;
  /** The engine's warnings in the user's language (the host words them). */
  warnings: string[];
  /** What gave way to meet the target, in order (empty when nothing did). */
  degradation: DegradationStep[];
}

/** One request of the context chart: what it sent (the agent's record, or our count). */
export interface ContextPointView {
  /** 1-based, in order. */
  n: number;
  tokens: number;
  /** ISO time, when recorded. */
  at?: string;
}

/** A compaction on the chart, between two requests. */
export interface ContextMarkView {
  /** The number of requests before it. */
  afterPoint: number;
  /** Who compacted: the agent by itself (auto), when asked (manual), or Context Compactor (ours). */
  kind: 'auto' | 'manual' | 'ours' | 'unknown';
  /** What the agent counted before compacting, when it recorded it. */
  preTokens?: number;
  at?: string;
}

/** The context over time. */
export interface ContextHistoryView {
  /** 'reported': each request as the agent recorded it; 'counted': our count of the conversation at
   *  each assistant message (the file records no usage). */
  source: 'reported' | 'counted';
  /** Who recorded the figures (the agent's name), for 'reported'. */
  recordedBy?: string;
  points: ContextPointView[];
  compactions: ContextMarkView[];
  window: number;
  /** Tokens at which compaction is proposed (the trigger). */
  trigger: number;
}

/** What compacting costs in prompt cache, and when it pays off (engine/compactionCost.ts). */
export interface CostView {
  /** Tokens written to the cache again at the next request. */
  rewritten: number;
  /** Tokens that request would have read from the cache without compacting. */
  wouldRead: number;
  /** Tokens fewer on each later request. */
  savedPerRequest: number;
  /** The model the prices are for, as the conversation names it. */
  model: string;
  price?: { family: string; input: number; cacheWrite: number; cacheRead: number; source: string; readOn: string };
  /** US dollars: the next request's extra cost (negative: a saving), and each later request's saving. */
  extraAtNext?: number;
  savedPerRequestDollars?: number;
  /** Later requests after which compacting has paid for itself (0: at once). */
  paysOffAfter?: number;
}

/** One of the biggest items of the conversation. */
export interface BigItemView {
  id: string;
  index: number;
  kind: 'fileRead' | 'toolResult' | 'toolCall';
  /** The tool and what it acted on ("Read src/loader.ts", "Bash npm test"). From the conversation:
   *  shown as text. */
  label: string;
  tokens: number;
  /** One click offloads it (a tool result of a conversation whose compactions are kept here). */
  offloadable: boolean;
}

/** `preview`: nothing has changed yet. `applied`: this compaction replaced the conversation. */
export type InspectorPhase = 'preview' | 'applied';

export interface InspectorModel {
  /** The conversation key (ConversationService): the webview keys its UI state by it. */
  key: string;
  label: string;
  phase: InspectorPhase;
  header: HeaderView;
  /** Always all eight, in SECTION_NAMES order. */
  sections: SectionView[];
  summaryTokens: number;
  /** The original conversation, in order, with the plan for each message. */
  messages: MessageView[];
  /** The compacted conversation, in order. */
  after: ResultMessageView[];
  missing: MissingFactView[];
  canUndo: boolean;
  /** The context over time, when it could be read. */
  history?: ContextHistoryView;
  /** What this compaction costs in prompt cache. */
  cost: CostView;
  /** The biggest tool results and tool calls, biggest first. */
  biggest: BigItemView[];
  /** Why nothing can be offloaded here, when nothing can. */
  offloadNote?: string;
  /** What the preview was computed for: up to a message, or only offloads. */
  scope: { upTo?: string; offload: string[] };
}

// ───────────────────────────── edits ─────────────────────────────

export type SectionEdits = Partial<Record<SectionName, string>>;

/** What a person changed in the inspector; the host turns it into CompactionEdits. */
export interface InspectorEdits {
  sections: SectionEdits;
  /** Message ids to keep verbatim. */
  restore: string[];
  pin: string[];
  unpin: string[];
  /** Compact only up to this message (inclusive). */
  upTo?: string;
  /** Tool results to offload; when any, the compaction does nothing else. */
  offload: string[];
}

// ───────────────────────────── webview → host ─────────────────────────────

export interface ReadyNotification {
  type: 'ready';
}

/** Close the inspector; nothing is applied and nothing in the conversation changes. */
export interface CancelNotification {
  type: 'cancel';
}

/** Count the given section texts with the conversation's real tokenizer. */
export interface CountSectionsRequest {
  type: 'countSections';
  id: number;
  sections: SectionEdits;
}

/** A dry run with these edits (restore, pin and section edits). */
export interface PreviewRequest {
  type: 'preview';
  id: number;
  edits: InspectorEdits;
}

/** Compact for real with these edits; the host re-validates them. */
export interface ApplyRequest {
  type: 'apply';
  id: number;
  edits: InspectorEdits;
}

export interface UndoRequest {
  type: 'undo';
  id: number;
}

export type WebviewRequest = CountSectionsRequest | PreviewRequest | ApplyRequest | UndoRequest;
export type WebviewNotification = ReadyNotification | CancelNotification;
export type WebviewToHost = WebviewRequest | WebviewNotification;
export type WebviewRequestType = WebviewRequest['type'];

/** What a successful answer to each request carries. */
export interface ResponseValues {
  countSections: { tokens: Partial<Record<SectionName, number>> };
  preview: { model: InspectorModel };
  apply: { model: InspectorModel };
  /** `undone` false: there was nothing to undo (the model is then unchanged and absent). */
  undo: { undone: boolean; model?: InspectorModel };
}

export type SuccessResponse = {
  [K in WebviewRequestType]: { type: 'response'; id: number; request: K; ok: true; value: ResponseValues[K] };
}[WebviewRequestType];

export interface FailureResponse {
  type: 'response';
  id: number;
  request: WebviewRequestType;
  ok: false;
  /** One line a person can read. */
  error: string;
  /** The request was superseded or the panel closed; not an error to show. */
  cancelled?: boolean;
}

export type HostResponse = SuccessResponse | FailureResponse;

// ───────────────────────────── host → webview ─────────────────────────────

/** The answer to `ready`, and again whenever the panel switches conversation. */
export interface InitNotification {
  type: 'init';
  /** Absent when there is nothing to show yet (`message` says why). */
  model?: InspectorModel;
  message?: string;
  /** A part to bring into view (the Sessions view's "Show Context Chart"). */
  reveal?: 'chart';
}

/** Long work on the host side, for the progress line. */
export interface BusyNotification {
  type: 'busy';
  busy: boolean;
  /** e.g. "Previewing…", "Applying…". */
  label?: string;
}

/** The conversation changed outside the inspector (file grew, compacted from a command):
 *  the preview shown is out of date. */
export interface StaleNotification {
  type: 'stale';
  reason: string;
}

/** An error outside any request (e.g. the first preview failed). */
export interface ErrorNotification {
  type: 'error';
  message: string;
}

export type HostNotification = InitNotification | BusyNotification | StaleNotification | ErrorNotification;
export type HostToWebview = HostNotification | HostResponse;

// ───────────────────────────── webview state ─────────────────────────────

export type DiffMode = 'unified' | 'split';

/** What the webview keeps in vscode.setState: UI state only — never the conversation. Edits in
 *  progress count as UI state (unsaved work a reload must not lose); they are keyed to the
 *  conversation so another conversation never inherits them. The serializer reads `key` to
 *  restore the panel after a reload. */
export interface InspectorUiState {
  version: 1;
  key?: string;
  roles: Role[];
  decisions: Decision[];
  search: string;
  selectedId?: string;
  timelineScroll: number;
  diffMode: DiffMode;
  /** Message id for a per-message diff; absent: the whole conversation. */
  diffScope?: string;
  edits: InspectorEdits;
}
