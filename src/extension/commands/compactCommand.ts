// "Compact Conversation": preview → confirmation → compaction under a cancellable progress
// notification, whose cancellation reaches the engine through an AbortSignal. The alternatives
// to compaction (drop the oldest messages, start a new session) run from the same confirmation.

import * as vscode from 'vscode';
import type { CompactionFigures } from '../../engine/figures';
import type { CompactionResult } from '../../engine/result';
import { confirmCompaction, type ConfirmationChoice } from '../compact/confirmCompaction';
import type { ActiveConversation, Compaction } from '../conversationService';
import { localWarningText } from '../engineWarnings';
import { ratioAndNotInFile } from '../figuresText';
import { throwIfNothingChanged } from '../store/nothingChanged';
import { NothingToDoError } from '../log';
import { contextPressure } from '../trigger';
import type { CommandDeps } from './commandDeps';
import { targetConversation } from './activeConversation';
import { openHandoff } from './handoff';
import { groupedNumber } from '../meter/meterText';
import { notificationText } from '../notificationText';

export type CompactOutcome =
  | { kind: 'compacted'; result: CompactionResult; figures: CompactionFigures }
  | { kind: 'inspecting' }
  | { kind: 'dropped'; tokensBefore: number; tokensAfter: number }
  | { kind: 'handoff' }
  | { kind: 'cancelled' };

/** A preview that ends within this long opens no notification: the dialog that follows it would
 *  open over a notification VS Code keeps on screen for at least PROGRESS_NOTIFICATION_MIN_MS. */
export const ESTIMATE_QUIET_MS = 1_000;
/** VS Code shows a progress notification for at least 800 ms whatever its task does; a little more,
 *  for the message to reach the workbench and the notification to close. */
export const PROGRESS_NOTIFICATION_MIN_MS = 900;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** A dry run: the status bar says it is under way; a long one gets a cancellable progress
 *  notification, which is closed before this resolves (the confirmation is never shown over it). */
export async function previewWithProgress(deps: CommandDeps, target: ActiveConversation): Promise<Compaction> {
  const title = vscode.l10n.t('Estimating the compaction of {0}…', target.label);
  const cts = new vscode.CancellationTokenSource();
  const running = deps.store.preview(target.key, undefined, cts.token);
  const status = vscode.window.setStatusBarMessage(`$(sync~spin) ${notificationText(title)}`, running);
  try {
    const quick = await Promise.race([running.then((c) => ({ c })), pause(ESTIMATE_QUIET_MS).then(() => undefined)]);
    if (quick) return quick.c;
    return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (_progress, token) => {
      const opened = Date.now();
      const cancel = token.onCancellationRequested(() => cts.cancel());
      try {
        const compaction = await running;
        await pause(PROGRESS_NOTIFICATION_MIN_MS - (Date.now() - opened));
        return compaction;
      } finally {
        cancel.dispose();
      }
    });
  } finally {
    status.dispose();
    cts.dispose();
  }
}

/** The compaction itself, cancellable; the result is applied only when it arrives whole. */
export function applyWithProgress(deps: CommandDeps, target: ActiveConversation, focus?: string): Thenable<Compaction> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Compacting {0}…', target.label), cancellable: true },
    (progress, token) =>
      deps.store.apply(target.key, undefined, token, {
        ...(focus ? { focus } : {}),
        onProgress: (message) => progress.report({ message }),
      }),
  );
}

/** The result in one sentence, with the compaction's figures (before → after as the agent will send
 *  them, the part not in the file named), as the confirmation said them. */
export function describeResult({ result, figures }: Pick<Compaction, 'result' | 'figures'>): string {
  return vscode.l10n.t(
    'Compacted: {0} → {1} tokens {2}, retention {3}% ({4}).',
    groupedNumber(figures.before.total),
    groupedNumber(figures.after.total),
    ratioAndNotInFile(figures),
    Math.round(result.loss.overallRetention * 100),
    result.loss.lossLevel,
  );
}

