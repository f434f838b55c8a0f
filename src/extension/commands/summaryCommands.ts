// "Copy Summary": the current summary of a compacted conversation — or, before any compaction,
// the summary a compaction would write now (a dry run), e.g. to hand over to another tool.

import * as vscode from 'vscode';
import type { CommandDeps } from './commandDeps';
import { targetConversation } from './activeConversation';
import { previewWithProgress } from './compactCommand';
import { notificationText } from '../notificationText';

export async function copySummaryCommand(deps: CommandDeps, arg?: unknown): Promise<string | undefined> {
  const target = await targetConversation(deps.store, arg, deps.focus);
  if (!target) return undefined;
  let text = deps.store.summaryText(target.key);
  let fromPreview = false;
  if (text === undefined) {
    const preview = await previewWithProgress(deps, target);
    text = deps.engine.summaryText(preview.result.conversation);
    fromPreview = true;
  }
  if (!text) {
    void vscode.window.showInformationMessage(vscode.l10n.t('This conversation is too short to summarize.'));
    return undefined;
  }
  await vscode.env.clipboard.writeText(text);
  void vscode.window.showInformationMessage(
    fromPreview
      ? vscode.l10n.t('Copied the summary a compaction would write now (the conversation itself is unchanged).')
      : notificationText(vscode.l10n.t('Copied the summary of {0}.', target.label)),
  );
  return text;
}
