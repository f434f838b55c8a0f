// A compacted conversation → the records of a new Gemini CLI session file that `gemini -r <id>`
// resumes. Pure: ids, time and the project hash come from the caller.
//
// Gemini CLI resumes the message records of the file in order (importers/geminiCli.ts says how), so
// the file is what its own compression leaves, with nothing before it:
//   1. the header {sessionId, projectHash (sha256 of the working directory), startTime,
//      lastUpdated, kind: "main"}, which also records in `contextCompactor` where the session came
//      from, so a listing can show it under its original;
//   2. the summary as a user message, inside `<state_snapshot>` as Gemini CLI's own summaries are
//      (a user message starting with `/`, `?`, `<session_context>` or `<hook_context>` would not be
//      sent), and the model's "Got it. Thanks for the additional context!";
//   3. the turns after the summary (exporters/geminiContent.ts): text as a string, a turn with tool
//      calls as a Part list with its functionCall parts (so the CLI does not send the results a
//      `toolCalls` entry holds a second time), its results a user message of functionResponse parts.
// No record carries `tokens`: a figure not measured is never written. No `<session_context>`: the
// CLI puts a fresh one first when it resumes.

import type { Conversation } from '../model';
import { droppedThinkingNote, GEMINI_SUMMARY_ACK, geminiTurns } from './geminiContent';
import { inheritedField, sessionParts, type InheritedFigures } from './sessionParts';

export interface GeminiSessionOptions {
  /** The new session's id (a fresh UUID; its first 8 characters name the file). */
  sessionId: string;
  /** sha256 of the working directory, hex: the CLI resumes a session only from its project. */
  projectHash: string;
  /** The model to name on the model's messages (the original's, when it was Gemini CLI's). */
  model?: string;
  tokensBefore: number;
  tokensAfter: number;
  /** The session it came from, and what its agent measured that carries over. */
  from?: { sessionId?: string; file?: string; inherited?: InheritedFigures };
  /** Time of the first record; each later one is a millisecond later. */
  now: Date;
  newUuid: () => string;
}

export interface GeminiSession {
  lines: Record<string, unknown>[];
  text: string;
  notes: string[];
}

/** Where the header records the session's origin. */
export const GEMINI_PROVENANCE_FIELD = 'contextCompactor';

export function geminiSession(conv: Conversation, opts: GeminiSessionOptions): GeminiSession | undefined {
  const parts = sessionParts(conv, 'Gemini CLI');
  if (!parts) return undefined;
  const { turns, droppedThinking } = geminiTurns(parts.tail);
  const notes = [...parts.notes, ...droppedThinkingNote(droppedThinking, 'Gemini CLI')];
  let tick = 0;
  const stamp = () => new Date(opts.now.getTime() + tick++).toISOString();
  const started = stamp();
  const model = opts.model ? { model: opts.model } : {};
  const messages: Record<string, unknown>[] = [
    { id: opts.newUuid(), timestamp: stamp(), type: 'user', content: [{ text: `<state_snapshot>\n${parts.summaryText}\n</state_snapshot>` }] },
    { id: opts.newUuid(), timestamp: stamp(), type: 'gemini', content: GEMINI_SUMMARY_ACK, thoughts: [], ...model },
  ];
  for (const t of turns) {
    const base = { id: opts.newUuid(), timestamp: stamp() };
    if (t.role === 'user') messages.push({ ...base, type: 'user', content: t.parts });
    else {
      const textOnly = t.parts.length === 1 && typeof t.parts[0]!['text'] === 'string';
      messages.push({ ...base, type: 'gemini', content: textOnly ? t.parts[0]!['text'] : t.parts, thoughts: [], ...model });
    }
  }
  const last = String(messages[messages.length - 1]!['timestamp']);
  const header = {
    sessionId: opts.sessionId,
    projectHash: opts.projectHash,
    startTime: started,
    lastUpdated: last,
    kind: 'main',
    [GEMINI_PROVENANCE_FIELD]: {
      ...(opts.from?.sessionId ? { from: opts.from.sessionId } : {}),
      ...(opts.from?.file ? { file: opts.from.file } : {}),
      tokensBefore: opts.tokensBefore,
      tokensAfter: opts.tokensAfter,
      ...inheritedField(opts.from?.inherited),
    },
  };
  const lines = [header, ...messages];
  return { lines, text: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', notes };
}
