// A compacted conversation → the lines of a new Claude Code session file that `claude --resume`
// continues. Pure: ids and time come from the caller.
//
// What Claude Code sends on resume is the parentUuid chain ending at the file's last line, cut at a
// line whose parentUuid is null. So the file is:
//   1. a `system` `compact_boundary` line (parentUuid null; logicalParentUuid: the last line of the
//      session it came from; compactMetadata {trigger 'manual', preTokens}), which also records in
//      `contextCompactor` where the session came from, so a listing can show it under its original;
//   2. the summary as an `isCompactSummary` user line;
//   3. the turns after the summary, verbatim, one line per API turn (toAnthropicRequest's turns: a
//      tool call's results open the user turn after it), each with a fresh uuid, its parentUuid the
//      line before, and a timestamp.
// Every line carries sessionId, cwd and version as real files do. Timestamps increase by a
// millisecond from `now`. Thinking blocks go back only with their signature (the API rejects a
// thinking block it cannot verify); the tool_use ids are the original ones, so every tool_result
// still answers its call.

import type { Conversation } from '../model';
import { PLACEHOLDER_USER_TEXT, toAnthropicRequest, type AnthropicBlockOut, type AnthropicMessageOut } from './anthropic';
import { inheritedField, sessionParts, type InheritedFigures } from './sessionParts';

export interface ClaudeCodeSessionOptions {
  /** The new session's id (a fresh UUID). */
  sessionId: string;
  /** The working directory the session belongs to (Claude Code resumes it only from there). */
  cwd: string;
  /** Claude Code version to record (the original's, when known). */
  version: string;
  gitBranch?: string;
  /** The model to name on assistant lines (the original's, when known). */
  model?: string;
  /** Tokens of the conversation before compaction (compactMetadata.preTokens). */
  tokensBefore: number;
  tokensAfter: number;
  /** The session it came from, and what its agent measured that carries over (sessionParts.ts). */
  from?: { sessionId?: string; lastUuid?: string; file?: string; inherited?: InheritedFigures };
  /** Time of the first line; each later line is a millisecond later. */
  now: Date;
  /** A fresh UUID per call (crypto.randomUUID in Node). */
  newUuid: () => string;
}

export interface ClaudeCodeSession {
  lines: Record<string, unknown>[];
  /** The file's text: one JSON object per line, ending with a newline. */
  text: string;
  /** What had to change to make the turns valid (thinking without a signature left out, …). */
  notes: string[];
}

/** Where the boundary line records the session's origin. */
export const PROVENANCE_FIELD = 'contextCompactor';

export function claudeCodeSession(conv: Conversation, opts: ClaudeCodeSessionOptions): ClaudeCodeSession | undefined {
  const parts = sessionParts(conv, 'Claude Code');
  if (!parts) return undefined;
  const notes = [...parts.notes];
  const { request, notes: exportNotes } = toAnthropicRequest({ ...conv, messages: parts.tail });
  let turns = request.messages;
  // The summary line is the user turn before the tail: no placeholder is needed.
  if (exportNotes.length > 0 && isPlaceholder(turns[0])) turns = turns.slice(1);
  if (typeof request.system === 'string' || Array.isArray(request.system)) notes.push('system text at the start of the recent turns was left out');

  let tick = 0;
  const stamp = () => new Date(opts.now.getTime() + tick++).toISOString();
  const envelope = () => ({
    isSidechain: false,
    userType: 'external',
    cwd: opts.cwd,
    sessionId: opts.sessionId,
    version: opts.version,
    ...(opts.gitBranch !== undefined ? { gitBranch: opts.gitBranch } : {}),
  });
  const lines: Record<string, unknown>[] = [];
  const boundary = opts.newUuid();
  lines.push({
    parentUuid: null,
    logicalParentUuid: opts.from?.lastUuid ?? null,
    ...envelope(),
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    isMeta: false,
    timestamp: stamp(),
    uuid: boundary,
    level: 'info',
    compactMetadata: { trigger: 'manual', preTokens: opts.tokensBefore },
    [PROVENANCE_FIELD]: {
      ...(opts.from?.sessionId ? { from: opts.from.sessionId } : {}),
      ...(opts.from?.file ? { file: opts.from.file } : {}),
      tokensBefore: opts.tokensBefore,
      tokensAfter: opts.tokensAfter,
      ...inheritedField(opts.from?.inherited),
    },
  });
  let parent = opts.newUuid();
  lines.push({
    parentUuid: boundary,
    ...envelope(),
    type: 'user',
    message: { role: 'user', content: parts.summaryText },
    isCompactSummary: true,
    isVisibleInTranscriptOnly: true,
    uuid: parent,
    timestamp: stamp(),
  });
  let dropped = 0;
  for (const turn of turns) {
    const content = turn.content.filter((b) => {
      const keep = (b.type !== 'thinking' || !!b.signature) && (b.type !== 'redacted_thinking' || b.data !== '');
      if (!keep) dropped++;
      return keep;
    });
    if (content.length === 0) continue;
    const uuid = opts.newUuid();
    const message = turn.role === 'user' ? userMessage(content) : assistantMessage(content, `msg_ctxc_${uuid.replace(/-/g, '')}`, opts.model);
    lines.push({ parentUuid: parent, ...envelope(), type: turn.role, message, uuid, timestamp: stamp() });
    parent = uuid;
  }
  if (dropped > 0)
    notes.push(`${dropped} thinking block${dropped === 1 ? '' : 's'} without a signature left out (the API accepts thinking only with its signature)`);
  return { lines, text: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', notes };
}

function isPlaceholder(turn: AnthropicMessageOut | undefined): boolean {
  return !!turn && turn.role === 'user' && turn.content.length === 1 && turn.content[0]!.type === 'text' && turn.content[0]!.text === PLACEHOLDER_USER_TEXT;
}

/** A user turn: one text block is written as a plain string, as Claude Code writes a typed prompt. */
function userMessage(content: AnthropicBlockOut[]): Record<string, unknown> {
  const only = content.length === 1 ? content[0]! : undefined;
  return { role: 'user', content: only && only.type === 'text' ? only.text : content };
}

/** An assistant turn as the API returned it. Its own id, so Claude Code never merges it with another
 *  line; no usage, so Claude Code estimates the resumed context instead of trusting an old figure. */
function assistantMessage(content: AnthropicBlockOut[], id: string, model: string | undefined): Record<string, unknown> {
  return {
    id,
    type: 'message',
    role: 'assistant',
    ...(model ? { model } : {}),
    content,
    stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
  };
}
