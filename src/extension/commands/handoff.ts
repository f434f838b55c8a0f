// The second alternative to compaction, "start a new session": the compacted conversation
// (summary + recent turns) as a Markdown handoff in a new untitled editor, and on the clipboard
// for pasting into a new chat.

import * as vscode from 'vscode';
import type { CompactionResult } from '../../engine/result';
import type { ActiveConversation } from '../conversationService';
import type { CommandDeps } from './commandDeps';

export function handoffText(deps: Pick<CommandDeps, 'engine'>, target: ActiveConversation, preview: CompactionResult): string {
  const intro = vscode.l10n.t('Continue from this handoff of an earlier conversation ({0}): a summary of what happened so far, then the most recent turns.', target.label);
  return `# ${vscode.l10n.t('Handoff')}: ${target.label}\n\n${intro}\n\n${deps.engine.exportConversation(preview.conversation, 'markdown')}`;
}

export async function openHandoff(deps: CommandDeps, target: ActiveConversation, preview: CompactionResult): Promise<string> {
  const text = handoffText(deps, target, preview);
  const doc = await vscode.workspace.openTextDocument({ content: text, language: 'markdown' });
  await vscode.window.showTextDocument(doc, { preview: false });
  await vscode.env.clipboard.writeText(text);
  const hint =
    target.kind === 'chat'
      ? vscode.l10n.t('Start a new chat and paste the handoff (it is on the clipboard) as your first message.')
      : vscode.l10n.t('The handoff is open in a new editor and on the clipboard: start your new session with it.');
  void vscode.window.showInformationMessage(hint);
  return text;
}
