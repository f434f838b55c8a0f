// Stage 2: the conversation, checked and measured once — per-message tokens, the analysis, the
// structure (rounds, tool blocks, header items) and what must stay verbatim (pins, inspector
// restores). Later stages read this and never recompute it.

import type { ConversationAnalysis } from '../analyze/analysis';
import { analyzeConversation } from '../analyze/analyzeConversation';
import { memoSlot, type MessageMemo } from '../conversation/messageMemo';
import { isHeaderItem, messageText, type Conversation, type Message } from '../conversation/model';
import {
  advanceToolBlocks,
  blockIndexByMessage,
  computeRounds,
  computeToolBlocks,
  toolBlockScan,
  type Round,
  type ToolBlock,
  type ToolBlockScan,
} from '../conversation/views';
import type { CompactionEdits } from '../result';
import { withReplyPriming, type CachedTokenCounter } from '../tokens/messageCounter';
import { CompactionInputError, type ResolvedOptions } from './options';

export interface CompactionInput {
  conv: Conversation;
  messages: readonly Message[];
  counter: CachedTokenCounter;
  /** Tokens of each message, aligned with messages. */
  tokens: readonly number[];
  tokensBefore: number;
  analysis: ConversationAnalysis;
  rounds: readonly Round[];
  blocks: readonly ToolBlock[];
  blockOf: readonly (number | undefined)[];
  /** Indices of header items (system prompt, tool definitions, memory): always kept. */
  header: ReadonlySet<number>;
  /** Ids kept verbatim whatever the strategy says: pinned… */
  pinned: ReadonlySet<string>;
  /** …and restored in the inspector. */
  restored: ReadonlySet<string>;
  /** Both of the above. */
  keptAlways: ReadonlySet<string>;
  /** Tool results offloaded whatever the strategy says (the inspector's offload). */
  offload: ReadonlySet<string>;
}

const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant', 'tool']);

/** Checks `conv`. With a memo that checked the conversation before it grew at its end (the same
 *  message objects first), only the new messages are read. */
export function checkConversation(conv: Conversation, memo?: MessageMemo): void {
  if (conv === null || typeof conv !== 'object') throw new CompactionInputError('conversation: expected an object with a messages array');
  if (!Array.isArray(conv.messages)) throw new CompactionInputError('conversation.messages: expected an array of messages');
  const messages = conv.messages;
  const check = (ids: Set<string>, from: number) => {
    // The ids are kept only once every new message passed: a failed check keeps nothing.
    const added = new Set<string>();
    for (let i = from; i < messages.length; i++) {
      const m = messages[i]!;
      const at = `conversation.messages[${i}]`;
      if (m === null || typeof m !== 'object') throw new CompactionInputError(`${at}: expected a message object`);
      if (typeof m.id !== 'string' || !m.id) throw new CompactionInputError(`${at}: expected a non-empty string id`);
      if (ids.has(m.id) || added.has(m.id)) throw new CompactionInputError(`${at}: id '${m.id}' is used twice; expected unique message ids`);
      added.add(m.id);
      if (!ROLES.has(m.role)) throw new CompactionInputError(`${at} (id ${m.id}): expected role system|user|assistant|tool, got ${JSON.stringify(m.role)}`);
      if (!Array.isArray(m.content)) throw new CompactionInputError(`${at} (id ${m.id}): expected content to be an array of parts`);
      if (typeof m.itemType !== 'string') throw new CompactionInputError(`${at} (id ${m.id}): expected an itemType`);
    }
    for (const id of added) ids.add(id);
  };
  if (memo?.lasting) memo.resume(CHECKED_IDS, messages, () => new Set<string>(), check);
  else check(new Set(), 0);
}

/** The tool blocks of the messages measured last (measureInput). */
const TOOL_BLOCKS = memoSlot<ToolBlockScan>('input.toolBlocks');

/** The ids of the messages checked so far (checkConversation). */
const CHECKED_IDS = memoSlot<Set<string>>('input.checkedIds');

const PIN_TAG = /<pin>[\s\S]*?<\/pin>/i;
/** Whether a message's text holds a <pin>…</pin>. */
const PIN_TAGGED = memoSlot<boolean>('input.pinTagged');

/** The tokens of the messages counted so far, their sum, and the counter that counted them. */
interface TokenScan {
  counter: CachedTokenCounter;
  tokens: number[];
  sum: number;
}
const TOKENS = memoSlot<TokenScan>('input.tokens');

