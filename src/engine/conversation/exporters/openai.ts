// Conversation → OpenAI Chat Completions request: {messages, tools?} (or the bare messages array).
//
// System-side items (system prompt, memory, skills on role 'system') → role 'system'; user-side
// items → role 'user'; tool results → role 'tool' with tool_call_id; assistant tool calls →
// tool_calls of type 'function'. TOOL_DEFINITIONS become `tools`. Content is a string when a
// message has one text part, an array of text parts when it has several (so a re-import gives the
// same parts back). Images are not carried by the model, so they export as a text placeholder.
// Thinking: dropped by default (the API does not take it back); 'text' keeps it as a
// `<thinking>` text part, 'field' as `reasoning_content` (DeepSeek-style servers).

import type { ContentPart, Conversation, Message, ToolDefinition } from '../model';

export interface OpenAIExportOptions {
  /** The bare messages array instead of {messages, tools}. */
  bare?: boolean;
  thinking?: 'drop' | 'text' | 'field';
  /** JSON indentation (default 2; 0 for one line). */
  indent?: number;
}

export interface OpenAIToolCallOut {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type OpenAIContentOut = string | { type: 'text'; text: string }[] | null;

export interface OpenAIMessageOut {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: OpenAIContentOut;
  name?: string;
  tool_calls?: OpenAIToolCallOut[];
  tool_call_id?: string;
  reasoning_content?: string;
}

export interface OpenAIToolOut {
  type: 'function';
  function: { name: string; description?: string; parameters?: unknown };
}

export interface OpenAIRequestOut {
  messages: OpenAIMessageOut[];
  tools?: OpenAIToolOut[];
}

export function toOpenAIRequest(conv: Conversation, opts: OpenAIExportOptions = {}): OpenAIRequestOut {
  const thinking = opts.thinking ?? 'drop';
  const messages: OpenAIMessageOut[] = [];
  const tools: OpenAIToolOut[] = [];
  for (const m of conv.messages) {
    if (m.itemType === 'TOOL_DEFINITIONS') {
      for (const d of m.toolDefinitions ?? []) tools.push(toolOut(d));
      continue;
    }
    if (m.toolResult) {
      messages.push({ role: 'tool', tool_call_id: m.toolResult.toolCallId, content: contentOut(m.content, 'drop') ?? '' });
      continue;
    }
    if (m.role === 'assistant') {
      const out: OpenAIMessageOut = { role: 'assistant', content: contentOut(m.content, thinking === 'text' ? 'text' : 'drop') };
      if (thinking === 'field') {
        const r = m.content
          .filter((p) => p.type === 'thinking' && !p.redacted)
          .map((p) => (p as { text: string }).text)
          .join('\n');
        if (r) out.reasoning_content = r;
      }
      if (m.toolCalls && m.toolCalls.length > 0) {
        out.tool_calls = m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
      }
      if (m.name) out.name = m.name;
      // A message that held only (dropped) thinking says nothing the API can take.
      if (out.content === null && !out.tool_calls && !out.reasoning_content) continue;
      messages.push(out);
      continue;
    }
    const out: OpenAIMessageOut = { role: m.role === 'system' ? 'system' : 'user', content: contentOut(m.content, 'drop') ?? '' };
    if (m.name) out.name = m.name;
    messages.push(out);
  }
  return tools.length > 0 ? { messages, tools } : { messages };
}

export function exportOpenAI(conv: Conversation, opts: OpenAIExportOptions = {}): string {
  const req = toOpenAIRequest(conv, opts);
  return JSON.stringify(opts.bare ? req.messages : req, null, opts.indent ?? 2);
}

function contentOut(parts: readonly ContentPart[], thinking: 'drop' | 'text'): OpenAIContentOut {
  const texts: string[] = [];
  for (const p of parts) {
    if (p.type === 'text') texts.push(p.text);
    else if (p.type === 'image') texts.push(p.placeholder);
    else if (thinking === 'text' && !p.redacted) texts.push(`<thinking>\n${p.text}\n</thinking>`);
  }
  if (texts.length === 0) return null;
  if (texts.length === 1) return texts[0]!;
  return texts.map((text) => ({ type: 'text' as const, text }));
}

function toolOut(d: ToolDefinition): OpenAIToolOut {
  const fn: OpenAIToolOut['function'] = { name: d.name };
  if (d.description !== undefined) fn.description = d.description;
  if (d.parameters !== undefined) fn.parameters = d.parameters;
  return { type: 'function', function: fn };
}

/** The messages as they would be sent (for callers that hold a Message[] rather than a Conversation). */
export function openAIMessages(messages: readonly Message[], opts: OpenAIExportOptions = {}): OpenAIMessageOut[] {
  return toOpenAIRequest({ id: '', format: 'compacted', messages: [...messages], meta: {} }, opts).messages;
}
