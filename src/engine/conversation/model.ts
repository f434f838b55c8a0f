// The conversation model every other layer works on. Pure data: plain objects that survive
// JSON round trips, so the archive can store them and undo can restore them byte for byte.

import type { InheritedFigures } from './inherited';

/** Roles as the chat APIs know them. A tool result is always role 'tool' here, even when the
 *  source format carried it inside a user message (Anthropic, Claude Code, Cline): the
 *  original role is kept in `source.role` so exporters can put it back. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** What a message is, one of the ItemTypes below. The selective rules, the
 *  assembly step and the token breakdown all key on this, never on the role alone. */
export type ItemType =
  | 'SYSTEM_PROMPT'
  | 'TOOL_DEFINITIONS'
  | 'USER_MESSAGE'
  | 'ASSISTANT_MESSAGE'
  | 'TOOL_RESULT'
  | 'COMPACTION_SUMMARY'
  | 'MEMORY'
  | 'THINKING'
  | 'SKILL_PROMPT'
  | 'SKILL_METADATA';

export const ITEM_TYPES: readonly ItemType[] = [
  'SYSTEM_PROMPT',
  'TOOL_DEFINITIONS',
  'USER_MESSAGE',
  'ASSISTANT_MESSAGE',
  'TOOL_RESULT',
  'COMPACTION_SUMMARY',
  'MEMORY',
  'THINKING',
  'SKILL_PROMPT',
  'SKILL_METADATA',
];

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ThinkingPart {
  type: 'thinking';
  text: string;
  /** Anthropic's signature for a thinking block; opaque, kept so export is lossless. */
  signature?: string;
  /** Redacted thinking carries only opaque data. */
  redacted?: boolean;
}

/** Images are not carried; a placeholder names what was there. */
export interface ImagePart {
  type: 'image';
  placeholder: string;
  mediaType?: string;
}

export type ContentPart = TextPart | ThinkingPart | ImagePart;

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model produced them: a JSON string (OpenAI) or the serialized
   *  input object (Anthropic). Kept as text so token counts match what is sent. */
  arguments: string;
}

export interface ToolResultInfo {
  toolCallId: string;
  isError: boolean;
  /** Name of the tool that produced it, when known (from the pairing or the source). */
  toolName?: string;
}

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON schema of the parameters, as given. */
  parameters?: unknown;
}

export type SourceFormat =
  | 'openai'
  | 'anthropic'
  | 'cline'
  | 'claude-code'
  | 'codex'
  | 'gemini-cli'
  | 'qwen-code'
  | 'vscode-chat'
  | 'copilot-chat'
  | 'copilot-cli'
  | 'aider'
  | 'opencode'
  | 'swe-agent'
  | 'mini-swe-agent'
  | 'openhands'
  | 'longmemeval'
  | 'chat-participant'
  | 'compacted';

export interface SourceMeta {
  format: SourceFormat;
  /** Position in the source: the array index, JSONL line (1-based) or Markdown line (1-based). */
  index?: number;
  line?: number;
  /** Role as written in the source, when it differs from `role` (a tool result sent as 'user'). */
  role?: string;
  /** Identifier the source gave the entry (Claude Code uuid, OpenHands event id, …). */
  sourceId?: string;
  /** Sub-agent / sidechain messages. */
  sidechain?: boolean;
  /** Free-form extra facts an importer wants to keep (e.g. aider's `tokens sent`). */
  extra?: Record<string, string | number | boolean>;
}

/** How a message was shortened, so it is never shortened twice. */
export interface TruncationRecord {
  by: 'importer' | 'formatter' | 'selective' | 'mask' | 'offload' | 'truncate' | 'collapse';
  originalTokens: number;
  keptTokens: number;
  /** Archive reference holding the full original, when one was written. */
  archiveRef?: string;
}

export interface Message {
  /** Stable: the same source imports to the same ids. */
  id: string;
  role: Role;
  itemType: ItemType;
  content: ContentPart[];
  toolCalls?: ToolCall[];
  /** Present exactly when this message carries a tool's output. */
  toolResult?: ToolResultInfo;
  /** ISO 8601, when the source records one. */
  timestamp?: string;
  /** Never summarized or dropped. */
  pinned?: boolean;
  /** OpenAI's optional participant name. */
  name?: string;
  /** Structured tool definitions, on the TOOL_DEFINITIONS message only. */
  toolDefinitions?: ToolDefinition[];
  truncation?: TruncationRecord;
  source?: SourceMeta;
}