function advanceTokens(scan: TokenScan, messages: readonly Message[], from: number): TokenScan {
  for (let i = from; i < messages.length; i++) {
    const t = scan.counter.countMessage(messages[i]!);
    scan.tokens.push(t);
    scan.sum += t;
  }
  return scan;
}

/** The ids of the messages pinned by their flag or a <pin> tag, in order, scanned so far. */
const PINNED_IDS = memoSlot<string[]>('input.pinnedIds');

/** Adds to `ids` those of messages[from…] pinned by their flag or a <pin> tag; returns `ids`. */
function advancePinned(ids: string[], messages: readonly Message[], from: number, memo: MessageMemo): string[] {
  for (let i = from; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.pinned || memo.get(m, PIN_TAGGED, (x) => PIN_TAG.test(messageText(x)))) ids.push(m.id);
  }
  return ids;
}

/** Ids kept verbatim whatever the strategy says: pinned (flag, <pin>…</pin>, inspector pin),
 *  restored in the inspector, the messages after an `upTo`, and with `offloadOnly` every message
 *  not offloaded. */
function pinnedIds(
  messages: readonly Message[],
  edits: CompactionEdits | undefined,
  memo: MessageMemo,
): { pinned: Set<string>; restored: Set<string>; offload: Set<string> } {
  const unpin = new Set(edits?.unpin ?? []);
  const pinned = new Set<string>();
  // A conversation that grew at its end reads only its new messages for pins.
  const marked = memo.lasting
    ? memo.resume(
        PINNED_IDS,
        messages,
        (): string[] => [],
        (ids, from) => advancePinned(ids, messages, from, memo),
      )
    : advancePinned([], messages, 0, memo);
  for (const id of marked) if (!unpin.has(id)) pinned.add(id);
  for (const id of edits?.pin ?? []) pinned.add(id);
  const offload = new Set(edits?.offload ?? []);
  const restored = new Set((edits?.restore ?? []).filter((id) => !pinned.has(id)));
  if (edits?.upTo !== undefined) {
    const at = messages.findIndex((m) => m.id === edits.upTo);
    if (at < 0) throw new CompactionInputError(`edits.upTo: no message has the id '${edits.upTo.slice(0, 80)}'`);
    for (const m of messages.slice(at + 1)) if (!pinned.has(m.id)) restored.add(m.id);
  }
  if (edits?.offloadOnly) for (const m of messages) if (!offload.has(m.id) && !pinned.has(m.id)) restored.add(m.id);
  for (const id of offload) restored.delete(id);
  return { pinned, restored, offload };
}

export function headerIndices(messages: readonly Message[]): Set<number> {
  const header = new Set<number>();
  messages.forEach((m, i) => {
    if (isHeaderItem(m)) header.add(i);
  });
  return header;
}

/** The conversation measured: tokens, analysis, structure, pins. Expects a checked conversation. */
export function measureInput(conv: Conversation, options: ResolvedOptions): CompactionInput {
  const messages = conv.messages;
  const counter = options.counter;
  // A conversation that grew at its end counts only its new messages (with the same counter).
  const memo = options.cache.messages;
  const counted = memo.lasting
    ? memo.resume(
        TOKENS,
        messages,
        () => ({ counter, tokens: [], sum: 0 }),
        (state, from) => advanceTokens(state, messages, from),
        (state) => state.counter === counter,
      )
    : advanceTokens({ counter, tokens: [], sum: 0 }, messages, 0);
  const tokens = memo.lasting ? counted.tokens.slice() : counted.tokens;
  const sum = counted.sum;
  // countMessages(messages), from the counts in hand (not 200,000 cache look-ups again).
  const tokensBefore = withReplyPriming(sum, tokens.length);
  const analysis = analyzeConversation(messages, {
    ...(options.focus !== undefined ? { focus: options.focus } : {}),
    constants: options.limits.analyze,
    memo: options.cache.messages,
  });
  // A conversation that grew at its end scans only its new messages for tool blocks.
  const blocks = memo.lasting
    ? memo.resume(TOOL_BLOCKS, messages, toolBlockScan, (scan, from) => advanceToolBlocks(scan, messages, from)).blocks.slice()
    : computeToolBlocks(messages);
  const { pinned, restored, offload } = pinnedIds(messages, options.edits, options.cache.messages);
  return {
    conv,
    messages,
    counter,
    tokens,
    tokensBefore,
    analysis,
    rounds: computeRounds(messages),
    blocks,
    blockOf: blockIndexByMessage(messages, blocks),
    header: headerIndices(messages),
    pinned,
    restored,
    keptAlways: new Set([...pinned, ...restored]),
    offload,
  };
}
