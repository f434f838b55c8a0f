// Counting messages as a chat API bills them, with a per-message cache so that appending a
// message costs only that message.
//
// Overhead (OpenAI's published accounting for chat models, applied to every model so counts
// are comparable): each message costs MESSAGE_OVERHEAD tokens on top of its content, a `name`
// costs NAME_OVERHEAD more, every tool call costs TOOL_CALL_OVERHEAD on top of its name and
// arguments, and a request is primed for the reply with REPLY_PRIMING tokens.

import type { ContentPart, Message } from '../conversation/model';
import { hash64 } from '../text/hash';
import { loadEncoding } from './encoders';
import { estimateCounter } from './estimate';
import { resolveModel, type ModelInfo, type ModelOverride } from './modelRegistry';
import { TOKEN_CATEGORIES, type MessageTokens, type TextCounter, type TokenCategory, type TokenCounter } from './tokenCounter';

export const MESSAGE_OVERHEAD = 3;
export const NAME_OVERHEAD = 1;
export const TOOL_CALL_OVERHEAD = 3;
export const REPLY_PRIMING = 3;
/** An image is billed by its size, which transcripts do not keep: count OpenAI's low-detail price. */
export const IMAGE_TOKENS = 85;
/** Message counts remembered by content, per cache generation (two are kept): far more
 *  messages than a status bar or a compaction revisits, a few MB at most. */
export const CONTENT_CACHE_GENERATION_ENTRIES = 20_000;

function mainCategory(m: Message): TokenCategory {
  switch (m.itemType) {
    case 'SYSTEM_PROMPT':
    case 'MEMORY':
    case 'SKILL_PROMPT':
    case 'SKILL_METADATA':
      return 'system';
    case 'TOOL_DEFINITIONS':
      return 'toolDefinitions';
    case 'USER_MESSAGE':
      return 'user';
    case 'ASSISTANT_MESSAGE':
      return 'assistant';
    case 'TOOL_RESULT':
      return 'toolResults';
    case 'COMPACTION_SUMMARY':
      return 'summary';
    case 'THINKING':
      return 'thinking';
  }
}

/** The key of a message's billable content: everything counted, nothing else. */
export function messageContentKey(m: Message): string {
  let key = `${m.itemType}\u0000${m.name ?? ''}\u0000`;
  for (const p of m.content) key += partKey(p);
  if (m.toolCalls) for (const c of m.toolCalls) key += `\u0002${c.name}\u0003${c.arguments}`;
  if (m.toolDefinitions) key += `\u0004${JSON.stringify(m.toolDefinitions)}`;
  return key;
}

/** Whether two messages are billed the same: equal in everything messageContentKey covers.
 *  Comparing strings directly runs at memory speed, far faster than hashing, so a
 *  re-imported copy of a long conversation is recognised cheaply. */
export function sameBilledContent(a: Message, b: Message): boolean {
  if (a === b) return true;
  if (a.itemType !== b.itemType || (a.name ?? '') !== (b.name ?? '') || a.content.length !== b.content.length) return false;
  for (let i = 0; i < a.content.length; i++) {
    const p = a.content[i]!;
    const q = b.content[i]!;
    if (p.type !== q.type) return false;
    if (p.type !== 'image' && p.text !== (q as typeof p).text) return false;
  }
  const ac = a.toolCalls ?? [];
  const bc = b.toolCalls ?? [];
  if (ac.length !== bc.length) return false;
  for (let i = 0; i < ac.length; i++) {
    if (ac[i]!.name !== bc[i]!.name || ac[i]!.arguments !== bc[i]!.arguments) return false;
  }
  if (!a.toolDefinitions && !b.toolDefinitions) return true;
  return !!a.toolDefinitions && !!b.toolDefinitions && JSON.stringify(a.toolDefinitions) === JSON.stringify(b.toolDefinitions);
}

function partKey(p: ContentPart): string {
  switch (p.type) {
    case 'text':
      return `\u0001t${p.text}`;
    case 'thinking':
      return `\u0001h${p.text}`;
    case 'image':
      return `\u0001i`;
  }
}

export class CachedTokenCounter implements TokenCounter {
  readonly encoding: TextCounter['encoding'];
  readonly method: TokenCounter['method'];
  /** Object identity first (free), then content hash (one pass over the text). The content
   *  cache keeps two generations, like the piece memo: bounded, and what is in use survives. */
  private readonly byObject = new WeakMap<Message, MessageTokens>();
  private byContent = new Map<string, MessageTokens>();
  private byContentOld = new Map<string, MessageTokens>();
  /** The counts of one category, by total and category (encode). */
  private readonly oneCategory = new Map<number, MessageTokens>();
  /** How many messages were actually encoded (not served from a cache): tests read it. */
  encodedMessages = 0;

