// Conversation → Anthropic Messages request: {system?, messages, tools?}.
//
// The API wants one system prompt, strictly alternating user/assistant turns starting with the
// user, and tool results as tool_result blocks at the start of the user turn after the call. So:
// system-role messages before the first turn form `system` (a string, or text blocks when there
// are several parts); a system-role message later in the conversation travels as user text.
// Consecutive same-role messages merge into one turn (tool results merge into one user turn of
// tool_result blocks, and the user's text follows them). When the first turn would be the
// assistant's, a minimal placeholder user turn is inserted and a note says so. Thinking blocks are
// kept by default with their signatures (redacted ones as redacted_thinking); 'drop' leaves them
// out. Images are not carried by the model: they export as a text placeholder.

import type { ContentPart, Conversation, Message, ToolCall } from '../model';

export interface AnthropicExportOptions {
  thinking?: 'keep' | 'drop';
  indent?: number;
}

export type AnthropicBlockOut =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string | { type: 'text'; text: string }[]; is_error?: boolean };

export interface AnthropicMessageOut {
  role: 'user' | 'assistant';
  content: AnthropicBlockOut[];
}

export interface AnthropicToolOut {
  name: string;
  description?: string;
  input_schema: unknown;
}

export interface AnthropicRequestOut {
  system?: string | { type: 'text'; text: string }[];
  messages: AnthropicMessageOut[];
  tools?: AnthropicToolOut[];
}

export interface AnthropicExport {
  request: AnthropicRequestOut;
  /** What had to change to make the request valid, for the person exporting. */
  notes: string[];
}

/** The text of the user turn inserted when a conversation would start with the assistant. */
export const PLACEHOLDER_USER_TEXT = '(The conversation continues from earlier messages.)';
/** Tools need a schema; a definition without one accepts any object. */
const ANY_OBJECT_SCHEMA = { type: 'object', properties: {} };

export function toAnthropicRequest(conv: Conversation, opts: AnthropicExportOptions = {}): AnthropicExport {
  const keepThinking = (opts.thinking ?? 'keep') === 'keep';
  const notes: string[] = [];
  const system: string[] = [];
  const tools: AnthropicToolOut[] = [];
  const turns: AnthropicMessageOut[] = [];
  let started = false;

  const push = (role: 'user' | 'assistant', blocks: AnthropicBlockOut[]) => {
    if (blocks.length === 0) return;
    started = true;
    const last = turns[turns.length - 1];
    if (last && last.role === role) {
      // Tool results must open the user turn: put them before any text already there.
      if (role === 'user' && blocks.every((b) => b.type === 'tool_result')) {
        const firstText = last.content.findIndex((b) => b.type !== 'tool_result');
        if (firstText >= 0) {
          last.content.splice(firstText, 0, ...blocks);
          return;
        }
      }
      last.content.push(...blocks);
    } else {
      turns.push({ role, content: blocks });
    }
  };

  for (const m of conv.messages) {
    if (m.itemType === 'TOOL_DEFINITIONS') {
      for (const d of m.toolDefinitions ?? [])
        tools.push({ name: d.name, ...(d.description !== undefined ? { description: d.description } : {}), input_schema: d.parameters ?? ANY_OBJECT_SCHEMA });
      continue;
    }
    if (m.toolResult) {
      const texts = textsOf(m.content);
      const block: AnthropicBlockOut = {
        type: 'tool_result',
        tool_use_id: m.toolResult.toolCallId,
        content: texts.length <= 1 ? (texts[0] ?? '') : texts.map((text) => ({ type: 'text' as const, text })),
      };
      if (m.toolResult.isError) block.is_error = true;
      push('user', [block]);
      continue;
    }
    if (m.role === 'system' && !started) {
      system.push(...textsOf(m.content));
      continue;
    }
    if (m.role === 'assistant') {
      push('assistant', assistantBlocks(m, keepThinking));
      continue;
    }
    push(
      'user',
      textsOf(m.content).map((text) => ({ type: 'text' as const, text })),
    );
  }

  if (turns.length > 0 && turns[0]!.role === 'assistant') {
    turns.unshift({ role: 'user', content: [{ type: 'text', text: PLACEHOLDER_USER_TEXT }] });
    notes.push('the conversation started with an assistant turn; a placeholder user turn was inserted before it');
  }
  const request: AnthropicRequestOut = { messages: turns };
  if (system.length === 1) request.system = system[0]!;
  else if (system.length > 1) request.system = system.map((text) => ({ type: 'text' as const, text }));
  if (tools.length > 0) request.tools = tools;
  // Put system first in the JSON, as people write it.
  const ordered: AnthropicRequestOut = {
    ...(request.system !== undefined ? { system: request.system } : {}),
    messages: request.messages,
    ...(request.tools ? { tools: request.tools } : {}),
  };
  return { request: ordered, notes };
}

export function exportAnthropic(conv: Conversation, opts: AnthropicExportOptions = {}): string {
  return JSON.stringify(toAnthropicRequest(conv, opts).request, null, opts.indent ?? 2);
}

function textsOf(parts: readonly ContentPart[]): string[] {
  const out: string[] = [];
  for (const p of parts) {
    if (p.type === 'text') out.push(p.text);
    else if (p.type === 'image') out.push(p.placeholder);
  }
  return out;
}

function assistantBlocks(m: Message, keepThinking: boolean): AnthropicBlockOut[] {
  const blocks: AnthropicBlockOut[] = [];
  for (const p of m.content) {
    if (p.type === 'text') blocks.push({ type: 'text', text: p.text });
    else if (p.type === 'image') blocks.push({ type: 'text', text: p.placeholder });
    else if (keepThinking) {
      if (p.redacted) blocks.push({ type: 'redacted_thinking', data: p.signature ?? '' });
      else blocks.push({ type: 'thinking', thinking: p.text, ...(p.signature !== undefined ? { signature: p.signature } : {}) });
    }
  }
  for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: toolInput(c) });
  return blocks;
}

/** Anthropic takes the input as an object: the arguments parsed, or kept whole under "arguments"
 *  when they are not a JSON object (OpenAI allows any string). */
function toolInput(c: ToolCall): unknown {
  try {
    const v: unknown = JSON.parse(c.arguments);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v;
  } catch {
    // fall through
  }
  return { arguments: c.arguments };
}
