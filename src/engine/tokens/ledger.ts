// The running token account of one conversation, for the status bar: per-message counts plus
// totals by category, updated in O(changed messages) when messages are appended, replaced or
// removed. Unchanged messages are never recounted — the same object is recognised by
// identity, a re-imported copy by content through the CachedTokenCounter's cache — so
// appending a 1 KB message to a 200k-token conversation costs that message only.
// The report equals tokenReport() over the same messages, number for number; given the session's
// basis (calibration.ts: the overhead the agent's reported usage shows, or what it inherited), it adds that overhead,
// so the messages appended since the last report are our count on top of the API's figure.

import type { Message } from '../conversation/model';
import { REPLY_PRIMING, sameBilledContent, type CachedTokenCounter } from './messageCounter';
import { applyBasis, type ReportBasis } from './calibration';
import { assembleReport, type TokenReport } from './report';
import { TOKEN_CATEGORIES, type MessageTokens, type TokenCategory } from './tokenCounter';

/** What one update did: entries added, replaced by different content, and removed, and how
 *  many messages had to be encoded (the rest came from the counter's caches). */
export interface LedgerChange {
  appended: number;
  replaced: number;
  removed: number;
  encoded: number;
}

function zeroTotals(): Record<TokenCategory, number> {
  return Object.fromEntries(TOKEN_CATEGORIES.map((c) => [c, 0])) as Record<TokenCategory, number>;
}

export class TokenLedger {
  // One entry per message, in three lists side by side: the latest object seen with its content
  // (identity is the cheapest check next time), its tokens, and their total (a report copies that
  // list as it is, and hands the messages to the calibration without a copy).
  private readonly messages: Message[] = [];
  private readonly tokens: MessageTokens[] = [];
  private readonly perMessage: number[] = [];
  private readonly totals = zeroTotals();
  private contentTotal = 0;
  /** How many of the first messages the last sync was given were the very objects held before. */
  private kept = 0;

  constructor(
    readonly counter: CachedTokenCounter,
    messages: readonly Message[] = [],
  ) {
    this.append(...messages);
  }

  get length(): number {
    return this.messages.length;
  }

  /** Tokens of the whole request: every message plus the reply priming (0 when empty). */
  get total(): number {
    return this.messages.length > 0 ? this.contentTotal + REPLY_PRIMING : 0;
  }

  /** Totals by category; the reply priming is billed to the assistant, as tokenReport does. */
  byCategory(): Record<TokenCategory, number> {
    const out = { ...this.totals };
    if (this.messages.length > 0) out.assistant += REPLY_PRIMING;
    return out;
  }

  /** Tokens of the message at `index`. */
  tokensAt(index: number): MessageTokens {
    const t = this.tokens[index];
    if (!t) throw new RangeError(`token ledger: no message at index ${index} (length ${this.messages.length})`);
    return t;
  }

  /** How many of the first messages the last sync was given were the very objects the ledger held
   *  (what a caller that follows the same list can skip). */
  get sameObjects(): number {
    return this.kept;
  }

  append(...messages: Message[]): LedgerChange {
    const before = this.counter.encodedMessages;
    for (const m of messages) this.push(m, this.counter.countMessageByCategory(m));
    return { appended: messages.length, replaced: 0, removed: 0, encoded: this.counter.encodedMessages - before };
  }

  replace(index: number, message: Message): LedgerChange {
    const held = this.messages[index];
    if (!held) throw new RangeError(`token ledger: cannot replace index ${index} (length ${this.messages.length})`);
    if (sameBilledContent(held, message)) {
      this.messages[index] = message;
      return { appended: 0, replaced: 0, removed: 0, encoded: 0 };
    }
    const before = this.counter.encodedMessages;
    this.set(index, message, this.counter.countMessageByCategory(message));
    return { appended: 0, replaced: 1, removed: 0, encoded: this.counter.encodedMessages - before };
  }

  /** Keeps the first `length` messages and forgets the rest. */
  truncate(length: number): LedgerChange {
    const keep = Math.max(0, Math.min(length, this.messages.length));
    const removed = this.messages.length - keep;
    for (let i = keep; i < this.messages.length; i++) this.add(this.tokens[i]!, -1);
    this.messages.length = keep;
    this.tokens.length = keep;
    this.perMessage.length = keep;
    return { appended: 0, replaced: 0, removed, encoded: 0 };
  }

  /** Makes the ledger hold exactly `messages`. Entries whose message is the same object, or
   *  a copy with the same billed content (a re-imported transcript), are kept without
   *  counting; others are counted through the counter's caches. So re-importing a
   *  transcript that gained one message encodes one message. */
  sync(messages: readonly Message[]): LedgerChange {
    const before = this.counter.encodedMessages;
    const common = Math.min(messages.length, this.messages.length);
    const held = this.messages;
    let kept = 0;
    while (kept < common && held[kept] === messages[kept]) kept++;
    this.kept = kept;
    let replaced = 0;
    for (let i = kept; i < common; i++) {
      const m = messages[i]!;
      if (held[i] === m) continue;
      if (sameBilledContent(held[i]!, m)) {
        held[i] = m; // the same content, re-imported: keep the count, follow the new object
        continue;
      }
      this.set(i, m, this.counter.countMessageByCategory(m));
      replaced++;
    }
    const removed = this.truncate(messages.length).removed;
    const appended = messages.length - common;
    for (let i = common; i < messages.length; i++) this.push(messages[i]!, this.counter.countMessageByCategory(messages[i]!));
    return { appended, replaced, removed, encoded: this.counter.encodedMessages - before };
  }

  /** The same report tokenReport(messages, counter) gives — on the session's basis (its calibration,
   *  what it inherited), the same as tokenReport(messages, counter, meta) —; O(messages) only to copy
   *  the per-message list, never to count. */
  report(basis?: ReportBasis): TokenReport {
    const report = assembleReport(this.counter, this.perMessage.slice(), this.byCategory(), this.total);
    return basis ? applyBasis(report, this.messages, basis, this.counter.model.matched === 'override') : report;
  }

  private push(message: Message, tokens: MessageTokens): void {
    this.messages.push(message);
    this.tokens.push(tokens);
    this.perMessage.push(tokens.total);
    this.add(tokens, 1);
  }

  private set(index: number, message: Message, tokens: MessageTokens): void {
    this.add(this.tokens[index]!, -1);
    this.add(tokens, 1);
    this.messages[index] = message;
    this.tokens[index] = tokens;
    this.perMessage[index] = tokens.total;
  }

  private add(tokens: MessageTokens, sign: 1 | -1): void {
    this.contentTotal += sign * tokens.total;
    for (const c of TOKEN_CATEGORIES) {
      const n = tokens.byCategory[c];
      if (n) this.totals[c] += sign * n;
    }
  }
}
