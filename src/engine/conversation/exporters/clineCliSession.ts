// A compacted conversation → a new Cline CLI 3.x session that `cline --id <id>` continues (verified
// with the real Cline CLI 3.0.65: a hand-written session folder was listed by `cline history` and
// its messages were sent on resume). Pure: ids and time come from the caller.
//
// The session is two files in `<sessions>/<id>/` (without the manifest the CLI starts an empty
// session under that id):
//   <id>.messages.json  {version: 1, updated_at, agent: "lead", sessionId, origin, contextCompactor,
//     messages} (our provenance: the session it came from, what it inherited):
//     the summary as a user message (the CLI sends stored text as it is), then the recent turns as
//     Cline stores them — a person's words in `<user_input mode="act">`, assistant `text` and
//     `tool_use` blocks, tool results as `tool_result` blocks (with the tool's `name`) in a user
//     message;
//   <id>.json  the manifest: {version: 1, session_id, source: "cli", pid, status, provider, model,
//     cwd, workspace_root, enable_*, prompt, metadata: {title, …}, messages_path}, our provenance in
//     metadata.
// No `system_prompt` is written: the resuming CLI sends its own. Thinking is left out (Cline sends
// back only signed thinking of its own provider).

import { isUserAuthored, messageText, type Conversation } from '../model';
import { argumentsObject, definedOnly, inheritedField, sessionParts, sessionText as textOf, type InheritedFigures } from './sessionParts';

export interface ClineCliSessionOptions {
  sessionId: string;
  cwd: string;
  /** Where the messages file will be (the manifest names it). */
  messagesPath: string;
  /** The CLI version to record (the original's, when known). */
  version: string;
  provider?: string;
  model?: string;
  from?: { sessionId?: string; file?: string; tokensBefore?: number; tokensAfter?: number; inherited?: InheritedFigures };
  now: Date;
  newUuid: () => string;
}

export interface ClineCliSession {
  messages: Record<string, unknown>;
  manifest: Record<string, unknown>;
  notes: string[];
}

/** Where the manifest's metadata records the session's origin. */
export const CLINE_PROVENANCE_FIELD = 'contextCompactor';

export function clineCliSession(conv: Conversation, opts: ClineCliSessionOptions): ClineCliSession | undefined {
  const parts = sessionParts(conv, 'Cline');
  if (!parts) return undefined;
  const notes = [...parts.notes];
  let tick = 0;
  const ts = () => opts.now.getTime() + tick++;
  const messages: Record<string, unknown>[] = [{ id: opts.newUuid(), role: 'user', content: [{ type: 'text', text: parts.summaryText }], ts: ts() }];
  let thinking = 0;
  let results: Record<string, unknown>[] = [];
  const flushResults = () => {
    if (results.length > 0) messages.push({ id: opts.newUuid(), role: 'user', content: results, ts: ts() });
    results = [];
  };
  const callNames = new Map(parts.tail.flatMap((m) => (m.toolCalls ?? []).map((c) => [c.id, c.name] as const)));
  for (const m of parts.tail) {
    if (m.toolResult) {
      // The CLI sends a result as a tool message that must name its tool (without `name` it refuses
      // the whole history: "The messages do not match the ModelMessage[] schema", verified).
      const name = m.toolResult.toolName ?? callNames.get(m.toolResult.toolCallId) ?? 'tool';
      results.push({
        type: 'tool_result',
        tool_use_id: m.toolResult.toolCallId,
        name,
        content: textOf(m),
        ...(m.toolResult.isError ? { is_error: true } : {}),
      });
      continue;
    }
    flushResults();
    if (m.role === 'assistant') {
      thinking += m.content.filter((p) => p.type === 'thinking').length;
      const content: Record<string, unknown>[] = [];
      const text = textOf(m);
      if (text !== '') content.push({ type: 'text', text });
      for (const c of m.toolCalls ?? []) content.push({ type: 'tool_use', id: c.id, name: c.name, input: argumentsObject(c.arguments) });
      if (content.length > 0) messages.push({ id: opts.newUuid(), role: 'assistant', content, ts: ts() });
      continue;
    }
    const text = textOf(m);
    if (text === '') continue;
    messages.push({
      id: opts.newUuid(),
      role: 'user',
      content: [{ type: 'text', text: isUserAuthored(m) ? `<user_input mode="act">${text}</user_input>` : text }],
      ts: ts(),
    });
  }
  flushResults();
  if (thinking > 0) notes.push(`${thinking} thinking block${thinking === 1 ? '' : 's'} left out (Cline sends back only its provider's own)`);

  const at = opts.now.toISOString();
  // Our provenance, in the manifest (the listing reads it there) and the messages file (what the
  // session inherited is read from there).
  const provenance = opts.from ? { [CLINE_PROVENANCE_FIELD]: definedOnly({ ...opts.from, inherited: undefined, ...inheritedField(opts.from.inherited) }) } : {};
  const firstRequest = conv.messages.find(isUserAuthored);
  const title = (firstRequest ? messageText(firstRequest) : parts.summary).replace(/\s+/g, ' ').trim().slice(0, 200);
  const origin = { source: 'cli', mode: 'user', sessionId: opts.sessionId, version: opts.version };
  // `cline history` lists a session only when its manifest has every field its index requires
  // (pid, provider, model, enable_*; verified): no process wrote this one, and the CLI resumes it
  // with the provider configured then, whatever provider and model are recorded here.
  const manifest: Record<string, unknown> = {
    version: 1,
    session_id: opts.sessionId,
    source: 'cli',
    pid: 0,
    started_at: at,
    ended_at: at,
    exit_code: 0,
    status: 'completed',
    interactive: false,
    provider: opts.provider ?? 'unknown',
    model: opts.model ?? 'unknown',
    cwd: opts.cwd,
    workspace_root: opts.cwd,
    enable_tools: true,
    enable_spawn: true,
    enable_teams: true,
    prompt: title,
    metadata: {
      sessionHistoryOrigin: { mode: 'user', version: opts.version },
      title,
      ...provenance,
    },
    messages_path: opts.messagesPath,
  };
  return { messages: { version: 1, updated_at: at, agent: 'lead', sessionId: opts.sessionId, origin, ...provenance, messages }, manifest, notes };
}
