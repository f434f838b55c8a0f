// The first alternative when the user declines compaction and the conversation is over its
// limit: drop the oldest rounds, whole, then the oldest steps, until it fits. No summary is
// written; what is dropped stays in the archive, and undo brings it back like any compaction.

import { isHeaderItem, isUserAuthored, type Conversation, type Message } from '../../engine/conversation/model';
import { computeRounds, type Round } from '../../engine/conversation/views';
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
 *  conversation is at most `targetTokens`; then, if that is not enough, the oldest assistant
 *  steps inside the remaining rounds (each with its tool results, so tool blocks are never
 *  split; the user messages that open rounds stay). */
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
  // Agent transcripts are often one long round (one task, hundreds of tool steps): when whole
  // rounds are not enough, drop the oldest steps inside the rounds that are left.
  if (total > targetTokens) dropOldestSteps(messages, rounds, dropped, counter, total, targetTokens);
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

/** A step: an assistant message and what follows it up to the next assistant or user-authored
 *  message — its tool results among them, so a tool block is never split. */
function stepsOf(messages: readonly Message[], round: Round): number[][] {
  const steps: number[][] = [];
  let current: number[] | undefined;
  for (let i = round.start; i < round.end; i++) {
    const m = messages[i]!;
    if (m.role === 'assistant') {
      current = [i];
      steps.push(current);
    } else if (current && !isUserAuthored(m)) current.push(i);
    else current = undefined;
  }
  return steps;
}

/** Drops steps oldest first, never the newest step, nor one holding a header item, a summary or
 *  a pinned message, until the total is at most `targetTokens`. */
function dropOldestSteps(
  messages: readonly Message[],
  rounds: readonly Round[],
  dropped: Set<number>,
  counter: TokenCounter,
  total: number,
  targetTokens: number,
): void {
  const steps = rounds.flatMap((round) => stepsOf(messages, round)).filter((step) => !step.some((i) => dropped.has(i)));
  for (let s = 0; s < steps.length - 1 && total > targetTokens; s++) {
    const step = steps[s]!;
    if (step.some((i) => isHeaderItem(messages[i]!) || messages[i]!.itemType === 'COMPACTION_SUMMARY' || messages[i]!.pinned)) continue;
    for (const i of step) {
      dropped.add(i);
      total -= counter.countMessage(messages[i]!);
    }
  }
}
