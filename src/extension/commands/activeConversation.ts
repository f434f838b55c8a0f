// The conversation a palette command acts on: the one passed as an argument (chat buttons,
// tooltips), else the active one — the session the meter glances at once it is counted —; with
// none, the user is told how to get one.

import * as vscode from 'vscode';
import type { ActiveConversation } from '../conversationService';
import type { ConversationStore } from '../conversationStore';
import { COMMANDS } from '../ids';
import type { MeterFocus } from '../meter/meterFocus';

export async function targetConversation(
  store: ConversationStore,
  arg: unknown,
  focus?: Pick<MeterFocus, 'glance' | 'settled'>,
): Promise<ActiveConversation | undefined> {
  const fromArg = typeof arg === 'string' ? store.get(arg) : undefined;
  let target = fromArg ?? store.active();
  const glance = focus?.glance;
  if (!target && glance) {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading {0}…', glance.label) }, () => focus.settled());
    target = store.active();
  }
  if (target) return target;
  const open = vscode.l10n.t('Open Transcript…');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('No conversation is active. Open a transcript file, or talk to @compactor in the chat.'),
    open,
  );
  if (choice === open) await vscode.commands.executeCommand(COMMANDS.openTranscript);
  return undefined;
}
