// Seed 003's first alternative when the user declines compaction and the conversation is over
// its limit: drop the oldest rounds, whole, until it fits. No summary is written; what is dropped
// stays in the archive, and undo brings it back like any compaction.

import { isHeaderItem, type Conversation, type Message } from '../../engine/conversation/model';
import { computeRounds } from '../../engine/conversation/views';
import type { TokenCounter } from '../../engine/tokens/tokenCounter';

export interface DropOldestResult {
  conversation: Conversation;
  droppedMessages: number;
  droppedRounds: number;
  tokensBefore: number;
  tokensAfter: number;
  /** False when even the newest round alone is over the target (it is kept anyway). */
  fits: boolean;
}

/** Drops whole rounds from the oldest on, never the last round, header items (system prompt,
 *  tool definitions, memory), summaries, or a round holding a pinned message, until the
 *  conversation is at most `targetTokens`. Rounds are whole, so tool blocks are never split. */
export function dropOldestRounds(conversation: Conversation, counter: TokenCounter, targetTokens: number): DropOldestResult {
  const messages = conversation.messages;
  const tokensBefore = counter.countMessages(messages);
  const rounds = computeRounds(messages);
  const dropped = new Set<number>();
  let total = tokensBefore;
  let droppedRounds = 0;
  for (let r = 0; r < rounds.length - 1 && total > targetTokens; r++) {
    const round = rounds[r]!;
    const indices: number[] = [];
    let keepRound = false;
    for (let i = round.start; i < round.end; i++) {
      const m = messages[i]!;
      if (isHeaderItem(m) || m.itemType === 'COMPACTION_SUMMARY') continue;
      if (m.pinned) keepRound = true;
      indices.push(i);
    }
    if (keepRound || indices.length === 0) continue;
    for (const i of indices) {
      dropped.add(i);
      total -= counter.countMessage(messages[i]!);
    }
    droppedRounds++;
  }
  const kept: Message[] = messages.filter((_, i) => !dropped.has(i));
  const tokensAfter = counter.countMessages(kept);
  return {
    conversation: { ...conversation, messages: kept },
    droppedMessages: dropped.size,
    droppedRounds,
    tokensBefore,
    tokensAfter,
    fits: tokensAfter <= targetTokens,
  };
}
