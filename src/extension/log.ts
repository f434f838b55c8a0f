// The "Context Compactor" output channel and the guard every command handler runs in: a failure
// becomes one clear message for the user and a full entry in the log, never an exception
// escaping into the extension host.

import * as vscode from 'vscode';
import { OUTPUT_CHANNEL_NAME } from './ids';
import { notificationText } from './notificationText';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
  show(): void;
}

export function registerLog(context: vscode.ExtensionContext): Logger {
  const channel = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
  context.subscriptions.push(channel);
  return {
    info: (m) => channel.info(m),
    warn: (m) => channel.warn(m),
    error: (m, err) => channel.error(err === undefined ? m : `${m}\n${describeError(err, true)}`),
    show: () => channel.show(true),
  };
}

/** Raised for failures the user must see with exactly this text (no "failed:" prefix). */
export class UserFacingError extends Error {
  override readonly name = 'UserFacingError';
}

/** Not a failure: the request needs no work (e.g. nothing to compact). Shown as information. */
export class NothingToDoError extends UserFacingError {}

/** Cancellation by the user: the progress notification's Cancel, an AbortSignal, a CancellationToken. */
export function isCancellation(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'AbortError' || err.name === 'Canceled' || err instanceof vscode.CancellationError) return true;
  return (err as { kind?: unknown }).kind === 'cancelled';
}

/** The one line a person should read: TranscriptError and SummarizerError already carry one
 *  (file + position + expected; what to do about a key), anything else its message. */
export function userMessageOf(err: unknown): string {
  if (err instanceof Error) {
    const userMessage = (err as { userMessage?: unknown }).userMessage;
    if (typeof userMessage === 'string' && userMessage) return userMessage;
    return err.message.split('\n')[0] || err.name;
  }
  return String(err);
}

export function describeError(err: unknown, withStack = false): string {
  if (err instanceof Error) return withStack && err.stack ? err.stack : `${err.name}: ${err.message}`;
  return String(err);
}

/** Runs a command handler: cancellations are quiet, known errors show their own line, anything
 *  else is reported with a way to the log. Never rethrows. */
export async function guarded<T>(log: Logger, action: string, fn: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (isCancellation(err)) {
      log.info(`${action}: cancelled`);
      void vscode.window.showInformationMessage(vscode.l10n.t('Cancelled. Nothing was changed.'));
      return undefined;
    }
    if (err instanceof NothingToDoError) {
      log.info(`${action}: ${err.message}`);
      void vscode.window.showInformationMessage(notificationText(err.message));
      return undefined;
    }
    log.error(`${action} failed`, err);
    const known = err instanceof UserFacingError || (err instanceof Error && (err.name === 'TranscriptError' || err.name === 'SummarizerError'));
    const text = known ? userMessageOf(err) : vscode.l10n.t('{0} failed: {1}', action, userMessageOf(err));
    const showLog = vscode.l10n.t('Show Log');
    // Error messages quote transcripts, file names and servers: no link may come from them.
    void Promise.resolve(vscode.window.showErrorMessage(notificationText(text), showLog)).then((choice) => {
      if (choice === showLog) log.show();
    });
    return undefined;
  }
}
