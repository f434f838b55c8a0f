// The seam between the extension's features (status bar, commands, chat participant,
// inspector panel) and the conversations it knows. Implemented by conversationStore.ts.

import type * as vscode from 'vscode';
import type { Conversation } from '../engine/conversation/model';
import type { CompactionEdits, CompactionResult } from '../engine/result';
import type { TokenReport } from '../engine/tokens/report';
import type { CompactionRun } from '../sessions/compactionService';

/** A compaction (previewed or applied) with its figures: before → after as the agent will send
 *  them, the numbers every surface shows (src/engine/figures.ts). */
export type Compaction = Pick<CompactionRun, 'result' | 'figures' | 'inherited'>;

export interface ActiveConversation {
  /** Stable key: the transcript's URI string, or `chat:<sessionId>` for a chat participant session. */
  key: string;
  /** What the user sees: file name or chat title. */
  label: string;
  kind: 'transcript' | 'chat';
  /** The conversation as it stands now (compacted when a compaction was applied). */
  conversation: Conversation;
  report: TokenReport;
  /** The last applied compaction, when there is one. */
  lastResult?: CompactionResult;
  /** Compactions applied and not undone. */
  compactions: number;
  /** Model used for counting (the transcript's own, the chat model, or the setting). */
  model: string;
}

/** Extra inputs of a real compaction (all optional; added after the first version of this seam). */
export interface ApplyOptions {
  /** Free-text focus for the summary (`/compact focus on the auth bug`). */
  focus?: string;
  /** Phases of the work, for a progress notification. */
  onProgress?: (message: string) => void;
}

export interface ConversationService extends vscode.Disposable {
  readonly onDidChangeActive: vscode.Event<ActiveConversation | undefined>;
  /** Fires when the active conversation's content or counts change. */
  readonly onDidChange: vscode.Event<ActiveConversation>;
  active(): ActiveConversation | undefined;
  get(key: string): ActiveConversation | undefined;
  /** A dry run: what compaction would produce with these edits. Writes nothing. */
  preview(key: string, edits?: CompactionEdits, token?: vscode.CancellationToken): Promise<Compaction>;
  /** Compacts for real (re-validating the edits), archives the original, persists state. */
  apply(key: string, edits?: CompactionEdits, token?: vscode.CancellationToken, options?: ApplyOptions): Promise<Compaction>;
  /** Restores the state before the last applied compaction (for an agent session, switches back to
   *  the original the compaction was written from). False when there is nothing to undo. */
  undo(key: string): Promise<boolean>;
  /** Whether undo has something to undo for `key`. */
  canUndo(key: string): boolean;
}
