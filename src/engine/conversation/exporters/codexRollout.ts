// A compacted conversation → the lines of a new Codex rollout that `codex resume <id>` continues.
// Pure: ids and time come from the caller.
//
// Codex rebuilds what it sends by replaying the rollout: a `compacted` line replaces everything
// before it with its `replacement_history`. So the rollout is:
//   1. `session_meta` (Codex requires it first): id and session_id, timestamp, cwd, originator,
//      cli_version, source, thread_source, and when known model_provider (Codex's listings filter
//      on it) and base_instructions (Codex sends them as the first developer message on resume;
//      without them it sends its current defaults);
//   2. an `event_msg` `user_message` (the session's first request: Codex takes the thread's title
//      from it, and a Codex without an index skips in `resume --last` a rollout that has none);
//   3. a `compacted` line whose `message` is the summary and whose `replacement_history` is the
//      summary as a user message followed by the recent turns as Responses items: user and
//      assistant `message`s, each tool call a `function_call` {name, arguments, call_id} right
//      where the assistant made it, each result a `function_call_output` {call_id, output}.
// Reasoning goes back only when it came from Codex with its encrypted content (nothing else can be
// verified by the API); thinking from other agents is left out. Every line has a timestamp (Codex
// silently skips a compacted line without one), increasing by a millisecond from `now`, and an `ordinal` (0, 1, 2,
// as Codex numbers its lines). No `history_mode`: the rollout is a legacy one, which Codex 0.169
// and 0.171 resume and go on appending to as such (a paginated one also needs Codex's own
// thread_history projection).

import type { Conversation, Message } from '../model';
import { definedOnly, inheritedField, sessionParts, sessionText as textOf, type InheritedFigures } from './sessionParts';

export interface CodexRolloutOptions {
  /** The new session's id (a fresh UUID). */
  sessionId: string;
  cwd: string;
  /** Codex version to record (the original's, when known). */
  cliVersion: string;
  /** Default CODEX_ORIGINATOR. */
  originator?: string;
  /** The model provider the session runs with (the original's, else the user's configured one). */
  modelProvider?: string;
  /** The original Codex session's base instructions, sent again on resume. */
  baseInstructions?: string;
  /** The text of the user_message event (the original's first request, when known). */
  firstRequest?: string;
  /** The session it came from, recorded in session_meta so a listing can show it under its original. */
  from?: { sessionId?: string; file?: string; tokensBefore?: number; tokensAfter?: number; inherited?: InheritedFigures };
  now: Date;
}

export interface CodexRollout {
  lines: Record<string, unknown>[];
  text: string;
  /** The replacement_history items, for checks. */
  replacementHistory: Record<string, unknown>[];
  notes: string[];
}

/** Where session_meta records the session's origin. */
export const CODEX_PROVENANCE_FIELD = 'context_compactor';
/** Codex's `source` for a session no person started in its terminal or IDE: what `codex exec`
 *  records, and what we are (a program writing the session, not the TUI `cli` nor the IDE
 *  extension `vscode`). Codex lists such sessions in `codex exec resume --last`, in `codex resume
 *  --include-non-interactive` and in the app server's thread/list with sourceKinds ["exec"]. */
export const CODEX_SESSION_SOURCE = 'exec';
/** Who wrote the rollout, in session_meta's `originator` (Codex's own are codex_exec, codex_cli_rs, …). */
export const CODEX_ORIGINATOR = 'context_compactor';

export function codexRollout(conv: Conversation, opts: CodexRolloutOptions): CodexRollout | undefined {
  const parts = sessionParts(conv, 'Codex');
  if (!parts) return undefined;
  const notes = [...parts.notes];
  const history: Record<string, unknown>[] = [userItem(parts.summaryText)];
  let droppedThinking = 0;
  for (const m of parts.tail) {
    const { items, dropped } = responseItems(m);
    history.push(...items);
    droppedThinking += dropped;
  }
  if (droppedThinking > 0)
    notes.push(
      `${droppedThinking} thinking block${droppedThinking === 1 ? '' : 's'} not from Codex left out (reasoning goes back only with Codex's encrypted content)`,
    );

  let tick = 0;
  const stamp = () => new Date(opts.now.getTime() + tick++).toISOString();
  const started = stamp();
  const firstRequest = opts.firstRequest ?? lastUserText(parts.tail) ?? 'Continue from the summary.';
  const lines: Record<string, unknown>[] = [
    line(started, 0, 'session_meta', {
      id: opts.sessionId,
      session_id: opts.sessionId,
      timestamp: started,
      cwd: opts.cwd,
      originator: opts.originator ?? CODEX_ORIGINATOR,
      cli_version: opts.cliVersion,
      source: CODEX_SESSION_SOURCE,
      thread_source: 'user',
      ...(opts.modelProvider ? { model_provider: opts.modelProvider } : {}),
      ...(opts.baseInstructions ? { base_instructions: { text: opts.baseInstructions } } : {}),
      ...(opts.from ? { [CODEX_PROVENANCE_FIELD]: definedOnly({ ...opts.from, inherited: undefined, ...inheritedField(opts.from.inherited) }) } : {}),
    }),
    line(stamp(), 1, 'event_msg', { type: 'user_message', message: firstRequest, images: [], local_images: [], text_elements: [] }),
    line(stamp(), 2, 'compacted', { message: parts.summaryText, replacement_history: history }),
  ];
  return { lines, text: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', replacementHistory: history, notes };
}

/** One rollout line, its keys in Codex's order. */
function line(timestamp: string, ordinal: number, type: string, payload: Record<string, unknown>): Record<string, unknown> {
  return { timestamp, ordinal, type, payload };
}

function userItem(text: string): Record<string, unknown> {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}

function lastUserText(tail: readonly Message[]): string | undefined {
  for (let i = tail.length - 1; i >= 0; i--) {
    const m = tail[i]!;
    if (m.itemType === 'USER_MESSAGE' && !m.toolResult) return textOf(m);
  }
  return undefined;
}

/** One message as Responses items, in the order the model produced them. */
function responseItems(m: Message): { items: Record<string, unknown>[]; dropped: number } {
  const items: Record<string, unknown>[] = [];
  let dropped = 0;
  if (m.toolResult) {
    items.push({ type: 'function_call_output', call_id: m.toolResult.toolCallId, output: textOf(m) });
    return { items, dropped };
  }
  if (m.role !== 'assistant') {
    const text = textOf(m);
    if (text !== '') items.push(userItem(text));
    return { items, dropped };
  }
  for (const p of m.content) {
    if (p.type !== 'thinking') continue;
    if (m.source?.format === 'codex' && p.signature) {
      items.push({ type: 'reasoning', summary: p.text ? [{ type: 'summary_text', text: p.text }] : [], encrypted_content: p.signature });
    } else {
      dropped++;
    }
  }
  const text = textOf(m);
  if (text !== '') items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  for (const c of m.toolCalls ?? []) items.push({ type: 'function_call', name: c.name, arguments: c.arguments, call_id: c.id });
  return { items, dropped };
}
