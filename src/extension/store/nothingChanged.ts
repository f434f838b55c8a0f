// A compaction that changes nothing is not a step: nothing to undo, no "compacted" report; the
// user is told why, in the engine's words (its first warning), translated.

import * as vscode from 'vscode';
import { sameItems } from '../../engine/conversation/messageMemo';
import type { Conversation } from '../../engine/conversation/model';
import type { CompactionResult } from '../../engine/result';
import { localWarningText } from '../engineWarnings';
import { NothingToDoError } from '../log';

/** True when the engine left the conversation as it was (too short, everything kept). Kept
 *  messages are shared by reference with the input, so this is exact and cheap. */
export function compactionChangesNothing(before: Conversation, result: CompactionResult): boolean {
  const after = result.conversation.messages;
  return sameItems(after, before.messages);
}

/** Stops a compaction that would change nothing, with the engine's reason. */
export function throwIfNothingChanged(before: Conversation, result: CompactionResult): void {
  if (!compactionChangesNothing(before, result)) return;
  const first = result.warnings[0];
  throw new NothingToDoError(vscode.l10n.t('Nothing to compact: {0}', first ? localWarningText(first) : vscode.l10n.t('every message is kept as it is.')));
}
