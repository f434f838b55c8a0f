// The span being summarized, as compact text for the summarizer model: one block per
// message with its role, tool calls with their names and arguments, tool results under the
// tool's name. What a summary needs least is cut first and cut hardest: tool output and
// arguments keep their head and tail (errors tend to be at the end), thinking is short,
// what the user wrote is kept longest.

import { messageText, thinkingText, type Message } from '../conversation/model';
import type { TextCounter } from '../tokens/tokenCounter';

export interface SerializeLimits {
  /** Longest text kept per message of each kind, in tokens; longer text keeps head and tail. */
  userTokens: number;
  assistantTokens: number;
  thinkingTokens: number;
  toolArgumentTokens: number;
  toolResultTokens: number;
}

/** Block thresholds for tool arguments (500) and results (600); assistant and user
 *  text get far more room because intent and decisions live there. */
export const DEFAULT_SERIALIZE_LIMITS: SerializeLimits = {
  userTokens: 4_000,
  assistantTokens: 2_000,
  thinkingTokens: 300,
  toolArgumentTokens: 500,
  toolResultTokens: 600,
};

/** Share of a shortened text kept from its head; the rest comes from its tail. */
export const HEAD_SHARE = 2 / 3;

export interface SerializedMessage {
  /** Index in the span. */
  index: number;
  id: string;
  text: string;
  /** Tokens of `text`. */
  tokens: number;
  /** Tokens of the message's own text before shortening (what the summary replaces). */
  originalTokens: number;
  /** Index of the assistant message whose tool call this result answers, or whose calls it makes. */
  toolBlock?: number;
  /** A message a person typed. */
  userAuthored: boolean;
}

/** Shorten `text` to about `maxTokens`, keeping its head and tail and saying how much went. */
export function shortenToTokens(text: string, maxTokens: number, counter: TextCounter): string {
  const tokens = counter.count(text);
  if (tokens <= maxTokens) return text;
  const keepChars = Math.max(0, Math.floor((text.length * maxTokens) / tokens));
  const headChars = Math.floor(keepChars * HEAD_SHARE);
  const tailChars = keepChars - headChars;
  const head = text.slice(0, headChars);
  const tail = tailChars > 0 ? text.slice(text.length - tailChars) : '';
  const omitted = Math.max(1, tokens - counter.count(head) - counter.count(tail));
  return `${head}\n[… ${omitted} tokens omitted …]\n${tail}`;
}

function roleLabel(m: Message, toolName?: string): string {
  if (m.toolResult) {
    const name = m.toolResult.toolName ?? toolName;
    return `tool result${name ? `: ${name}` : ''}${m.toolResult.isError ? ' (error)' : ''}`;
  }
  switch (m.itemType) {
    case 'COMPACTION_SUMMARY':
      return 'earlier summary';
    case 'SYSTEM_PROMPT':
      return 'system';
    case 'TOOL_DEFINITIONS':
      return 'tool definitions';
    case 'MEMORY':
      return 'memory';
    default:
      return m.role;
  }
}

function limitFor(m: Message, limits: SerializeLimits): number {
  if (m.toolResult) return limits.toolResultTokens;
  if (m.itemType === 'USER_MESSAGE' || m.itemType === 'COMPACTION_SUMMARY') return limits.userTokens;
  return limits.assistantTokens;
}

function originalTokensOf(m: Message, counter: TextCounter): number {
  let n = counter.count(messageText(m)) + counter.count(thinkingText(m));
  for (const c of m.toolCalls ?? []) n += counter.count(c.name) + counter.count(c.arguments);
  return n;
}

export function serializeMessage(
  m: Message,
  index: number,
  counter: TextCounter,
  limits: SerializeLimits = DEFAULT_SERIALIZE_LIMITS,
  /** The name of the tool whose call a result answers, when the result does not say. */
  toolName?: string,
): SerializedMessage {
  const lines: string[] = [`[${roleLabel(m, toolName)}]`];
  const thinking = thinkingText(m);
  if (thinking) lines.push(`(thinking) ${shortenToTokens(thinking, limits.thinkingTokens, counter)}`);
  let body = '';
  for (const p of m.content) {
    if (p.type === 'text') body = body ? `${body}\n${p.text}` : p.text;
    else if (p.type === 'image') body = body ? `${body}\n[image: ${p.placeholder}]` : `[image: ${p.placeholder}]`;
  }
  if (body) lines.push(shortenToTokens(body, limitFor(m, limits), counter));
  for (const c of m.toolCalls ?? []) lines.push(`→ ${c.name}(${shortenToTokens(c.arguments, limits.toolArgumentTokens, counter)})`);
  const text = lines.join('\n');
  return {
    index,
    id: m.id,
    text,
    tokens: counter.count(text),
    originalTokens: originalTokensOf(m, counter),
    userAuthored: m.itemType === 'USER_MESSAGE' && m.toolResult === undefined,
  };
}

/** Every message of the span, serialized, with tool results tied to the call that made them. */
export function serializeSpan(messages: readonly Message[], counter: TextCounter, limits: SerializeLimits = DEFAULT_SERIALIZE_LIMITS): SerializedMessage[] {
  const callOwner = new Map<string, { index: number; name: string }>();
  const out: SerializedMessage[] = [];
  messages.forEach((m, i) => {
    const owner = m.toolResult ? callOwner.get(m.toolResult.toolCallId) : undefined;
    const s = serializeMessage(m, i, counter, limits, owner?.name);
    if (m.toolCalls?.length) {
      s.toolBlock = i;
      for (const c of m.toolCalls) callOwner.set(c.id, { index: i, name: c.name });
    } else if (owner) {
      s.toolBlock = owner.index;
    }
    out.push(s);
  });
  return out;
}

/** The serialized messages as one transcript. */
export function joinTranscript(parts: readonly SerializedMessage[]): string {
  return parts.map((p) => p.text).join('\n\n');
}
