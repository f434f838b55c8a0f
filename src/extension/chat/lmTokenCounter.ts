// Counting a chat session with the chat model's own tokenizer (LanguageModelChat.countTokens) and
// against its own window (maxInputTokens). countTokens is asynchronous and may cross a process
// boundary, so each message is counted once and remembered by content.

import type * as vscode from 'vscode';
import { messageText, type Message } from '../../engine/conversation/model';
import { MESSAGE_OVERHEAD, REPLY_PRIMING } from '../../engine/tokens/messageCounter';
import { percentOf } from '../../engine/tokens/calibration';
import type { TokenReport } from '../../engine/tokens/report';
import { TOKEN_CATEGORIES, type TokenCategory } from '../../engine/tokens/tokenCounter';

/** Remembered counts per model; a long session revisits far fewer. */
const MAX_CACHED_COUNTS = 10_000;

function category(m: Message): TokenCategory {
  switch (m.itemType) {
    case 'USER_MESSAGE':
      return 'user';
    case 'ASSISTANT_MESSAGE':
      return 'assistant';
    case 'COMPACTION_SUMMARY':
      return 'summary';
    case 'TOOL_RESULT':
      return 'toolResults';
    case 'THINKING':
      return 'thinking';
    case 'TOOL_DEFINITIONS':
      return 'toolDefinitions';
    default:
      return 'system';
  }
}

export class LmTokenCounter {
  private readonly cache = new Map<string, number>();
  /** How many countTokens calls reached the model (tests read it). */
  calls = 0;

  /** The latest model object for this id (VS Code may hand a new one with each request). */
  constructor(public model: vscode.LanguageModelChat) {}

  async countText(text: string, token?: vscode.CancellationToken): Promise<number> {
    const hit = this.cache.get(text);
    if (hit !== undefined) return hit;
    this.calls++;
    const n = await this.model.countTokens(text, token);
    if (this.cache.size >= MAX_CACHED_COUNTS) this.cache.clear();
    this.cache.set(text, n);
    return n;
  }

  /** Tokens of one message: its text by the model's tokenizer plus the same per-message overhead
   *  the engine's counter bills, so the two counts are comparable. */
  async countMessage(m: Message, token?: vscode.CancellationToken): Promise<number> {
    return MESSAGE_OVERHEAD + (await this.countText(messageText(m), token));
  }

  /** A TokenReport like the engine's, by the chat model, against `window` tokens. */
  async report(messages: readonly Message[], window: number, token?: vscode.CancellationToken): Promise<TokenReport> {
    const byCategory = Object.fromEntries(TOKEN_CATEGORIES.map((c) => [c, 0])) as Record<TokenCategory, number>;
    const perMessage: number[] = [];
    let total = 0;
    for (const m of messages) {
      const n = await this.countMessage(m, token);
      perMessage.push(n);
      byCategory[category(m)] += n;
      total += n;
    }
    if (messages.length > 0) {
      total += REPLY_PRIMING;
      byCategory.assistant += REPLY_PRIMING;
    }
    return {
      total,
      window,
      outputReserve: 0,
      percent: percentOf(total, window),
      exact: true,
      method: 'exact',
      model: this.model.name || this.model.id,
      encoding: `${this.model.vendor}/${this.model.family}`,
      byCategory,
      messageCount: messages.length,
      perMessage,
      counted: total,
      overhead: 0,
    };
  }
}

/** One counter per model id, so caches survive from request to request. */
export class LmTokenCounters {
  private readonly byModel = new Map<string, LmTokenCounter>();

  for(model: vscode.LanguageModelChat): LmTokenCounter {
    let c = this.byModel.get(model.id);
    if (!c) {
      c = new LmTokenCounter(model);
      this.byModel.set(model.id, c);
    } else c.model = model;
    return c;
  }
}