/** Tells the user what happened, with Undo and Inspect one click away. */
async function announce(deps: CommandDeps, key: string, compaction: Compaction): Promise<void> {
  const { result } = compaction;
  const undo = vscode.l10n.t('Undo');
  const inspect = vscode.l10n.t('Inspect');
  // The one note that matters most: an LLM summary that was not used, else the engine's first warning.
  const fallback = result.summarizer.fallbackReason;
  const first = result.warnings[0];
  const note = fallback
    ? vscode.l10n.t('The LLM summary was not used ({0}); the extractive summary was used instead.', fallback)
    : first
      ? localWarningText(first)
      : undefined;
  const described = describeResult(compaction);
  const text = note ? `${described} ${note}` : described;
  // The fallback reason and the warnings quote servers and models: no link may come from them.
  const choice = fallback
    ? await vscode.window.showWarningMessage(notificationText(text), undo, inspect)
    : await vscode.window.showInformationMessage(notificationText(text), undo, inspect);
  if (choice === undo) await deps.store.undo(key);
  else if (choice === inspect) await deps.inspector.show(key);
}

export async function compactConversationFlow(deps: CommandDeps, target: ActiveConversation, focus?: string): Promise<CompactOutcome> {
  const settings = deps.settings.current;
  // A summarizer that cannot be made (no API key, no language model) is reported before the
  // user is asked anything, not after they confirmed.
  if (settings.summarizer !== 'extractive') await deps.summarizers.create(settings);
  let choice: ConfirmationChoice = 'compact';
  let preview: Compaction | undefined;
  if (settings.requireConfirmation) {
    preview = await previewWithProgress(deps, target);
    const fresh = deps.store.get(target.key) ?? target;
    // Nothing to confirm when the compaction would leave the conversation as it is.
    throwIfNothingChanged(fresh.conversation, preview.result);
    const summarizer = deps.summarizers.describe(settings);
    const elsewhere = deps.store.applyElsewhere(target.key);
    choice = await confirmCompaction({
      label: fresh.label,
      report: fresh.report,
      preview,
      summarizer,
      summarizerIsLlm: settings.summarizer !== 'extractive',
      keepRecentRounds: settings.keepRecentRounds,
      ...(elsewhere ? { effect: elsewhere.effect } : {}),
      triggerRatio: settings.triggerRatio,
    });
  }
  switch (choice) {
    case 'cancel':
      return { kind: 'cancelled' };
    case 'inspect':
      await deps.inspector.show(target.key);
      return { kind: 'inspecting' };
    case 'dropOldest': {
      const pressure = contextPressure(target.report, settings.triggerRatio);
      const dropped = await deps.store.dropOldest(target.key, pressure.thresholdTokens);
      if (dropped.droppedMessages === 0) {
        throw new NothingToDoError(vscode.l10n.t('No message can be dropped: only the system prompt, pinned messages and the latest step are left.'));
      }
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Dropped the {0} oldest messages: {1} → {2} tokens. Undo Last Compaction brings them back.',
          dropped.droppedMessages,
          groupedNumber(dropped.tokensBefore),
          groupedNumber(dropped.tokensAfter),
        ),
      );
      return { kind: 'dropped', tokensBefore: dropped.tokensBefore, tokensAfter: dropped.tokensAfter };
    }
    case 'newSession':
      await openHandoff(deps, target, (preview ?? (await previewWithProgress(deps, target))).result);
      return { kind: 'handoff' };
    case 'compact': {
      const compaction = await applyWithProgress(deps, target, focus);
      // A compaction applied elsewhere (a new agent session) says what it wrote itself; Undo
      // would have nothing to undo here.
      if (!deps.store.applyElsewhere(target.key)) void announce(deps, target.key, compaction);
      return { kind: 'compacted', result: compaction.result, figures: compaction.figures };
    }
  }
}

export async function compactCommand(deps: CommandDeps, arg?: unknown): Promise<CompactOutcome | undefined> {
  const target = await targetConversation(deps.store, arg, deps.focus);
  if (!target) return undefined;
  return compactConversationFlow(deps, target);
}

export async function undoCommand(deps: CommandDeps, arg?: unknown): Promise<boolean> {
  const key = typeof arg === 'string' ? arg : deps.store.active()?.key;
  if (!key || !deps.store.canUndo(key)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Nothing to undo'));
    return false;
  }
  // A compaction written into an agent is undone (and said) by the sessions feature.
  if ((deps.store.get(key)?.compactions ?? 0) === 0) return deps.store.undo(key);
  const before = deps.store.get(key)!.report.total;
  const undone = await deps.store.undo(key);
  const after = deps.store.get(key)?.report.total ?? before;
  if (undone)
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Restored the conversation as it was before the last compaction: {0} → {1} tokens.', groupedNumber(before), groupedNumber(after)),
    );
  return undone;
}
