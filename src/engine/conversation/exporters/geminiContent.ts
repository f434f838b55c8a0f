// Recent turns as Gemini API content, for the sessions written back into Gemini CLI and Qwen Code
// (both store `{role: user|model, parts}`): a user message is a text part; an assistant message
// its text and a functionCall part per tool call (`args` the call's arguments parsed, an object);
// the results of a tool turn one user turn of functionResponse parts (`response.output`, or
// `response.error` for a failed call), named by their call. Thinking is left out: neither agent
// can send another model's thinking back, and their own is not needed to go on.

import { messageText, type Message } from '../model';

/** What the model answers after a compression summary, as Gemini CLI and Qwen Code write it. */
export const GEMINI_SUMMARY_ACK = 'Got it. Thanks for the additional context!';

export interface GeminiTurn {
  role: 'user' | 'model';
  /** 'result': a user turn of tool results only. */
  kind: 'user' | 'model' | 'result';
  parts: Record<string, unknown>[];
  /** The message it came from (the first, for merged results). */
  from: Message;
}

export interface GeminiTurns {
  turns: GeminiTurn[];
  /** Thinking parts left out. */
  droppedThinking: number;
}

/** A call's arguments as the object Gemini's functionCall.args holds (anything else under `input`). */
function argsObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
    return { input: v };
  } catch {
    return { input: text };
  }
}

function textOf(m: Message): string {
  return m.content
    .map((p) => (p.type === 'text' ? p.text : p.type === 'image' ? p.placeholder : ''))
    .filter((t) => t !== '')
    .join('\n');
}

export function geminiTurns(tail: readonly Message[]): GeminiTurns {
  const turns: GeminiTurn[] = [];
  const names = new Map<string, string>();
  let droppedThinking = 0;
  for (const m of tail) {
    if (m.toolResult) {
      const name = m.toolResult.toolName ?? names.get(m.toolResult.toolCallId) ?? 'tool';
      const out = textOf(m);
      const part = { functionResponse: { id: m.toolResult.toolCallId, name, response: m.toolResult.isError ? { error: out } : { output: out } } };
      const last = turns[turns.length - 1];
      if (last?.kind === 'result') last.parts.push(part);
      else turns.push({ role: 'user', kind: 'result', parts: [part], from: m });
      continue;
    }
    if (m.role === 'assistant') {
      droppedThinking += m.content.filter((p) => p.type === 'thinking').length;
      const parts: Record<string, unknown>[] = [];
      const text = textOf(m);
      if (text !== '') parts.push({ text });
      for (const c of m.toolCalls ?? []) {
        names.set(c.id, c.name);
        parts.push({ functionCall: { id: c.id, name: c.name, args: argsObject(c.arguments) } });
      }
      if (parts.length > 0) turns.push({ role: 'model', kind: 'model', parts, from: m });
      continue;
    }
    const text = m.role === 'system' ? messageText(m) : textOf(m);
    if (text.trim() !== '') turns.push({ role: 'user', kind: 'user', parts: [{ text }], from: m });
  }
  return { turns, droppedThinking };
}

/** "2 thinking blocks … left out" for the notes, when any were. */
export function droppedThinkingNote(n: number, agent: string): string[] {
  return n > 0 ? [`${n} thinking block${n === 1 ? '' : 's'} left out (${agent} does not send another model's thinking back)`] : [];
}
