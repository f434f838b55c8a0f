// A compacted conversation → a new opencode session, in the shape `opencode import` takes (what
// `opencode export` prints: {info, messages: [{info, parts}]}). opencode copies it into its own
// database; nothing of ours writes there. Pure: ids and time come from the caller.
//
// What opencode (1.18.33) sends when it goes on with a session is everything after its last
// finished compaction: the compaction's user message (sent as "What did we do so far?"), the summary
// (an assistant message with summary: true, mode and agent "compaction"), and what follows. So the
// session is:
//   1. a user message whose only part is a `compaction` part;
//   2. the summary as that compaction's assistant message (step-start, text, step-finish);
//   3. the turns after the summary: each user turn a user message of text parts; each assistant turn
//      an assistant message (step-start, its reasoning, text and one `tool` part per call — holding
//      the call's input and its result, completed or error — then step-finish).
// Every message and part has a fresh id (opencode's import skips an id it already has, so reusing
// the original's would silently drop messages and leave the original as it was): ascending, as
// opencode orders history by (time.created, id) and parts by id. User messages name the model
// opencode goes on with (it uses the last user message's); assistant messages record no usage
// (tokens 0): opencode decides to compact from the last usage, and one we did not measure must
// never be written. The session's metadata records where it came from.

import type { Conversation, Message } from '../model';
import { messageText } from '../model';
import { inheritedField, sessionParts, type InheritedFigures } from './sessionParts';

/** Where the session's metadata records its origin. */
export const OPENCODE_PROVENANCE_FIELD = 'contextCompactor';

export interface OpencodeModelRef {
  providerID: string;
  modelID: string;
}

export interface OpencodeSessionOptions {
  /** The new session's id (`ses_…`, opencode's form). */
  sessionId: string;
  /** The folder it belongs to (`opencode import` records the folder it runs in). */
  cwd: string;
  /** opencode version to record (the original's, when known). */
  version: string;
  /** The model opencode goes on with. */
  model: OpencodeModelRef;
  /** The agent the turns ran as (default "build"). */
  agent?: string;
  title: string;
  /** The session it came from, recorded in the metadata so a listing can show it under its original. */
  from?: { sessionId?: string; file?: string; tokensBefore?: number; tokensAfter?: number; inherited?: InheritedFigures };
  /** Time of the first message; each later one is a millisecond later. */
  now: Date;
  /** A fresh id for a message or a part, each later than the one before. */
  newId: (kind: 'msg' | 'prt') => string;
}

export type OpencodeJson = Record<string, unknown>;

export interface OpencodeSession {
  value: { info: OpencodeJson; messages: { info: OpencodeJson; parts: OpencodeJson[] }[] };
  text: string;
  notes: string[];
}

const ZERO_TOKENS = { total: 0, input: 0, output: 0, reasoning: 0, cache: { write: 0, read: 0 } };

