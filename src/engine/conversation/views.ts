// Derived views over a message list: rounds and tool interaction blocks.
// Computed, never stored, so they cannot drift from the messages.

import { isHeaderItem, isUserAuthored, type Message } from './model';

/** A user turn and everything that follows it until the next user turn. Messages before the
 *  first user turn (other than header items) form a preamble round with `userIndex` -1. */
export interface Round {
  index: number;
  /** First message index (inclusive). */
  start: number;
  /** Last message index (exclusive). */
  end: number;
  /** Index of the user-authored message that opens it, or -1 for a preamble. */
  userIndex: number;
}

/** An assistant message with tool calls plus the messages carrying their results. */
export interface ToolBlock {
  assistantIndex: number;
  callIds: string[];
  /** Indices of the result messages, in order. */
  resultIndices: number[];
  /** Call ids that no result answers. */
  unanswered: string[];
  /** Smallest and largest index covered (assistant message through last result). */
  start: number;
  end: number;
}

export function computeRounds(messages: readonly Message[]): Round[] {
  const rounds: Round[] = [];
  let current: Round | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (isHeaderItem(m) && current === undefined) continue;
    if (isUserAuthored(m)) {
      if (current) current.end = i;
      current = { index: rounds.length, start: i, end: i + 1, userIndex: i };
      rounds.push(current);
    } else if (current === undefined) {
      current = { index: 0, start: i, end: i + 1, userIndex: -1 };
      rounds.push(current);
    } else {
      current.end = i + 1;
    }
  }
  return rounds;
}

export function computeToolBlocks(messages: readonly Message[]): ToolBlock[] {
  const blocks: ToolBlock[] = [];
  const byCallId = new Map<string, ToolBlock>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.toolCalls && m.toolCalls.length > 0) {
      const block: ToolBlock = {
        assistantIndex: i,
        callIds: m.toolCalls.map((c) => c.id),
        resultIndices: [],
        unanswered: [],
        start: i,
        end: i,
      };
      blocks.push(block);
      for (const c of m.toolCalls) byCallId.set(c.id, block);
    } else if (m.toolResult) {
      const block = byCallId.get(m.toolResult.toolCallId);
      if (block) {
        block.resultIndices.push(i);
        if (i > block.end) block.end = i;
      }
    }
  }
  for (const b of blocks) {
    const answered = new Set(b.resultIndices.map((i) => messages[i]!.toolResult!.toolCallId));
    b.unanswered = b.callIds.filter((id) => !answered.has(id));
  }
  return blocks;
}

/** For each message index, the tool block it belongs to (or undefined). */
export function blockIndexByMessage(messages: readonly Message[], blocks: readonly ToolBlock[]): (number | undefined)[] {
  const out: (number | undefined)[] = new Array(messages.length).fill(undefined);
  blocks.forEach((b, bi) => {
    out[b.assistantIndex] = bi;
    for (const r of b.resultIndices) out[r] = bi;
  });
  return out;
}
