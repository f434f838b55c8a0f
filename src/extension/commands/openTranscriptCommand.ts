// "Open Transcript…": a Quick Pick of transcript-looking files in the workspace plus "Browse…";
// the pick is imported, opened in an editor and becomes the active conversation.

import * as vscode from 'vscode';
import { isListableTranscriptName, TRANSCRIPT_EXCLUDE, TRANSCRIPT_GLOBS } from '../transcripts/transcriptDetection';
import type { CommandDeps } from './commandDeps';

/** Enough for any real workspace's transcripts; more would make the pick slow to open. */
const MAX_LISTED_FILES = 2_000;

interface TranscriptItem extends vscode.QuickPickItem {
  uri?: vscode.Uri;
  browse?: boolean;
}

export async function listTranscriptFiles(): Promise<vscode.Uri[]> {
  if (!vscode.workspace.workspaceFolders?.length) return [];
  const found = await vscode.workspace.findFiles(`{${TRANSCRIPT_GLOBS.join(',')}}`, TRANSCRIPT_EXCLUDE, MAX_LISTED_FILES);
  const seen = new Set<string>();
  return found
    .filter((uri) => {
      const key = uri.toString();
      if (seen.has(key) || !isListableTranscriptName(uri.path)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}

function folderOf(uri: vscode.Uri): string {
  const rel = vscode.workspace.asRelativePath(uri, false);
  const slash = rel.lastIndexOf('/');
  return slash > 0 ? rel.slice(0, slash) : '';
}

export async function openTranscriptCommand(deps: CommandDeps, arg?: unknown): Promise<void> {
  let uri = arg instanceof vscode.Uri ? arg : undefined;
  if (!uri) {
    const files = await listTranscriptFiles();
    const items: TranscriptItem[] = files.map((f) => ({ label: f.path.split('/').pop() ?? f.path, description: folderOf(f), uri: f }));
    items.push({ label: vscode.l10n.t('Browse…'), browse: true, alwaysShow: true });
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Open Transcript'),
      placeHolder: vscode.l10n.t('A conversation transcript: Claude Code, OpenAI/Anthropic messages, Cline, aider, SWE-agent, VS Code chat export…'),
      matchOnDescription: true,
    });
    if (!picked) return;
    if (picked.browse) {
      const chosen = await vscode.window.showOpenDialog({
        canSelectMany: false,
        openLabel: vscode.l10n.t('Open Transcript'),
        filters: { [vscode.l10n.t('Transcripts')]: ['jsonl', 'json', 'traj', 'md'], [vscode.l10n.t('All files')]: ['*'] },
      });
      uri = chosen?.[0];
    } else uri = picked.uri;
  }
  if (!uri) return;
  await deps.tracker.open(uri);
}
