// "Show Context Usage": what fills the active conversation, by category, in a Quick Pick, with
// the next steps (compact, inspect) as items.

import * as vscode from 'vscode';
import { COMMANDS } from '../ids';
import { breakdownRows, groupedNumber, methodLabel } from '../meter/meterText';
import { contextPressure } from '../trigger';
import type { CommandDeps } from './commandDeps';
import { targetConversation } from './activeConversation';

/** Width of the proportion bar in the usage list. */
const BAR_WIDTH = 20;

/** A row's share as a bar; a negative row (the file holds more than the agent sent) is empty. */
function bar(part: number, total: number): string {
  const filled = total > 0 ? Math.min(BAR_WIDTH, Math.max(0, Math.round((part / total) * BAR_WIDTH))) : 0;
  return '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
}

interface UsageItem extends vscode.QuickPickItem {
  run?: string;
}

export async function usageCommand(deps: CommandDeps, arg?: unknown): Promise<void> {
  const target = await targetConversation(deps.store, arg, deps.focus);
  if (!target) return;
  const { report } = target;
  const settings = deps.settings.current;
  const pressure = contextPressure(report, settings.triggerRatio);
  const items: UsageItem[] = breakdownRows(report).map((row) => ({
    label: row.label,
    description: vscode.l10n.t('{0} tokens · {1}', groupedNumber(row.tokens), row.share),
    detail: bar(row.tokens, report.total),
  }));
  items.push(
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    {
      label: `$(info) ${vscode.l10n.t('Model: {0} · window {1} · count: {2}', report.model, groupedNumber(report.window), methodLabel(report))}`,
      detail: vscode.l10n.t(
        'Compaction is proposed at {0}% ({1} tokens). Compactions so far: {2}.',
        Math.round(settings.triggerRatio * 100),
        groupedNumber(pressure.thresholdTokens),
        target.compactions,
      ),
    },
    { label: `$(fold) ${vscode.l10n.t('Compact Conversation…')}`, run: COMMANDS.compact },
    { label: `$(preview) ${vscode.l10n.t('Inspect Conversation')}`, run: COMMANDS.inspect },
  );
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t(
      'Context usage — {0}: {1} / {2} tokens ({3}%)',
      target.label,
      groupedNumber(report.total),
      groupedNumber(report.window),
      report.percent.toFixed(1),
    ),
    placeHolder: vscode.l10n.t('What fills the context window, largest first'),
    matchOnDescription: true,
  });
  if (picked?.run) await vscode.commands.executeCommand(picked.run, target.key);
}
