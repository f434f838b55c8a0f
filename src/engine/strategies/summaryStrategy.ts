// The 'summary' strategy: keep the header (system prompt, tool definitions, memory),
// the pinned messages and the most recent keepRecentRounds rounds verbatim; summarize the rest.
// When the recent rounds do not fit the room the budget leaves, fewer whole rounds are kept;
// when even the last round does not fit, its request is still kept verbatim (strategies/tail.ts
// does that for every strategy), with the most recent of its assistant and tool messages that fit
// — at least the last tool block with the thinking that led to it — and the messages between
// them summarized (the emergency level shortens what is still over, never the request). Each
// reduction is reported in the warnings.

import type { Message } from '../conversation/model';
import type { ToolBlock } from '../conversation/views';
import type { EngineWarning } from '../warnings';
import { plainDecision, type MessageDecision, type Strategy, type StrategyContext, type StrategyDecision } from './strategy';

/** A message that holds only the model's thinking (it belongs with what follows it). */
export function isThinkingOnly(m: Message): boolean {
  if (m.itemType === 'THINKING') return true;
  return m.role === 'assistant' && !m.toolCalls?.length && m.content.length > 0 && m.content.every((p) => p.type === 'thinking');
}

/** unsafe[c] is true when cutting before message c would split a tool block. */
export function unsafeCuts(n: number, blocks: readonly ToolBlock[]): boolean[] {
  const unsafe = new Array<boolean>(n + 1).fill(false);
  for (const b of blocks) for (let k = b.start + 1; k <= b.end && k <= n; k++) unsafe[k] = true;
  return unsafe;
}

/** Moves a cut earlier until it splits no tool block and leaves no thinking behind. */
export function settleCut(cut: number, messages: readonly Message[], blocks: readonly ToolBlock[], unsafe: readonly boolean[]): number {
  let c = cut;
  for (;;) {
    const before = c;
    while (c > 0 && isThinkingOnly(messages[c - 1]!)) c--;
    if (unsafe[c]) {
      for (const b of blocks) if (b.start < c && c <= b.end) c = Math.min(c, b.start);
    }
    if (c === before) return c;
  }
}

/** Why a header message (system prompt, tool definitions, memory) is kept: every strategy words it so. */
export function headerReason(m: Message): string {
  switch (m.itemType) {
    case 'SYSTEM_PROMPT':
      return 'system prompt (always kept)';
    case 'TOOL_DEFINITIONS':
      return 'tool definitions (always kept)';
    default:
      return 'memory (always kept)';
  }
}

export const summaryStrategy: Strategy = {
  name: 'summary',
  description:
    'Keep the system prompt, tool definitions, pinned messages and the most recent rounds verbatim; summarize everything older into the 8-section summary.',
  keeps: 'header, pinned, the most recent rounds (--keep-recent, default 2)',
  decide(ctx: StrategyContext): StrategyDecision {
    const { messages, tokens, rounds, toolBlocks } = ctx;
    const n = messages.length;
    const warnings: EngineWarning[] = [];
    const anyPinned = ctx.pinned.size > 0;
    const fixed = (i: number) => ctx.header.has(i) || (anyPinned && ctx.pinned.has(messages[i]!.id));
    // suffix[c] = tokens of the non-fixed messages from c to the end.
    const suffix = new Array<number>(n + 1).fill(0);
    for (let i = n - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! + (fixed(i) ? 0 : tokens[i]!);
    const unsafe = unsafeCuts(n, toolBlocks);
    const settle = (c: number) => settleCut(c, messages, toolBlocks, unsafe);
    const room = ctx.budget.keep;
    const k = Math.max(0, Math.floor(ctx.keepRecentRounds));

    let cut = n;
    if (rounds.length > 0 && k > 0) {
      const wanted = Math.min(k, rounds.length);
      const desired = settle(rounds[rounds.length - wanted]!.start);
      if (suffix[desired]! <= room) {
        cut = desired;
      } else {
        let found = false;
        for (let keep = wanted - 1; keep >= 1; keep--) {
          const c = settle(rounds[rounds.length - keep]!.start);
          if (suffix[c]! <= room) {
            cut = c;
            found = true;
            warnings.push({ code: 'fewerRounds', kept: keep, wanted, tokens: suffix[desired]!, room: Math.max(0, room) });
            break;
          }
        }
        if (!found) {
          // The most recent round alone is over the room. Its request stays verbatim (tail.ts
          // keeps the latest request whatever the strategy): of its assistant and tool parts, the
          // most recent that fit are kept — from the earliest safe cut that fits, but never past
          // the start of the last tool block (or the last message) — and the ones between are
          // summarized.
          const last = rounds[rounds.length - 1]!;
          const lastBlock = [...toolBlocks].reverse().find((b) => b.start >= last.start);
          const latest = settle(lastBlock ? lastBlock.start : Math.max(last.start, n - 1));
          let chosen = latest;
          for (let c = last.start + 1; c < latest; c++) {
            if (unsafe[c] || suffix[c]! > room) continue;
            const s = settle(c);
            if (suffix[s]! <= room) {
              chosen = s;
              break;
            }
          }
          cut = chosen;
          if (suffix[cut]! > room) {
            warnings.push({ code: 'lastKeptWhole', what: lastBlock ? 'toolBlock' : 'message', tokens: suffix[cut]!, room: Math.max(0, room) });
          } else {
            warnings.push({ code: 'partOfRound', messages: n - cut, tokens: suffix[settle(last.start)]!, room: Math.max(0, room) });
          }
        }
      }
    }

    const decisions: MessageDecision[] = messages.map((m, i) => {
      if (ctx.header.has(i)) return plainDecision('kept', headerReason(m));
      if (anyPinned && ctx.pinned.has(m.id)) return plainDecision('kept', 'pinned');
      // An earlier summary inside the kept round (after the request it kept) is merged all the same.
      if (m.itemType === 'COMPACTION_SUMMARY') return plainDecision('summarized', 'earlier summary, merged section by section');
      if (i >= cut) return plainDecision('kept', 'recent round');
      return plainDecision('summarized', 'older than the kept rounds');
    });
    return { decisions, warnings };
  },
};
