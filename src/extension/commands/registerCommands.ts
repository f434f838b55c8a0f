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
  const target = await targetConversation(deps.store, arg, deps.focus);
  if (!target) return;
  deps.focus.show(target.key, 'inspect');
  await deps.inspector.show(target.key);
}

/** Pins the meter to a conversation (the one given, else the one it shows), or unpins it. */
function pinCommand(deps: CommandDeps, pin: boolean, arg?: unknown): void {
  if (!pin) return deps.focus.pin(undefined);
  const key = typeof arg === 'string' && deps.store.get(arg) ? arg : deps.store.active()?.key;
  if (!key) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The meter shows no conversation to pin.'));
    return;
  }
  deps.focus.pin(key);
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
  register(COMMANDS.pinMeter, vscode.l10n.t('Pin the Meter'), async (arg) => pinCommand(deps, true, arg));
  register(COMMANDS.unpinMeter, vscode.l10n.t('Unpin the Meter'), async () => pinCommand(deps, false));
  register(INTERNAL_COMMANDS.undoSession, vscode.l10n.t('Undo Last Compaction'), (arg) => undoCommand(deps, arg));
}
