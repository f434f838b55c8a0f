// The proposal for transcripts: when the active transcript reaches the trigger ratio of its
// window (opened that way, or grown there as an agent appends), a notification proposes
// compaction — once per crossing, so it never nags while the conversation stays above. The
// proposal only opens the usual confirmation; nothing is compacted without it. Chat sessions get
// their proposal inside the chat (chat/chatParticipant.ts).

import * as vscode from 'vscode';
import type { ActiveConversation, ConversationService } from '../conversationService';
import { COMMANDS } from '../ids';
import { Disposable } from '../lifecycle';
import type { SettingsStore } from '../settings';
import { contextPressure } from '../trigger';
import { notificationText } from '../notificationText';
import { groupedNumber } from '../meter/meterText';

export class CompactionProposal extends Disposable {
  /** Conversations proposed for since they last were under the trigger. */
  private readonly proposed = new Set<string>();

  constructor(
    service: ConversationService,
    private readonly settings: SettingsStore,
  ) {
    super();
    this._register(service.onDidChangeActive((c) => this.check(c)));
    this._register(service.onDidChange((c) => this.check(c)));
    this._register(settings.onDidChange(() => this.check(service.active())));
  }

  private check(conversation: ActiveConversation | undefined): void {
    if (!conversation || conversation.kind !== 'transcript') return;
    const settings = this.settings.current;
    const pressure = contextPressure(conversation.report, settings.triggerRatio);
    if (pressure.level !== 'trigger') {
      this.proposed.delete(conversation.key);
      return;
    }
    if (!settings.enabled || this.proposed.has(conversation.key)) return;
    this.proposed.add(conversation.key);
    void this.propose(conversation, Math.round(pressure.ratio * 100));
  }

  private async propose(conversation: ActiveConversation, percent: number): Promise<void> {
    const compact = vscode.l10n.t('Compact Conversation…');
    const inspect = vscode.l10n.t('Inspect Conversation');
    const choice = await vscode.window.showInformationMessage(
      notificationText(
        vscode.l10n.t(
          '{0} uses {1}% of its context window ({2} of {3} tokens). Compact it?',
          conversation.label,
          percent,
          groupedNumber(conversation.report.total),
          groupedNumber(conversation.report.window),
        ),
      ),
      compact,
      inspect,
    );
    if (choice === compact) await vscode.commands.executeCommand(COMMANDS.compact, conversation.key);
    else if (choice === inspect) await vscode.commands.executeCommand(COMMANDS.inspect, conversation.key);
  }
}

export function registerCompactionProposal(context: vscode.ExtensionContext, service: ConversationService, settings: SettingsStore): CompactionProposal {
  const proposal = new CompactionProposal(service, settings);
  context.subscriptions.push(proposal);
  return proposal;
}
