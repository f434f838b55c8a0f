// Counting for the store: one token counter per counting model and window (loading one reads a
// tokenizer), the report of a view (the ledger counts only new messages; a chat session may be
// counted by the chat model's own tokenizer instead), and a recount of everything when a
// setting that changes counts (the model, the window) changes. When the source records what the
// API counted (meta.reportedUsage), the report builds on it: the session's calibration (the
// overhead the file does not show) is made once per reported figure, from the source, and added to
// every view of it — as the agent appends, and after a compaction.

import type { Conversation, Message } from '../../engine/conversation/model';
import { countingModel } from '../../sessions/compactionService';
import { calibrate, sameUsage } from '../../engine/tokens/calibration';
import type { CachedTokenCounter } from '../../engine/tokens/messageCounter';
import type { TokenReport } from '../../engine/tokens/report';
import type { CompactionEngine } from '../compactionEngine';
import { Disposable } from '../lifecycle';
import type { CompactorSettings, SettingsStore } from '../settings';
import type { ConversationEntry } from './conversationEntry';

/** The settings that change counts (not, e.g., the trigger ratio, which only changes colours). */
function countingKey(s: CompactorSettings): string {
  return `${s.model}\u0000${s.maxContextTokens}`;
}

export class TokenCounting extends Disposable {
  private readonly counters = new Map<string, Promise<CachedTokenCounter>>();

  constructor(
    private readonly engine: CompactionEngine,
    private readonly settings: SettingsStore,
    /** Called when counts changed meaning: every conversation must be recounted. */
    onCountingChanged: () => void,
  ) {
    super();
    let counting = countingKey(settings.current);
    this._register(
      settings.onDidChange((s) => {
        if (countingKey(s) === counting) return;
        counting = countingKey(s);
        onCountingChanged();
      }),
    );
  }

  /** The counting model of a conversation: the one asked for, else the source's own, else the
   *  setting (the rule every front end counts by: compactionService.ts countingModel). */
  modelFor(asked: string | undefined, source: Pick<Conversation, 'meta'>): string {
    return countingModel(source, { ...(asked ? { model: asked } : {}), fallbackModel: this.settings.current.model }) ?? this.settings.current.model;
  }

  counterFor(model: string): Promise<CachedTokenCounter> {
    const override = { maxContextTokens: this.settings.current.maxContextTokens };
    const cacheKey = `${model}\u0000${override.maxContextTokens}`;
    let c = this.counters.get(cacheKey);
    if (!c) {
      c = this.engine.createCounter(model, override);
      c.catch(() => this.counters.delete(cacheKey));
      this.counters.set(cacheKey, c);
    }
    return c;
  }

  /** The report of `messages` (a view of `e.source`) as the conversation counts them: the source's
   *  own report when it was counted where it was read, else on the source's basis (its reported
   *  usage's calibration, made once per figure; what it inherited). */
  async report(
    e: Pick<ConversationEntry, 'ledger' | 'reportProvider' | 'source' | 'sourceReport' | 'calibration'>,
    messages: readonly Message[],
  ): Promise<TokenReport> {
    if (e.sourceReport && messages === e.source.messages) return e.sourceReport;
    if (e.reportProvider) return e.reportProvider(messages);
    e.ledger.sync(messages);
    const usage = e.source.meta.reportedUsage;
    if (!usage) delete e.calibration;
    else if (!e.calibration || !sameUsage(e.calibration.usage, usage)) {
      const made = calibrate(e.source.messages, usage, e.ledger.counter);
      if (made) e.calibration = made;
      else delete e.calibration;
    }
    const inherited = e.source.meta.inherited;
    return e.ledger.report({ ...(e.calibration ? { calibration: e.calibration } : {}), ...(inherited ? { inherited } : {}) });
  }
}
