// The second alternative to compaction, "start a new session": the compacted conversation
// (summary + recent turns) as a Markdown handoff in a new untitled editor, and on the clipboard
// for pasting into a new chat. The handoff becomes the new session's first prompt, so what the
// old conversation says goes in as data: its label escaped, every message's text fenced
// (textAsData), so no line of it can pose as a heading, a link, an image or an instruction of the
// handoff itself.

import * as vscode from 'vscode';
import type { CompactionResult } from '../../engine/result';
import { escapeMarkdown } from '../../engine/text/markdownEscape';
import type { ActiveConversation } from '../conversationService';
import type { CommandDeps } from './commandDeps';
import { handoffMarkdown, type HandoffWords } from '../../sessions/handoff';

/** The words of a handoff in the UI's language. */
export function localHandoffWords(label: string): HandoffWords {
  return {
    heading: vscode.l10n.t('Handoff'),
    intro: vscode.l10n.t(
      'Continue from this handoff of an earlier conversation ({0}): a summary of what happened so far, then the most recent turns.',
      escapeMarkdown(label),
    ),
  };
}

export function handoffText(deps: Pick<CommandDeps, 'engine'>, target: ActiveConversation, preview: CompactionResult): string {
  return handoffMarkdown(target.label, localHandoffWords(target.label), deps.engine.exportConversation(preview.conversation, 'markdown', { textAsData: true }));
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
