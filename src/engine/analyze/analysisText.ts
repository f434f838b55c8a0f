// The text the analyzers read from a message: what it says (text parts), what the model thought
// (thinking parts) and what it did (tool calls: name and argument values). Argument values are
// read from the parsed JSON so code inside them is real text, not "\n"-escaped.

import type { Message, ToolCall } from '../conversation/model';

/** Deepest nesting of tool-call arguments read (deeper values are rare and not worth the walk). */
const MAX_ARGUMENT_DEPTH = 6;

/** A tool call as text: its name, then its argument values. */
export function toolCallText(call: ToolCall): string {
  const args = toolCallArgumentText(call);
  return args ? `${call.name}\n${args}` : call.name;
}

/** Each string (number, boolean) argument value of a tool call on its own line; the raw
 *  arguments when they are not JSON. */
export function toolCallArgumentText(call: ToolCall): string {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return call.arguments;
  }
  const parts: string[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > MAX_ARGUMENT_DEPTH) return;
    if (typeof v === 'string') parts.push(v);
    else if (typeof v === 'number' || typeof v === 'boolean') parts.push(String(v));
    else if (Array.isArray(v)) for (const x of v) visit(x, depth + 1);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v as Record<string, unknown>)) visit(x, depth + 1);
  };
  visit(args, 0);
  return parts.join('\n');
}

/** Text, thinking and tool calls of a message, joined by newlines. */
export function analysisText(m: Message): string {
  const parts: string[] = [];
  for (const p of m.content) {
    if ((p.type === 'text' || p.type === 'thinking') && p.text) parts.push(p.text);
  }
  for (const call of m.toolCalls ?? []) parts.push(toolCallText(call));
  return parts.join('\n');
}
