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
  const scan = toolBlockScan();
  advanceToolBlocks(scan, messages, 0);
  return scan.blocks;
}

/** The tool blocks of the messages scanned so far (advanceToolBlocks), for a conversation that
 *  grows at its end. */
export interface ToolBlockScan {
  blocks: ToolBlock[];
  /** The block each call id opened (the latest with that id), by its index in `blocks`. */
  byCallId: Map<string, number>;
}

export function toolBlockScan(): ToolBlockScan {
  return { blocks: [], byCallId: new Map() };
}

/** Scans messages[from…] into `scan` (those before `from` were scanned into it already). A block a
 *  new result answers is replaced by a copy, never changed: the blocks handed out before stay as
 *  they were, so a caller hands out `scan.blocks.slice()`. */
export function advanceToolBlocks(scan: ToolBlockScan, messages: readonly Message[], from: number): void {
  const { blocks, byCallId } = scan;
  for (let i = from; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.toolCalls && m.toolCalls.length > 0) {
      const callIds = m.toolCalls.map((c) => c.id);
      for (const id of callIds) byCallId.set(id, blocks.length);
      blocks.push({ assistantIndex: i, callIds, resultIndices: [], unanswered: callIds.slice(), start: i, end: i });
    } else if (m.toolResult) {
      const k = byCallId.get(m.toolResult.toolCallId);
      if (k === undefined) continue;
      const b = blocks[k]!;
      const id = m.toolResult.toolCallId;
      blocks[k] = { ...b, resultIndices: [...b.resultIndices, i], unanswered: b.unanswered.filter((u) => u !== id), end: Math.max(b.end, i) };
    }
  }
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