  constructor(
    private readonly text: TextCounter,
    readonly model: ModelInfo,
  ) {
    this.encoding = text.encoding;
    this.method = model.method;
  }

  count(text: string): number {
    return this.text.count(text);
  }

  get splitsAtLines(): boolean {
    return this.text.splitsAtLines === true;
  }

  countMessage(m: Message): number {
    return this.countMessageByCategory(m).total;
  }

  countMessageByCategory(m: Message): MessageTokens {
    const hit = this.byObject.get(m);
    if (hit) return hit;
    const content = messageContentKey(m);
    // The length guards the 64-bit hash against the odd collision.
    const key = `${hash64(content)}:${content.length}`;
    let tokens = this.byContent.get(key);
    if (!tokens) {
      tokens = this.byContentOld.get(key) ?? this.encode(m);
      this.byContent.set(key, tokens);
      if (this.byContent.size >= CONTENT_CACHE_GENERATION_ENTRIES) {
        this.byContentOld = this.byContent;
        this.byContent = new Map();
      }
    }
    this.byObject.set(m, tokens);
    return tokens;
  }

  /** countMessage, the message's texts counted by `text` — which must count as this counter does
   *  (its encoder with a memo of parts, as the compaction cache's textCounter): a new summary
   *  that shares most of its lines with the last one is counted in the time its new lines take.
   *  Remembered for the message object. */
  countMessageWith(m: Message, text: TextCounter): number {
    let tokens = this.byObject.get(m);
    if (!tokens) {
      tokens = this.encode(m, text);
      this.byObject.set(m, tokens);
    }
    return tokens.total;
  }

  countMessages(messages: readonly Message[]): number {
    let total = 0;
    for (const m of messages) total += this.countMessage(m);
    return withReplyPriming(total, messages.length);
  }

  private encode(m: Message, text: TextCounter = this.text): MessageTokens {
    this.encodedMessages++;
    const by: Partial<Record<TokenCategory, number>> = {};
    // How many categories it has, and the last one given.
    let kinds = 0;
    let last: TokenCategory = 'user';
    const add = (c: TokenCategory, n: number) => {
      if (!n) return;
      const before = by[c];
      if (before === undefined) kinds++;
      by[c] = (before ?? 0) + n;
      last = c;
    };
    const main = mainCategory(m);
    add(main, MESSAGE_OVERHEAD + (m.name ? NAME_OVERHEAD + text.count(m.name) : 0));
    for (const p of m.content) {
      if (p.type === 'text') add(main, text.count(p.text));
      else if (p.type === 'thinking') add('thinking', text.count(p.text));
      else add(main, IMAGE_TOKENS);
    }
    if (m.toolCalls) {
      for (const c of m.toolCalls) add('toolCalls', TOOL_CALL_OVERHEAD + text.count(c.name) + text.count(c.arguments));
    }
    if (m.toolDefinitions && m.content.length === 0) add('toolDefinitions', text.count(JSON.stringify(m.toolDefinitions)));
    let total = 0;
    for (const v of Object.values(by)) total += v ?? 0;
    if (kinds !== 1) return { total, byCategory: by };
    // Most messages are one category: those of one size share one (read-only) object.
    const key = total * TOKEN_CATEGORIES.length + TOKEN_CATEGORIES.indexOf(last);
    const known = this.oneCategory.get(key);
    if (known) return known;
    const tokens = { total, byCategory: by };
    this.oneCategory.set(key, tokens);
    return tokens;
  }
}

/** The tokens of a request of `messages` messages whose counts add up to `total`: the reply
 *  priming on top (countMessages, for a caller that has the counts already). */
export function withReplyPriming(total: number, messages: number): number {
  return messages > 0 ? total + REPLY_PRIMING : 0;
}

export interface CounterOptions {
  override?: ModelOverride;
}

/** A counter for `modelId` (the default model when absent), loading its encoder on first use. */
export async function createTokenCounter(modelId?: string, opts: CounterOptions = {}): Promise<CachedTokenCounter> {
  const model = resolveModel(modelId, opts.override);
  const text = model.encoding === 'estimate' ? estimateCounter : await loadEncoding(model.encoding);
  return new CachedTokenCounter(text, model);
}
