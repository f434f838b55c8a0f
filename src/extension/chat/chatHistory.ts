// A chat session as a Conversation: ChatContext.history (this participant's turns only) becomes
// user and assistant messages; the participant's own slash commands (/usage, /compact, …) are
// bookkeeping, not conversation, and are left out.
//
// Session key: the stable chat API gives no session id, so a session is named by its first
// turn — a hash of the first request's prompt and command. Every later request of the same
// session sees that first turn at history[0], so the key is stable for the session's lifetime
// and across reloads. Two sessions opened with the very same first prompt share a key (and so a
// compaction state); the rebase check in the store (message ids at the compacted boundary) makes
// a diverging second session fall back to its own raw history rather than to a wrong summary.

import * as vscode from 'vscode';
import type { Conversation, Message } from '../../engine/conversation/model';
import { hash64, shortHash } from '../../engine/text/hash';
import { CHAT_COMMANDS } from '../ids';

/** How much of the first prompt names the session in the UI. */
const LABEL_PROMPT_CHARS = 40;

function isOwnCommand(command: string | undefined): boolean {
  return command !== undefined && (CHAT_COMMANDS as readonly string[]).includes(command);
}

export function sessionKeyOf(history: readonly unknown[], request: { prompt: string; command?: string | undefined }): string {
  const first = history.find((t): t is vscode.ChatRequestTurn => t instanceof vscode.ChatRequestTurn);
  const prompt = first ? first.prompt : request.prompt;
  const command = first ? first.command : request.command;
  return `chat:${hash64(`${command ?? ''}\u0000${prompt}`)}`;
}

export function sessionLabel(history: readonly unknown[], request: { prompt: string }): string {
  const first = history.find((t): t is vscode.ChatRequestTurn => t instanceof vscode.ChatRequestTurn);
  const text = (first?.prompt ?? request.prompt).replace(/\s+/g, ' ').trim();
  const short = text.length > LABEL_PROMPT_CHARS ? `${text.slice(0, LABEL_PROMPT_CHARS - 1)}…` : text;
  return vscode.l10n.t('Chat: {0}', short || vscode.l10n.t('(empty)'));
}

/** The answer text of a response turn: what the participant recorded in its result metadata
 *  (without its own notices), else the Markdown it streamed. */
export function responseText(turn: vscode.ChatResponseTurn): string {
  const recorded = (turn.result.metadata as { answer?: unknown } | undefined)?.answer;
  if (typeof recorded === 'string') return recorded;
  let out = '';
  for (const part of turn.response) {
    if (part instanceof vscode.ChatResponseMarkdownPart) out += part.value.value;
  }
  return out;
}

function message(index: number, role: 'user' | 'assistant', text: string): Message {
  return {
    id: `chat-${index}-${shortHash(`${role}\u0000${text}`)}`,
    role,
    itemType: role === 'user' ? 'USER_MESSAGE' : 'ASSISTANT_MESSAGE',
    content: [{ type: 'text', text }],
    source: { format: 'chat-participant', index },
  };
}

/** The session's conversation so far (not including the request being answered). */
export function historyConversation(history: readonly unknown[], key: string, model: string): Conversation {
  const messages: Message[] = [];
  let skipResponse = false;
  for (const turn of history) {
    if (turn instanceof vscode.ChatRequestTurn) {
      skipResponse = isOwnCommand(turn.command);
      if (skipResponse) continue;
      const text = turn.command ? `/${turn.command} ${turn.prompt}` : turn.prompt;
      messages.push(message(messages.length, 'user', text));
    } else if (turn instanceof vscode.ChatResponseTurn) {
      if (skipResponse || isOwnCommand(turn.command)) continue;
      const text = responseText(turn);
      if (text) messages.push(message(messages.length, 'assistant', text));
    }
  }
  return { id: key, format: 'chat-participant', messages, meta: { model } };
}
