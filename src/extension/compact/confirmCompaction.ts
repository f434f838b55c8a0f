// The confirmation before a compaction (asked unless requireConfirmation is off): a modal that
// states tokens before → estimated after, the strategy, the summarizer and the expected
// retention, with "Compact", "Inspect First…" and (added by VS Code) "Cancel". Declining changes
// nothing. When the conversation no longer fits its window, the two alternatives to compaction
// are offered as well: drop the oldest messages, or start a new session with the summary as a
// handoff.
//
// Before and after are the compaction's figures (src/engine/figures.ts), what every surface shows:
// what the agent will send, the part the file does not hold (its system prompt and tools, which a
// compaction does not shrink) said beside the file's part. So "after" is compared with the same
// trigger the meter colours by.

import * as vscode from 'vscode';
import type { TokenReport } from '../../engine/tokens/report';
import type { Compaction } from '../conversationService';
import { partsLine } from '../figuresText';
import { groupedNumber } from '../meter/meterText';
import { contextPressure } from '../trigger';

export type ConfirmationChoice = 'compact' | 'inspect' | 'dropOldest' | 'newSession' | 'cancel';

export interface ConfirmationInput {
  label: string;
  report: TokenReport;
  /** The dry run the estimate comes from, with its figures. */
  preview: Compaction;
  /** What will write the summary (e.g. "extractive", "openai (gpt-4o-mini)"). */
  summarizer: string;
  /** True when the summary will come from an LLM, so the preview's figures are extractive estimates. */
  summarizerIsLlm: boolean;
  keepRecentRounds: number;
  /** What Compact does when it does not compact this conversation in place (an agent session:
   *  a new session is written, or a handoff made), said instead of the line about Undo; the
   *  alternatives to compaction are then not offered. */
  effect?: string;
  /** The share of the window at which compaction is proposed (the meter's trigger). */
  triggerRatio: number;
}

export function confirmationMessage(input: ConfirmationInput): { message: string; detail: string } {
  const { report } = input;
  const { result: preview, figures } = input.preview;
  const message = vscode.l10n.t(
    'Compact this conversation? {0} → {1} tokens (estimated)',
    groupedNumber(figures.before.total),
    groupedNumber(figures.after.total),
  );
  const retention = Math.round(preview.loss.overallRetention * 100);
  const lines = [
    vscode.l10n.t('Strategy: {0} · Summarizer: {1} · Expected retention: {2}% ({3})', preview.strategy, input.summarizer, retention, preview.loss.lossLevel),
    input.effect === undefined
      ? vscode.l10n.t(
          'Kept verbatim: the system prompt, tool definitions, pinned messages and the last {0} rounds. The original is archived; Undo Last Compaction restores it exactly.',
          input.keepRecentRounds,
        )
      : `${vscode.l10n.t('Kept verbatim: the system prompt, tool definitions, pinned messages and the last {0} rounds.', input.keepRecentRounds)} ${input.effect}`,
  ];
  if (input.summarizerIsLlm) lines.push(vscode.l10n.t('The figures are estimated with the extractive summarizer; the LLM summary may differ slightly.'));
  const parts = partsLine(figures);
  if (parts) lines.push(parts);
  if (preview.degradation.length > 0 && preview.target !== undefined) {
    // Engine sentences with counts only (no conversation text): what gave way to meet the target.
    lines.push(vscode.l10n.t('To fit the target of {0} tokens: {1}.', groupedNumber(preview.target), preview.degradation.map((d) => d.detail).join('; ')));
  }
  const threshold = contextPressure({ total: figures.after.total, window: figures.window }, input.triggerRatio);
  if (threshold.level === 'trigger') {
    lines.push(vscode.l10n.t('After compaction the conversation is still at or above the trigger ({0} tokens).', groupedNumber(threshold.thresholdTokens)));
  }
  if (offersAlternatives(input)) {
    lines.push(
      vscode.l10n.t(
        'This conversation is over its {0}-token window. You can also drop the oldest messages or start a new session from a summary.',
        String(report.window),
      ),
    );
  }
  return { message, detail: lines.join('\n') };
}

/** Drop the oldest and a new session are offered for a conversation over its window that is
 *  compacted in place. */
function offersAlternatives(input: ConfirmationInput): boolean {
  return input.effect === undefined && input.report.total > input.report.window;
}

/** Shows the modal and returns what the user chose (Escape and Cancel are 'cancel'). */
export async function confirmCompaction(input: ConfirmationInput): Promise<ConfirmationChoice> {
  const { message, detail } = confirmationMessage(input);
  const compact = vscode.l10n.t('Compact');
  const inspect = vscode.l10n.t('Inspect First…');
  const dropOldest = vscode.l10n.t('Drop Oldest Messages');
  const newSession = vscode.l10n.t('Start New Session…');
  const buttons = [compact, inspect];
  if (offersAlternatives(input)) buttons.push(dropOldest, newSession);
  const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons);
  switch (choice) {
    case compact:
      return 'compact';
    case inspect:
      return 'inspect';
    case dropOldest:
      return 'dropOldest';
    case newSession:
      return 'newSession';
    default:
      return 'cancel';
  }
}
