// A compacted conversation → the events of a new GitHub Copilot CLI session that
// `copilot --resume=<id>` continues (verified with the real Copilot CLI 1.0.102). Pure: ids and time
// come from the caller.
//
// Copilot rebuilds what it sends by replaying events.jsonl (importers/copilotCli.ts); a
// `session.compaction_complete` replaces everything before its `session.compaction_start` with the
// summary. So the file is:
//   1. `session.start` {sessionId, version: 1, producer: "copilot-agent", copilotVersion, startTime,
//      selectedModel?, context: {cwd}} (and our provenance field);
//   2. `session.compaction_start` and `session.compaction_complete` {success: true, outcome:
//      "applied", summaryContent}: Copilot sends the summary as "Some of the conversation history
//      has been summarized…<summary>…</summary>"; no older user message is placed before it, so it
//      quotes none (the summary lists them);
//   3. the recent turns: `user.message` {content, transformedContent}, `assistant.turn_start`,
//      `assistant.message` {content, toolRequests}, `tool.execution_start` / `_complete` {success,
//      result.content | error.message}, `assistant.turn_end`.
// Every event is {type, data, id, timestamp, parentId: the previous event's id}. Copilot's own
// reasoning text goes back with its message; thinking from other agents is left out.

import type { Conversation, Message } from '../model';
import { argumentsObject, definedOnly, inheritedField, sessionParts, sessionText as textOf, type InheritedFigures } from './sessionParts';

export interface CopilotCliSessionOptions {
  sessionId: string;
  cwd: string;
  /** Copilot version to record (the original's, when known). */
  copilotVersion: string;
  model?: string;
  from?: { sessionId?: string; file?: string; tokensBefore?: number; tokensAfter?: number; inherited?: InheritedFigures };
  now: Date;
  newUuid: () => string;
}

export interface CopilotCliSession {
  events: Record<string, unknown>[];
  text: string;
  notes: string[];
}

/** Where session.start records the session's origin. */
export const COPILOT_PROVENANCE_FIELD = 'contextCompactor';

export function copilotCliSession(conv: Conversation, opts: CopilotCliSessionOptions): CopilotCliSession | undefined {
  const parts = sessionParts(conv, 'Copilot CLI');
  if (!parts) return undefined;
  const notes = [...parts.notes];
  const events: Record<string, unknown>[] = [];
  let tick = 0;
  const add = (type: string, data: Record<string, unknown>) => {
    const previous = events[events.length - 1];
    events.push({ type, data, id: opts.newUuid(), timestamp: new Date(opts.now.getTime() + tick++).toISOString(), parentId: previous ? previous['id'] : null });
  };
  const started = opts.now.toISOString();
  add('session.start', {
    sessionId: opts.sessionId,
    version: 1,
    producer: 'copilot-agent',
    copilotVersion: opts.copilotVersion,
    startTime: started,
    ...(opts.model ? { selectedModel: opts.model } : {}),
    context: { cwd: opts.cwd },
    ...(opts.from ? { [COPILOT_PROVENANCE_FIELD]: definedOnly({ ...opts.from, inherited: undefined, ...inheritedField(opts.from.inherited) }) } : {}),
  });
  const attempt = opts.newUuid();
  add('session.compaction_start', { compactionAttemptId: attempt, ...(opts.model ? { model: opts.model } : {}), trigger: 'manual' });
  add('session.compaction_complete', {
    success: true,
    outcome: 'applied',
    compactionAttemptId: attempt,
    summaryContent: parts.summary,
    trigger: 'manual',
  });

  let turn = -1;
  let inTurn = false;
  let userId: string | undefined;
  let droppedThinking = 0;
  const endTurn = () => {
    if (inTurn) add('assistant.turn_end', { turnId: String(turn) });
    inTurn = false;
  };
  const tail = parts.tail;
  for (let i = 0; i < tail.length; i++) {
    const m = tail[i]!;
    if (m.toolResult) {
      const text = textOf(m);
      add(
        'tool.execution_complete',
        m.toolResult.isError
          ? { toolCallId: m.toolResult.toolCallId, success: false, error: { message: text } }
          : { toolCallId: m.toolResult.toolCallId, success: true, result: { content: text } },
      );
      continue;
    }
    if (m.role === 'assistant') {
      if (!inTurn) {
        turn++;
        inTurn = true;
        add('assistant.turn_start', { turnId: String(turn) });
      }
      const reasoning = m.content.filter((p) => p.type === 'thinking').map((p) => p.text);
      const ownReasoning = m.source?.format === 'copilot-cli' ? reasoning.filter(Boolean).join('\n') : '';
      if (m.source?.format !== 'copilot-cli') droppedThinking += reasoning.length;
      const calls = m.toolCalls ?? [];
      add('assistant.message', {
        messageId: opts.newUuid(),
        ...(userId ? { originatingMessageId: userId } : {}),
        ...(opts.model ? { model: opts.model } : {}),
        content: textOf(m),
        toolRequests: calls.map((c) => ({ toolCallId: c.id, name: c.name, arguments: argumentsObject(c.arguments), type: 'function' })),
        ...(ownReasoning ? { reasoningText: ownReasoning } : {}),
        turnId: String(turn),
      });
      for (const c of calls) add('tool.execution_start', { toolCallId: c.id, toolName: c.name, arguments: argumentsObject(c.arguments), turnId: String(turn) });
      continue;
    }
    // A person's turn (with the notes Copilot put around it, read from the same event) is one
    // user.message: the request is its `content`, everything as sent its `transformedContent`.
    endTurn();
    const group: Message[] = [m];
    while (i + 1 < tail.length && sameUserEvent(m, tail[i + 1]!)) group.push(tail[++i]!);
    const request = group.find((g) => g.itemType === 'USER_MESSAGE') ?? m;
    userId = opts.newUuid();
    add('user.message', {
      content: textOf(request),
      transformedContent: group.map(textOf).join('\n\n'),
      messageId: userId,
      interactionId: opts.newUuid(),
      turnId: String(turn + 1),
    });
  }
  endTurn();
  if (droppedThinking > 0)
    notes.push(`${droppedThinking} thinking block${droppedThinking === 1 ? '' : 's'} not from Copilot CLI left out (it sends back only its own reasoning)`);
  return { events, text: events.map((e) => JSON.stringify(e)).join('\n') + '\n', notes };
}

/** Two messages read from one Copilot user.message event (the request and its notes). */
function sameUserEvent(a: Message, b: Message): boolean {
  return (
    b.role === 'user' &&
    !b.toolResult &&
    a.source?.format === 'copilot-cli' &&
    b.source?.format === 'copilot-cli' &&
    a.source.line !== undefined &&
    a.source.line === b.source.line
  );
}
