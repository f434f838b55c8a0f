// What the session listing knows about one agent session, whatever the agent. Plain data, so the
// extension can keep it, post it to a view, or print it as JSON.

import type { SourceFormat } from '../engine/conversation/model';

/** An agent's id in the registry (src/sessions/agents/registry.ts): 'claude-code', 'codex', … */
export type AgentId = string;

/** A session file found by a source, before it is read. */
export interface FoundSession {
  agent: AgentId;
  /** The agent's id for it (file name or task id). */
  id: string;
  /** The file that holds its messages. */
  file: string;
  /** The working directory it records, when the source knows it without reading the whole file. */
  cwd?: string;
  /** The session it belongs under: a sub-agent's session, or the session a compaction came from. */
  parent?: string;
  relation?: 'subagent' | 'compacted';
  /** A title the agent's own index gives (Cline's task text), used before the first user message. */
  title?: string;
  /** The format to read it as (else detected). */
  format?: SourceFormat;
  /** Whether its agent resumes a session written back for it; default: whether the agent resumes
   *  files at all (Cline's CLI does, its VS Code extension's tasks do not). */
  resumable?: boolean;
  size: number;
  mtimeMs: number;
}

export interface AgentSession {
  agent: AgentId;
  id: string;
  file: string;
  /** The first thing the person asked (one line, at most TITLE_CHARS), else the agent's own title. */
  title: string;
  model?: string;
  /** Tokens of what the agent sends when the session is resumed: the usage it reported for its last
   *  request plus our count of what came after, else our count (as `ctxc count`'s total). */
  tokens: number;
  /** The usage the agent reported for its last request, when `tokens` builds on it. */
  reportedTokens?: number;
  /** Of `tokens`, what the file does not show (system prompt, tools): from that usage, or what a
   *  session we wrote inherited from its original. */
  overhead?: number;
  /** The model's context window. */
  window: number;
  /** Tokens the file holds that are not sent (Claude Code rewinds and history before the last
   *  compact boundary; Codex items a compaction replaced). */
  historyTokens: number;
  messages: number;
  /** Last activity: the file's modification time, ISO 8601. */
  updated: string;
  cwd?: string;
  parent?: string;
  relation?: 'subagent' | 'compacted';
  /** Ids of the sessions listed under this one (filled by the listing). */
  children: string[];
  /** Whether the agent resumes a compacted session written back into its files. */
  resumable: boolean;
  /** Import warnings (malformed lines skipped, …), counted. */
  warnings: number;
  /** The version of the agent that wrote it, when the file says. */
  agentVersion?: string;
  /** That version is newer than the newest tested (testedVersions.json): the file is read as the
   *  newest known one is, and the listing says so. */
  newerThanTested?: string;
  /** Why the file could not be read: listed, never silently skipped. */
  error?: string;
  /** The same without what it quotes from the file, when it does (for MCP, which shows no content
   *  of a file it was not asked to read). */
  errorUnquoted?: string;
  size: number;
  mtimeMs: number;
}

/** How long a title may be. */
export const TITLE_CHARS = 100;

/** One line of untrusted text, at most TITLE_CHARS: control characters and line breaks become spaces. */
export function titleText(text: string): string {
  const one = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return one.length > TITLE_CHARS ? `${one.slice(0, TITLE_CHARS - 1)}…` : one;
}