export function opencodeSession(conv: Conversation, opts: OpencodeSessionOptions): OpencodeSession | undefined {
  const parts = sessionParts(conv, 'opencode');
  if (!parts) return undefined;
  const notes = [...parts.notes];
  const agent = opts.agent ?? 'build';
  let tick = 0;
  const time = () => opts.now.getTime() + tick++;
  const messages: OpencodeSession['value']['messages'] = [];
  const withIds = (messageID: string, list: OpencodeJson[]) => list.map((p) => ({ id: opts.newId('prt'), sessionID: opts.sessionId, messageID, ...p }));

  const user = (list: OpencodeJson[]): string => {
    const id = opts.newId('msg');
    messages.push({
      info: { id, sessionID: opts.sessionId, role: 'user', time: { created: time() }, agent, model: { ...opts.model }, summary: { diffs: [] } },
      parts: withIds(id, list),
    });
    return id;
  };
  const assistant = (parentID: string, list: OpencodeJson[], extra: OpencodeJson = {}) => {
    const id = opts.newId('msg');
    const created = time();
    const calls = list.some((p) => p['type'] === 'tool');
    messages.push({
      info: {
        id,
        sessionID: opts.sessionId,
        parentID,
        role: 'assistant',
        mode: agent,
        agent,
        path: { cwd: opts.cwd, root: opts.cwd },
        cost: 0,
        tokens: ZERO_TOKENS,
        modelID: opts.model.modelID,
        providerID: opts.model.providerID,
        time: { created, completed: created },
        finish: calls ? 'tool-calls' : 'stop',
        ...extra,
      },
      parts: withIds(id, [{ type: 'step-start' }, ...list, { type: 'step-finish', reason: calls ? 'tool-calls' : 'stop', tokens: ZERO_TOKENS, cost: 0 }]),
    });
  };

  const question = user([{ type: 'compaction', auto: false, overflow: false }]);
  assistant(question, [{ type: 'text', text: parts.summaryText }], { mode: 'compaction', agent: 'compaction', summary: true });

  let parent = question;
  const results = new Map<string, Message>();
  for (const m of parts.tail) if (m.toolResult) results.set(m.toolResult.toolCallId, m);
  let leftOut = 0;
  for (const m of parts.tail) {
    if (m.toolResult) continue;
    if (m.role === 'user') {
      // What the harness said (a "Continue…" opencode added) stays marked as its own.
      const list = contentParts(m).map((p) => (m.itemType === 'SKILL_METADATA' && p['type'] === 'text' ? { ...p, synthetic: true } : p));
      if (list.length > 0) parent = user(list);
      continue;
    }
    if (m.role !== 'assistant') {
      leftOut++;
      continue;
    }
    const list = contentParts(m);
    for (const call of m.toolCalls ?? []) list.push(toolPart(call, results.get(call.id), time()));
    if (list.length > 0) assistant(parent, list);
  }
  if (leftOut > 0) notes.push(`${leftOut} system message${leftOut === 1 ? '' : 's'} among the recent turns left out: opencode sends its own`);

  const created = opts.now.getTime();
  const info: OpencodeJson = {
    id: opts.sessionId,
    slug: `compacted-${opts.sessionId.slice(-6).toLowerCase()}`,
    projectID: 'global',
    directory: opts.cwd,
    title: opts.title,
    version: opts.version,
    time: { created, updated: created + tick },
    metadata: {
      [OPENCODE_PROVENANCE_FIELD]: {
        ...(opts.from?.sessionId ? { from: opts.from.sessionId } : {}),
        ...(opts.from?.file ? { file: opts.from.file } : {}),
        ...(opts.from?.tokensBefore !== undefined ? { tokensBefore: opts.from.tokensBefore } : {}),
        ...(opts.from?.tokensAfter !== undefined ? { tokensAfter: opts.from.tokensAfter } : {}),
        ...inheritedField(opts.from?.inherited),
      },
    },
  };
  const value = { info, messages };
  return { value, text: `${JSON.stringify(value, null, 2)}\n`, notes };
}

/** A message's text, thinking and attachments as opencode parts (an attachment as a placeholder). */
function contentParts(m: Message): OpencodeJson[] {
  const out: OpencodeJson[] = [];
  for (const c of m.content) {
    if (c.type === 'text' && c.text !== '') out.push({ type: 'text', text: c.text });
    else if (c.type === 'thinking' && c.text.trim() !== '' && m.role === 'assistant') out.push({ type: 'reasoning', text: c.text, time: { start: 0, end: 0 } });
    else if (c.type === 'image') out.push({ type: 'text', text: c.placeholder });
  }
  return out;
}

/** A tool call and its result as one opencode `tool` part. */
function toolPart(call: NonNullable<Message['toolCalls']>[number], result: Message | undefined, at: number): OpencodeJson {
  let input: unknown;
  try {
    input = JSON.parse(call.arguments);
  } catch {
    input = undefined;
  }
  const state = {
    input: typeof input === 'object' && input !== null && !Array.isArray(input) ? input : { arguments: call.arguments },
    time: { start: at, end: at },
  };
  const text = result ? messageText(result) : '';
  return {
    type: 'tool',
    tool: call.name,
    callID: call.id,
    state: result?.toolResult?.isError
      ? { status: 'error', ...state, error: text }
      : { status: 'completed', ...state, output: text, title: call.name, metadata: {} },
  };
}
