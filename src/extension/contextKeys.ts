// Context keys for `when` clauses (menus, keybindings): whether a conversation is active and
// whether it has something to undo.

import * as vscode from 'vscode';
import type { ConversationStore } from './conversationStore';
import { CONTEXT_KEYS } from './ids';

export function registerContextKeys(context: vscode.ExtensionContext, store: ConversationStore): void {
  let last = '';
  const update = () => {
    const active = store.active();
    const hasConversation = !!active;
    const canUndo = !!active && store.canUndo(active.key);
    const signature = `${hasConversation}/${canUndo}`;
    if (signature === last) return;
    last = signature;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.hasConversation, hasConversation);
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.canUndo, canUndo);
  };
  context.subscriptions.push(store.onDidChangeActive(update), store.onDidChange(update));
  update();
}
