// Registers every palette command (and the internal ones buttons use), each run inside
// guarded(): a failure is one clear message plus a log entry, never an unhandled rejection.

import * as vscode from 'vscode';
import { COMMANDS, INTERNAL_COMMANDS } from '../ids';
import { guarded } from '../log';
import type { CommandDeps } from './commandDeps';
import { setApiKeyCommand } from './apiKeyCommand';
import { compactCommand, undoCommand } from './compactCommand';
import { exportCommand } from './exportCommand';
import { openTranscriptCommand } from './openTranscriptCommand';
import { selectSummarizerCommand } from './selectSummarizerCommand';
import { copySummaryCommand } from './summaryCommands';
import { usageCommand } from './usageCommand';
import { targetConversation } from './activeConversation';

async function inspectCommand(deps: CommandDeps, arg?: unknown): Promise<void> {
  const target = await targetConversation(deps.store, arg);
  if (!target) return;
  deps.store.setActive(target.key);
  await deps.inspector.show(target.key);
}

export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  const register = (id: string, action: string, fn: (...args: unknown[]) => Promise<unknown>) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, (...args: unknown[]) => guarded(deps.log, action, () => fn(...args))));

  register(COMMANDS.openTranscript, vscode.l10n.t('Open Transcript'), (arg) => openTranscriptCommand(deps, arg));
  register(COMMANDS.compact, vscode.l10n.t('Compact Conversation'), (arg) => compactCommand(deps, arg));
  register(COMMANDS.undo, vscode.l10n.t('Undo Last Compaction'), (arg) => undoCommand(deps, arg));
  register(COMMANDS.showUsage, vscode.l10n.t('Show Context Usage'), (arg) => usageCommand(deps, arg));
  register(COMMANDS.inspect, vscode.l10n.t('Inspect Conversation'), (arg) => inspectCommand(deps, arg));
  register(COMMANDS.export, vscode.l10n.t('Export Compacted Conversation'), (arg) => exportCommand(deps, arg));
  register(COMMANDS.copySummary, vscode.l10n.t('Copy Summary'), (arg) => copySummaryCommand(deps, arg));
  register(COMMANDS.setApiKey, vscode.l10n.t('Set API Key'), () => setApiKeyCommand(deps));
  register(COMMANDS.selectSummarizer, vscode.l10n.t('Select Summarizer and Model'), () => selectSummarizerCommand(deps));
  register(INTERNAL_COMMANDS.undoSession, vscode.l10n.t('Undo Last Compaction'), (arg) => undoCommand(deps, arg));
}
