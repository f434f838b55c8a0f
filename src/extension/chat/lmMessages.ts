// A (compacted) conversation as the messages a VS Code language model takes. vscode.lm has only
// user and assistant roles: system text and the compaction summary travel as user messages, tool
// traffic as text, and consecutive messages of one role are merged so the roles alternate.

import * as vscode from 'vscode';
import { messageText, type Message } from '../../engine/conversation/model';

type LmRole = 'user' | 'assistant';

function lmRole(m: Message): LmRole {
  return m.role === 'assistant' ? 'assistant' : 'user';
}

function lmText(m: Message): string {
  const text = messageText(m);
  if (m.toolCalls?.length) {
    const calls = m.toolCalls.map((c) => `[tool call ${c.name}] ${c.arguments}`).join('\n');
    return text ? `${text}\n${calls}` : calls;
  }
  if (m.toolResult) return `[tool result${m.toolResult.toolName ? ` ${m.toolResult.toolName}` : ''}]\n${text}`;
  return text;
}

export function toLanguageModelMessages(messages: readonly Message[]): vscode.LanguageModelChatMessage[] {
  const merged: { role: LmRole; text: string }[] = [];
  for (const m of messages) {
    const text = lmText(m);
    if (!text) continue;
    const role = lmRole(m);
    const last = merged.at(-1);
    if (last && last.role === role) last.text += `\n\n${text}`;
    else merged.push({ role, text });
  }
  return merged.map((m) => (m.role === 'user' ? vscode.LanguageModelChatMessage.User(m.text) : vscode.LanguageModelChatMessage.Assistant(m.text)));
}