export interface ConversationMeta {
  /** The file it came from, when it came from one. */
  sourcePath?: string;
  /** The model the transcript says it was held with, when it says. */
  model?: string;
  title?: string;
  /** How many compactions produced this conversation (0 for an original). */
  compactions?: number;
  /** Agent sessions: the working directory the session records. */
  cwd?: string;
  /** Agent sessions: the agent's own id for the session (Claude Code sessionId, Codex thread id). */
  sessionId?: string;
  /** Agent sessions: the version of the agent that wrote it (Claude Code `version`, Codex `cli_version`). */
  agentVersion?: string;
  /** Agent sessions: the model provider the agent ran it with, when it records one (Codex
   *  `model_provider`: its listings only show a thread under the provider it runs with). */
  modelProvider?: string;
  /** What the API counted for the last request the agent recorded (Claude Code `usage`, Codex
   *  `token_count`, Cline `api_req_started`, aider `Tokens: … sent`, `usage` in an export), tied to
   *  the message that answered it. Absent when the transcript records none that can be tied. */
  reportedUsage?: ReportedUsage;
  /** The first request the agent recorded, tied to its answer, when an agent's later requests carry
   *  more than its file shows (Gemini CLI resends earlier tool results at each resume): the
   *  overhead a session written back from this one inherits is measured on it. */
  firstReportedUsage?: ReportedUsage;
  /** A session we wrote back into an agent: what it takes over from its original (inherited.ts),
   *  used until the agent records usage of its own. */
  inherited?: InheritedFigures;
}

/** Who wrote a reported figure. */
export type UsageSource =
  'claude-code' | 'codex' | 'gemini-cli' | 'qwen-code' | 'cline' | 'roo-code' | 'aider' | 'opencode' | 'anthropic' | 'openai' | 'copilot-cli';

/** The parts of a reported figure, as its source recorded them. */
export interface UsageParts {
  /** Input tokens. Anthropic and Cline count here only those neither read from nor written to the
   *  prompt cache; OpenAI, Codex, Copilot CLI and aider count all of them. */
  input: number;
  /** Tokens written to the prompt cache (Anthropic `cache_creation_input_tokens`, Cline `cacheWrites`). */
  cacheWrite?: number;
  /** Tokens read from the prompt cache (Anthropic `cache_read_input_tokens`, Cline `cacheReads`; for
   *  OpenAI and Codex the cached share of `input`, already counted there). */
  cacheRead?: number;
  /** Tokens of the answer. */
  output?: number;
}

/** Usage an agent wrote into its session, kept as reported (never mixed with our own counts): the
 *  whole input of one request — the context the model read then, system prompt and tool definitions
 *  included — and the message that answered it, so every message before that one is what the
 *  figure covers. */
export interface ReportedUsage {
  /** Input tokens of that request: cached and uncached, cache writes included. */
  tokens: number;
  source: UsageSource;
  /** The message that answered the request (the figure covers the messages before it). */
  atMessageId: string;
  /** Where the figure is written: a line of the file (1-based), or an entry of a JSON list. */
  line?: number;
  index?: number;
  /** The file it is written in, when it is not the transcript itself (Cline's ui_messages.json). */
  file?: string;
  parts: UsageParts;
  /** The figure was printed rounded (aider's "4.6k"): the true one is within ± this many tokens. */
  rounding?: number;
  /** Codex: the window the agent says the model has, and its totals over the session. */
  contextWindow?: number;
  totalInputTokens?: number;
  totalOutputTokens?: number;
}

export interface Conversation {
  id: string;
  format: SourceFormat;
  messages: Message[];
  meta: ConversationMeta;
}

export interface ImportWarning {
  /** Where: "line 12", "messages[4].content[1]", "byte 1043". */
  position: string;
  message: string;
}

export interface ImportResult {
  conversation: Conversation;
  warnings: ImportWarning[];
  /** What the file holds that its agent does not send when the session is resumed. */
  history?: ImportHistory;
}

/** The part of an agent session file that is not sent on resume: a Claude Code file's abandoned
 *  branches (rewinds) and lines before its last compact boundary, a Codex rollout's items before
 *  its last compaction, an aider history's earlier chat sessions. Read so it can be counted and shown, never compacted with the live part. */
export interface ImportHistory {
  /** Those messages, as a conversation of their own. */
  conversation: Conversation;
  /** File lines they came from. */
  lines: number;
  /** Of those, lines before the last compaction boundary. */
  beforeBoundary: number;
  /** Of those, lines on branches the agent left (rewinds, forks). */
  otherBranches: number;
  /** aider: the earlier chat sessions of the file (each `# aider chat started at …`). */
  earlierSessions?: number;
}

/** Text of a message as the model reads it (text parts only, joined by newlines). */
export function messageText(m: Message): string {
  let out = '';
  for (const p of m.content) {
    if (p.type === 'text') out = out ? `${out}\n${p.text}` : p.text;
  }
  return out;
}

/** Thinking text of a message (thinking parts only). */
export function thinkingText(m: Message): string {
  let out = '';
  for (const p of m.content) {
    if (p.type === 'thinking') out = out ? `${out}\n${p.text}` : p.text;
  }
  return out;
}

/** A message a person typed (not a tool result that travelled with role 'user'). */
export function isUserAuthored(m: Message): boolean {
  return m.itemType === 'USER_MESSAGE' && m.toolResult === undefined;
}

export function isToolResult(m: Message): boolean {
  return m.toolResult !== undefined;
}

/** Header items: always kept verbatim at the top of a compacted conversation. */
export function isHeaderItem(m: Message): boolean {
  return m.itemType === 'SYSTEM_PROMPT' || m.itemType === 'TOOL_DEFINITIONS' || m.itemType === 'MEMORY';
}
