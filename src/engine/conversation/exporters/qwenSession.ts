// A compacted conversation → the records of a new Qwen Code session file that `qwen -r <id>` (and
// `qwen -c`, the newest of the folder) resumes. Pure: ids and time come from the caller.
//
// Qwen Code sends the parentUuid chain that ends at the file's last record (importers/qwenCode.ts
// says how), so the file is one chain, root first:
//   1. the summary as a user record inside `<state_snapshot>`, as Qwen Code's own summaries are
//      (`provenance: "real_user"`; the first record, which also records in `contextCompactor` where
//      the session came from);
//   2. the model's "Got it. Thanks for the additional context!", as Qwen Code answers its own
//      summaries;
//   3. the turns after the summary (exporters/geminiContent.ts): user records, assistant records
//      (text and functionCall parts), and `tool_result` records of functionResponse parts.
// Every record carries uuid, parentUuid (the record before; null for the first), sessionId,
// timestamp, type, provenance, cwd (Qwen Code resumes a session only when the first record's cwd is
// the folder it runs in) and version. No `usageMetadata`: Qwen Code trusts the last recorded
// promptTokenCount when it resumes, and one wrong figure makes it refuse every later turn
// ("Context is too large to send safely"); without one it estimates from the content.
//
// Chosen over appending a `chat_compression` record: that form belongs at the end of the original
// session, which is never written to, and its `info.newTokenCount` is again a figure Qwen Code
// would trust.

import type { Conversation } from '../model';
import { droppedThinkingNote, GEMINI_SUMMARY_ACK, geminiTurns } from './geminiContent';
import { inheritedField, sessionParts, type InheritedFigures } from './sessionParts';

export interface QwenSessionOptions {
  sessionId: string;
  /** The working directory: the folder Qwen Code must run in to resume it. */
  cwd: string;
  /** Qwen Code version to record (the original's, when known). */
  version: string;
  /** The model to name on assistant records (the original's, when it was Qwen Code's). */
  model?: string;
  tokensBefore: number;
  tokensAfter: number;
  from?: { sessionId?: string; file?: string; inherited?: InheritedFigures };
  now: Date;
  newUuid: () => string;
}

export interface QwenSession {
  lines: Record<string, unknown>[];
  text: string;
  notes: string[];
}

/** Where the first record keeps the session's origin. */
export const QWEN_PROVENANCE_FIELD = 'contextCompactor';

export function qwenSession(conv: Conversation, opts: QwenSessionOptions): QwenSession | undefined {
  const parts = sessionParts(conv, 'Qwen Code');
  if (!parts) return undefined;
  const { turns, droppedThinking } = geminiTurns(parts.tail);
  const notes = [...parts.notes, ...droppedThinkingNote(droppedThinking, 'Qwen Code')];
  let tick = 0;
  let parent: string | null = null;
  const lines: Record<string, unknown>[] = [];
  const record = (type: string, provenance: string, role: 'user' | 'model', body: Record<string, unknown>[], extra: Record<string, unknown> = {}) => {
    const uuid = opts.newUuid();
    lines.push({
      uuid,
      parentUuid: parent,
      sessionId: opts.sessionId,
      timestamp: new Date(opts.now.getTime() + tick++).toISOString(),
      type,
      provenance,
      cwd: opts.cwd,
      version: opts.version,
      ...(role === 'model' && opts.model ? { model: opts.model } : {}),
      message: { role, parts: body },
      ...extra,
    });
    parent = uuid;
  };
  record('user', 'real_user', 'user', [{ text: `<state_snapshot>\n${parts.summaryText}\n</state_snapshot>` }], {
    [QWEN_PROVENANCE_FIELD]: {
      ...(opts.from?.sessionId ? { from: opts.from.sessionId } : {}),
      ...(opts.from?.file ? { file: opts.from.file } : {}),
      tokensBefore: opts.tokensBefore,
      tokensAfter: opts.tokensAfter,
      ...inheritedField(opts.from?.inherited),
    },
  });
  record('assistant', 'assistant_output', 'model', [{ text: GEMINI_SUMMARY_ACK }]);
  for (const t of turns) {
    if (t.kind === 'model') record('assistant', 'assistant_output', 'model', t.parts);
    else if (t.kind === 'user') record('user', 'real_user', 'user', t.parts);
    else {
      const first = t.parts[0]!['functionResponse'] as { id: string; response: Record<string, unknown> };
      record('tool_result', 'tool_result', 'user', t.parts, {
        toolCallResult: { callId: first.id, status: 'error' in first.response ? 'error' : 'success' },
      });
    }
  }
  return { lines, text: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', notes };
}
