// "Export Compacted Conversation": the current view (compacted or not) as Markdown, OpenAI JSON
// or Anthropic JSON, written atomically to a new file the user picks — never over the transcript.

import * as vscode from 'vscode';
import type { ExportFormat } from '../compactionEngine';
import { UserFacingError } from '../log';
import { writeUriAtomic } from '../persistence/atomicFile';
import type { CommandDeps } from './commandDeps';
import { targetConversation } from './activeConversation';
import { notificationText } from '../notificationText';
import { isAtomicWriteError } from '../../files/atomicWrite';

interface FormatItem extends vscode.QuickPickItem {
  format: ExportFormat;
  extension: string;
}

function formatItems(): FormatItem[] {
  return [
    {
      label: vscode.l10n.t('Markdown'),
      description: '.md',
      detail: vscode.l10n.t('A readable transcript: the summary, then the kept messages'),
      format: 'markdown',
      extension: 'md',
    },
    {
      label: vscode.l10n.t('OpenAI JSON'),
      description: '.json',
      detail: vscode.l10n.t('Chat Completions messages, ready to send'),
      format: 'openai',
      extension: 'json',
    },
    {
      label: vscode.l10n.t('Anthropic JSON'),
      description: '.json',
      detail: vscode.l10n.t('Messages API request body (system + messages)'),
      format: 'anthropic',
      extension: 'json',
    },
  ];
}

function baseNameWithoutExtension(path: string): string {
  const name = path.split('/').pop() ?? 'conversation';
  return name.replace(/(\.aider\.chat\.history\.md|\.traj\.json|\.[^.]+)$/i, '') || 'conversation';
}

/** Where the save dialog starts: beside the transcript, or in the first workspace folder. */
function defaultTarget(sourceUri: vscode.Uri | undefined, label: string, extension: string): vscode.Uri | undefined {
  const name = `${baseNameWithoutExtension(sourceUri?.path ?? label)}.compacted.${extension}`;
  if (sourceUri && sourceUri.scheme === 'file') return vscode.Uri.joinPath(sourceUri, '..', name);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder ? vscode.Uri.joinPath(folder, name) : undefined;
}

export async function exportCommand(deps: CommandDeps, arg?: unknown): Promise<vscode.Uri | undefined> {
  const target = await targetConversation(deps.store, arg, deps.focus);
  if (!target) return undefined;
  const picked = await vscode.window.showQuickPick(formatItems(), { title: vscode.l10n.t('Export {0} as…', target.label) });
  if (!picked) return undefined;
  const sourceUri = target.kind === 'transcript' ? vscode.Uri.parse(target.key) : undefined;
  const defaultUri = defaultTarget(sourceUri, target.label, picked.extension);
  const uri = await vscode.window.showSaveDialog({
    ...(defaultUri ? { defaultUri } : {}),
    saveLabel: vscode.l10n.t('Export'),
    filters: { [picked.label]: [picked.extension] },
  });
  if (!uri) return undefined;
  const replacesSource = () => new UserFacingError(vscode.l10n.t('Export writes a new file and never replaces the transcript itself. Choose another name.'));
  if (sourceUri && uri.toString() === sourceUri.toString()) throw replacesSource();
  const text = deps.engine.exportConversation(target.conversation, picked.format);
  try {
    // Also a symlink or a hard link to the transcript.
    await writeUriAtomic(uri, text, sourceUri ? [sourceUri] : []);
  } catch (e) {
    throw isAtomicWriteError(e) && e.failure === 'protected' ? replacesSource() : e;
  }
  deps.log.info(`exported ${target.label} (${picked.format}) to ${uri.toString()}`);
  const open = vscode.l10n.t('Open');
  void Promise.resolve(
    vscode.window.showInformationMessage(notificationText(vscode.l10n.t('Exported to {0}.', vscode.workspace.asRelativePath(uri))), open),
  ).then(async (choice) => {
    if (choice === open) await vscode.window.showTextDocument(uri);
  });
  return uri;
}
