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

interface Entry {
  /** The latest object seen with this content (identity is the cheapest check next time). */
  message: Message;
  tokens: MessageTokens;
}

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
  private readonly entries: Entry[] = [];
  private readonly totals = zeroTotals();
  private contentTotal = 0;

  constructor(
    readonly counter: CachedTokenCounter,
    messages: readonly Message[] = [],
  ) {
    this.append(...messages);
  }

  get length(): number {
    return this.entries.length;
  }

  /** Tokens of the whole request: every message plus the reply priming (0 when empty). */
  get total(): number {
    return this.entries.length > 0 ? this.contentTotal + REPLY_PRIMING : 0;
  }

  /** Totals by category; the reply priming is billed to the assistant, as tokenReport does. */
  byCategory(): Record<TokenCategory, number> {
    const out = { ...this.totals };
    if (this.entries.length > 0) out.assistant += REPLY_PRIMING;
    return out;
  }

  /** Tokens of the message at `index`. */
  tokensAt(index: number): MessageTokens {
    const e = this.entries[index];
    if (!e) throw new RangeError(`token ledger: no message at index ${index} (length ${this.entries.length})`);
    return e.tokens;
  }

  append(...messages: Message[]): LedgerChange {
    const before = this.counter.encodedMessages;
    for (const m of messages) {
      const tokens = this.counter.countMessageByCategory(m);
      this.entries.push({ message: m, tokens });
      this.add(tokens, 1);
    }
    return { appended: messages.length, replaced: 0, removed: 0, encoded: this.counter.encodedMessages - before };
  }

  replace(index: number, message: Message): LedgerChange {
    const e = this.entries[index];
    if (!e) throw new RangeError(`token ledger: cannot replace index ${index} (length ${this.entries.length})`);
    if (sameBilledContent(e.message, message)) {
      e.message = message;
      return { appended: 0, replaced: 0, removed: 0, encoded: 0 };
    }
    const before = this.counter.encodedMessages;
    const tokens = this.counter.countMessageByCategory(message);
    this.add(e.tokens, -1);
    this.add(tokens, 1);
    this.entries[index] = { message, tokens };
    return { appended: 0, replaced: 1, removed: 0, encoded: this.counter.encodedMessages - before };
  }

  /** Keeps the first `length` messages and forgets the rest. */
  truncate(length: number): LedgerChange {
    const keep = Math.max(0, Math.min(length, this.entries.length));
    const removed = this.entries.length - keep;
    for (let i = keep; i < this.entries.length; i++) this.add(this.entries[i]!.tokens, -1);
    this.entries.length = keep;
    return { appended: 0, replaced: 0, removed, encoded: 0 };
  }

  /** Makes the ledger hold exactly `messages`. Entries whose message is the same object, or
   *  a copy with the same billed content (a re-imported transcript), are kept without
   *  counting; others are counted through the counter's caches. So re-importing a
   *  transcript that gained one message encodes one message. */
  sync(messages: readonly Message[]): LedgerChange {
    const before = this.counter.encodedMessages;
    const common = Math.min(messages.length, this.entries.length);
    let replaced = 0;
    for (let i = 0; i < common; i++) {
      const e = this.entries[i]!;
      const m = messages[i]!;
      if (e.message === m) continue;
      if (sameBilledContent(e.message, m)) {
        e.message = m; // the same content, re-imported: keep the count, follow the new object
        continue;
      }
      const tokens = this.counter.countMessageByCategory(m);
      this.add(e.tokens, -1);
      this.add(tokens, 1);
      this.entries[i] = { message: m, tokens };
      replaced++;
    }
    const removed = this.truncate(messages.length).removed;
    const appended = messages.length - common;
    for (let i = common; i < messages.length; i++) {
      const tokens = this.counter.countMessageByCategory(messages[i]!);
      this.entries.push({ message: messages[i]!, tokens });
      this.add(tokens, 1);
    }
    return { appended, replaced, removed, encoded: this.counter.encodedMessages - before };
  }

  /** The same report tokenReport(messages, counter) gives — on the session's basis (its calibration,
   *  what it inherited), the same as tokenReport(messages, counter, meta) —; O(messages) only to copy
   *  the per-message list, never to count. */
  report(basis?: ReportBasis): TokenReport {
    const report = assembleReport(
      this.counter,
      this.entries.map((e) => e.tokens.total),
      this.byCategory(),
      this.total,
    );
    return basis
      ? applyBasis(
          report,
          this.entries.map((e) => e.message),
          basis,
          this.counter.model.matched === 'override',
        )
      : report;
  }

  private add(tokens: MessageTokens, sign: 1 | -1): void {
    this.contentTotal += sign * tokens.total;
    for (const c of TOKEN_CATEGORIES) {
      const n = tokens.byCategory[c];
      if (n) this.totals[c] += sign * n;
    }
  }
}
