// Is a message list something the chat APIs accept? The compactor checks every result with
// this, and the tests check it on random conversations.
//
// Checked as the exporters send it: consecutive assistant messages (text, thinking, tool calls
// split over several entries, as Claude Code writes one response) form one assistant turn, and
// consecutive tool results form one turn of results; the exporters merge such runs. Rules:
//   • every tool call of an assistant turn is answered by exactly one result in the run of tool
//     results that directly follows that turn (OpenAI: tool messages right after the call;
//     Anthropic: tool_result blocks in the next user turn);
//   • no orphan results: a result answers a call of the assistant turn just before it;
//   • tool call ids are unique;
//   • Anthropic only: system messages come first (they become the top-level system prompt), the
//     first other message is the user's, and no user or assistant message is empty.

import type { Message } from './model';

export type ApiTarget = 'openai' | 'anthropic';

export type ApiShapeProblemKind =
  | 'unanswered-call'
  | 'orphan-result'
  | 'duplicate-result'
  | 'duplicate-call-id'
  | 'result-not-after-call'
  | 'system-position'
  | 'first-not-user'
  | 'empty-message'
  | 'role-mismatch';

export interface ApiShapeProblem {
  index: number;
  id: string;
  kind: ApiShapeProblemKind;
  /** Which API rejects it ('both' for the pairing rules). */
  api: ApiTarget | 'both';
  message: string;
}

export interface ApiShapeReport {
  ok: boolean;
  problems: ApiShapeProblem[];
}

export interface ApiShapeOptions {
  /** Which APIs to check for; default both. */
  targets?: readonly ApiTarget[];
}

function isEmpty(m: Message): boolean {
  if ((m.toolCalls?.length ?? 0) > 0 || m.toolResult) return false;
  return !m.content.some((p) => (p.type === 'text' ? p.text.trim() !== '' : true));
}

export function validateApiShape(messages: readonly Message[], opts: ApiShapeOptions = {}): ApiShapeReport {
  const targets = new Set(opts.targets ?? ['openai', 'anthropic']);
  const problems: ApiShapeProblem[] = [];
  const add = (index: number, kind: ApiShapeProblemKind, api: ApiShapeProblem['api'], message: string) =>
    problems.push({ index, id: messages[index]?.id ?? '', kind, api, message });

  const seenCallIds = new Set<string>();
  /** Calls of the latest assistant turn still waiting for their result (id → message index). */
  let open = new Map<string, number>();
  /** Calls of the latest assistant turn already answered. */
  let answered = new Set<string>();
  /** Whether the previous message belonged to an assistant turn / a run of results. */
  let prev: 'assistant' | 'results' | 'other' = 'other';
  let seenNonSystem = false;

  const closeTurn = () => {
    for (const [id, at] of open) add(at, 'unanswered-call', 'both', `tool call ${id} has no result right after its assistant turn`);
    open = new Map();
    answered = new Set();
  };

  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.toolResult) {
      if (m.role !== 'tool') add(i, 'role-mismatch', 'both', `a tool result must have role 'tool', has '${m.role}'`);
      const id = m.toolResult.toolCallId;
      if (open.has(id)) {
        open.delete(id);
        answered.add(id);
      } else if (answered.has(id)) {
        add(i, 'duplicate-result', 'both', `tool call ${id} is answered twice`);
      } else if (seenCallIds.has(id)) {
        add(i, 'result-not-after-call', 'both', `the result for tool call ${id} does not directly follow its assistant turn`);
      } else {
        add(i, 'orphan-result', 'both', `tool result for ${id} answers no tool call`);
      }
      prev = 'results';
      seenNonSystem = true;
      continue;
    }
    if (m.role === 'assistant') {
      // A new assistant turn begins after anything but an assistant message.
      if (prev !== 'assistant') closeTurn();
      for (const c of m.toolCalls ?? []) {
        if (seenCallIds.has(c.id)) add(i, 'duplicate-call-id', 'both', `tool call id ${c.id} is used twice`);
        seenCallIds.add(c.id);
        open.set(c.id, i);
      }
      if (targets.has('anthropic') && !seenNonSystem) add(i, 'first-not-user', 'anthropic', "the first message after the system prompt must be the user's");
      if (targets.has('anthropic') && isEmpty(m) && i !== messages.length - 1)
        add(i, 'empty-message', 'anthropic', 'an assistant message needs non-empty content');
      prev = 'assistant';
      seenNonSystem = true;
      continue;
    }
    closeTurn();
    if ((m.toolCalls?.length ?? 0) > 0) add(i, 'role-mismatch', 'both', `only assistant messages carry tool calls, this one has role '${m.role}'`);
    if (m.role === 'tool') add(i, 'orphan-result', 'both', 'a tool message without a tool result id');
    if (m.role === 'system') {
      if (targets.has('anthropic') && seenNonSystem) add(i, 'system-position', 'anthropic', 'a system message after the conversation started');
    } else {
      if (targets.has('anthropic') && isEmpty(m)) add(i, 'empty-message', 'anthropic', `a ${m.role} message needs non-empty content`);
      seenNonSystem = true;
    }
    prev = 'other';
  }
  closeTurn();
  problems.sort((a, b) => a.index - b.index);
  const relevant = problems.filter((p) => p.api === 'both' || targets.has(p.api));
  return { ok: relevant.length === 0, problems: relevant };
}
