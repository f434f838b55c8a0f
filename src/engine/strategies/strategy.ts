// The plug-in seam for compaction strategies: a strategy looks at the conversation (messages,
// analysis, tokens, rounds, tool blocks, pins) and the budget, and decides each message's fate.
// The compactor does everything else — the summary of the messages a strategy hands it, the
// validation, the assembly, the archive — and enforces the invariants whatever a strategy says:
// header items and pinned messages are kept, a tool block is kept, summarized or dropped as a
// whole, and the result carries one COMPACTION_SUMMARY message.
// The strategies themselves are listed in registry.ts.

import type { ConversationAnalysis } from '../analyze/analysis';
import type { Message } from '../conversation/model';
import type { Round, ToolBlock } from '../conversation/views';
import type { MessageMemo } from '../conversation/messageMemo';
import type { CompactionLimits } from '../limits';
import type { Decision, DegradationStep } from '../result';
import type { CachedTokenCounter } from '../tokens/messageCounter';
import type { EngineWarning } from '../warnings';

/** Token room for the strategy. */
export interface StrategyBudget {
  /** Target size of the whole result. */
  target: number;
  /** Room for the messages a strategy keeps besides header items and pinned messages (which
   *  are always kept and already subtracted), with the summary's share set aside. */
  keep: number;
  /** What the summary is expected to take (its share of the target). */
  summary: number;
}

export interface StrategyContext {
  messages: readonly Message[];
  analysis: ConversationAnalysis;
  counter: CachedTokenCounter;
  /** Tokens of each message (counter.countMessage), aligned with messages. */
  tokens: readonly number[];
  budget: StrategyBudget;
  keepRecentRounds: number;
  rounds: readonly Round[];
  toolBlocks: readonly ToolBlock[];
  /** For each message index, the index of its tool block in toolBlocks (or undefined). */
  blockOf: readonly (number | undefined)[];
  /** Ids of messages that must be kept verbatim (pinned, restored in the inspector). */
  pinned: ReadonlySet<string>;
  /** Header items (system prompt, tool definitions, memory): indices, always kept. */
  header: ReadonlySet<number>;
  level: string;
  focus: string | undefined;
  limits: CompactionLimits;
  /** Keeps what is made from one message alone (its collapsed repeats) for the next decision. */
  memo?: MessageMemo;
  /** An archive that outlives the compaction holds the original: only then may a shortened
   *  message point to it (default true). */
  archived?: boolean;
}

export interface MessageDecision {
  decision: Decision;
  /** One line: why. */
  reason: string;
  /** The message that takes this one's place, for truncated / masked / offloaded. It must keep
   *  the original's id, role, tool calls and tool result id, so pairing stays valid. */
  replacement?: Message;
}

export interface StrategyDecision {
  /** One per message, aligned with ctx.messages. */
  decisions: MessageDecision[];
  /** Message indices summarized into the one summary message (those with decision
   *  'summarized'), in order. Chunks (incremental summaries) are summarized one after the
   *  other, each merged onto the previous, into the same single summary. */
  chunks?: number[][];
  /** Where the summary goes: before the message at this index (default: before the first
   *  summarized message). */
  summaryBefore?: number;
  /** What a person should know (kept fewer rounds than asked, …). */
  warnings: EngineWarning[];
  /** Steps taken on the kept messages to meet the target (strategies/tail.ts). */
  degradation?: DegradationStep[];
}

export interface Strategy {
  name: string;
  description: string;
  /** One line: what it keeps verbatim (for `ctxc strategies`). */
  keeps?: string;
  decide(ctx: StrategyContext): StrategyDecision;
}

/** The most distinct reasons kept interned; past it the table starts afresh (a reason may name
 *  a message, so a long-lived host would otherwise keep every one it met). */
const PLAIN_MAX = 4096;
/** By decision, then by reason: the reason is looked up as it is (most callers pass the same
 *  string object for every message, whose hash the string keeps), never joined into a new key. */
const PLAIN = new Map<Decision, Map<string, MessageDecision>>();
let plainCount = 0;

/** The decision `decision` for `reason`, without a replacement: one frozen object per pair,
 *  shared by every message and every attempt it applies to (a plan of 200,000 messages would
 *  otherwise make one per message per attempt). Never changed: a decision is replaced, not
 *  edited. */
export function plainDecision(decision: Decision, reason: string): MessageDecision {
  let byReason = PLAIN.get(decision);
  if (byReason === undefined) PLAIN.set(decision, (byReason = new Map()));
  let d = byReason.get(reason);
  if (d === undefined) {
    if (plainCount >= PLAIN_MAX) {
      for (const m of PLAIN.values()) m.clear();
      plainCount = 0;
    }
    d = Object.freeze({ decision, reason }) as MessageDecision;
    byReason.set(reason, d);
    plainCount++;
  }
  return d;
}
