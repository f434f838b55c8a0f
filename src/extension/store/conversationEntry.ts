// One conversation the extension knows: its source (the imported transcript, or the messages
// built from the chat history), which the extension never modifies, the stack of applied steps,
// and the current view with its counts. The view is the last step's conversation plus whatever
// the source gained since that step; with no steps it is the source.

import type * as vscode from 'vscode';
import type { CompactionCache } from '../../engine/compaction/cache';
import type { Conversation, Message } from '../../engine/conversation/model';
import type { CompactionResult } from '../../engine/result';
import type { Calibration } from '../../engine/tokens/calibration';
import type { TokenLedger } from '../../engine/tokens/ledger';
import type { CachedTokenCounter } from '../../engine/tokens/messageCounter';
import type { TokenReport } from '../../engine/tokens/report';
import type { Compaction } from '../conversationService';
import type { PersistedStep } from '../persistence/conversationStateStore';

/** Counts a chat session with the chat model's own tokenizer (see chat/lmTokenCounter.ts). */
export type ReportProvider = (messages: readonly Message[]) => Promise<TokenReport>;

/** Where an applied compaction goes when it does not become a step of the conversation: an agent
 *  session stays as its agent wrote it, and the compaction becomes a new session the agent resumes
 *  (or a handoff prompt). The conversation, its count and its steps are left as they are. */
export interface ApplyElsewhere {
  /** What applying does, one sentence for the confirmation (it replaces the line about Undo). */
  effect: string;
  /** Takes the compaction once it is complete. */
  apply(compaction: Compaction, before: Conversation): Promise<void>;
}

export interface ConversationEntry {
  key: string;
  label: string;
  kind: 'transcript' | 'chat';
  uri?: vscode.Uri;
  /** The counting model. */
  model: string;
  source: Conversation;
  /** Applied steps, oldest first. */
  steps: PersistedStep[];
  current: Conversation;
  counter: CachedTokenCounter;
  /** What the plans of this conversation reuse: per-message work, and the last plan itself (the
   *  confirmation's preview is what Compact then applies when nothing changed in between). */
  cache: CompactionCache;
  ledger: TokenLedger;
  /** The overhead the source's reported usage shows, made once per reported figure (with `counter`). */
  calibration?: Calibration;
  /** The source's report, counted where the source was read (an agent session's one count). */
  sourceReport?: TokenReport;
  report: TokenReport;
  reportProvider?: ReportProvider;
  applyElsewhere?: ApplyElsewhere;
  lastResult?: CompactionResult;
  /** Serializes work on this conversation. */
  queue: Promise<unknown>;
}
