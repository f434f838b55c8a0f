// What the inspector does with each webview message: previews, applies, undoes and counts
// through the ConversationService, and answers each request exactly once. It knows nothing of
// the panel (the controller in inspectorPanel.ts owns that): it talks through a channel, so
// tests drive it with plain objects.

import * as vscode from 'vscode';
import type { Conversation } from '../../engine/conversation/model';
import type { ActiveConversation, ConversationService } from '../conversationService';
import { isCancellation, userMessageOf, type Logger } from '../log';
import type {
  ContextHistoryView,
  HostToWebview,
  InspectorEdits,
  InspectorModel,
  ResponseValues,
  SectionEdits,
  WebviewRequestType,
} from '../../shared/protocol';
import { localWarningText } from '../engineWarnings';
import { buildInspectorModel, toCompactionEdits } from './inspectorModel';
import { countSections, type CounterProvider } from './sectionCounter';
import { parseWebviewMessage, unknownIds } from './webviewMessages';
import type { HistoryProvider } from './contextHistory';
import { clip, MAX_ECHO_CHARS } from '../../engine/text/clip';

/** Characters of an unknown message id quoted back to the webview. */
const MAX_SHOWN_ID_CHARS = 80;
/** Longest error text sent to the webview, whatever it quotes. */
const MAX_ERROR_REPLY_CHARS = 2 * MAX_ECHO_CHARS;

/** How the handler reaches the webview and its panel. */
export interface InspectorChannel {
  post(message: HostToWebview): void;
  /** Closes the inspector (Cancel). */
  close(): void;
}

export interface HandlerOptions {
  counters: CounterProvider;
  log?: Logger;
  /** The context over time of a conversation (the chart). */
  history?: HistoryProvider;
  /** Why nothing can be offloaded in a conversation, when nothing can. */
  offloadNote?: (key: string) => string | undefined;
}

/** What the inspector currently shows, and the conversation it was computed from. */
interface Shown {
  key: string;
  model: InspectorModel;
  /** The service's conversation object when the model was made: a change event carrying
   *  another object means the conversation moved on and the model is out of date. */
  seen: Conversation;
  stale: boolean;
}

const NO_EDITS: InspectorEdits = { sections: {}, restore: [], pin: [], unpin: [], offload: [] };

export class InspectorMessageHandler implements vscode.Disposable {
  private key: string | undefined;
  private shown: Shown | undefined;
  /** A part to bring into view with the next init. */
  private reveal: 'chart' | undefined;
  private ready = false;
  /** The preview in flight (a newer one, an apply or closing the panel cancels it). */
  private preview: { cts: vscode.CancellationTokenSource; id?: number } | undefined;
  /** Apply and undo change the conversation: one at a time. */
  private mutating = false;
  private disposed = false;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly service: ConversationService,
    private readonly channel: InspectorChannel,
    private readonly options: HandlerOptions,
    key?: string,
  ) {
    this.key = key;
    this.subscriptions.push(
      service.onDidChange((active) => this.onConversationChanged(active)),
      service.onDidChangeActive((active) => {
        // A panel opened with nothing to show follows the first conversation that appears.
        if (active && this.key === undefined) void this.show(active.key);
      }),
    );
  }

  /** The conversation this inspector is bound to. */
  get conversationKey(): string | undefined {
    return this.key;
  }

  /** Shows a conversation (another one, or the same one again: then the preview is kept), with
   *  `reveal` brought into view. */
  async show(key: string | undefined, reveal?: 'chart'): Promise<void> {
    this.reveal = reveal;
    if (key !== undefined && key !== this.key) {
      this.key = key;
      this.shown = undefined;
      this.cancelPreview();
    }
    if (this.ready) await this.sendInit();
  }

  async handle(raw: unknown): Promise<void> {
    if (this.disposed) return;
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.options.log?.warn(`inspector: ignored a webview message: ${parsed.error}`);
      if (parsed.id !== undefined && parsed.request) this.fail(parsed.request, parsed.id, parsed.error);
      return;
    }
    const m = parsed.message;
    switch (m.type) {
      case 'ready':
        this.ready = true;
        await this.sendInit();
        return;
      case 'cancel':
        // Cancel changes nothing: no service call, the panel just closes.
        this.cancelPreview();
        this.channel.close();
        return;
      case 'countSections':
        await this.countSections(m.id, m.sections);
        return;
      case 'preview':
        await this.previewRequest(m.id, m.edits);
        return;
      case 'apply':
        await this.apply(m.id, m.edits);
        return;
      case 'undo':
        await this.undo(m.id);
        return;
    }
  }

  dispose(): void {
    this.disposed = true;
    this.cancelPreview();
    for (const d of this.subscriptions.splice(0)) d.dispose();
  }

  // ───────────────────────────── requests ─────────────────────────────

  private async sendInit(): Promise<void> {
    if (this.key === undefined) this.key = this.service.active()?.key;
    const key = this.key;
    if (key === undefined) {
      this.post({ type: 'init', message: 'No conversation is active. Open a transcript or start a chat with @compactor, then run "Inspect Conversation".' });
      return;
    }
    if (!this.service.get(key)) {
      // Restored after a reload before the conversation was loaded again: wait for it
      // (onConversationChanged), or show the active one if there is one.
      const active = this.service.active();
      if (active) {
        this.key = active.key;
        return this.sendInit();
      }
      this.post({ type: 'init', message: 'The conversation this inspector showed is not open. Open its transcript again, then run "Inspect Conversation".' });
      return;
    }
    const reveal = this.reveal;
    this.reveal = undefined;
    if (this.shown && this.shown.key === key && !this.shown.stale) {
      // The webview reloaded (hidden and shown again, or restored): the preview still holds.
      this.post({ type: 'init', model: this.shown.model, ...(reveal ? { reveal } : {}) });
      return;
    }
    try {
      const model = await this.runPreview(key, NO_EDITS);
      if (model) this.post({ type: 'init', model, ...(reveal ? { reveal } : {}) });
    } catch (err) {
      if (isCancellation(err)) return;
      this.options.log?.error('inspector: preview failed', err);
      const message = clip(`The preview failed: ${userMessageOf(err)}`, MAX_ERROR_REPLY_CHARS);
      this.post({ type: 'error', message });
      this.post({ type: 'init', message });
    }
  }

  private async previewRequest(id: number, edits: InspectorEdits): Promise<void> {
    const key = this.key;
    if (key === undefined) return this.fail('preview', id, 'No conversation to preview.');
    if (this.mutating) return this.fail('preview', id, 'An apply or undo is still running.');
    const invalid = this.checkIds(key, edits);
    if (invalid) return this.fail('preview', id, invalid);
    try {
      const model = await this.runPreview(key, edits, id);
      if (model) this.respond('preview', id, { model });
    } catch (err) {
      this.failWith('preview', id, err);
    }
  }

  private async apply(id: number, edits: InspectorEdits): Promise<void> {
    const key = this.key;
    if (key === undefined) return this.fail('apply', id, 'No conversation to apply to.');
    if (this.mutating) return this.fail('apply', id, 'An apply or undo is still running.');
    // Re-validate against the conversation as it is now, not as the webview last saw it.
    const invalid = this.checkIds(key, edits);
    if (invalid) return this.fail('apply', id, invalid);
    const entry = this.service.get(key);
    if (!entry) return this.fail('apply', id, 'The conversation is no longer open.');
    this.cancelPreview();
    this.mutating = true;
    this.post({ type: 'busy', busy: true, label: 'Applying…' });
    try {
      const before = entry.conversation;
      const history = this.history(key);
      const compaction = await this.service.apply(key, toCompactionEdits(edits));
      const now = this.service.get(key);
      const model = buildInspectorModel({
        key,
        label: entry.label,
        phase: 'applied',
        before,
        compaction,
        warningWords: localWarningText,
        model: entry.model,
        countMethod: await this.countMethod(entry.model),
        canUndo: true,
        edits,
        ...this.extras(key, await history),
      });
      this.shown = { key, model, seen: now?.conversation ?? compaction.result.conversation, stale: false };
      this.respond('apply', id, { model });
    } catch (err) {
      this.failWith('apply', id, err);
    } finally {
      this.mutating = false;
      this.post({ type: 'busy', busy: false });
    }
  }

  private async undo(id: number): Promise<void> {
    const key = this.key;
    if (key === undefined) return this.fail('undo', id, 'No conversation to undo.');
    if (this.mutating) return this.fail('undo', id, 'An apply or undo is still running.');
    this.cancelPreview();
    this.mutating = true;
    this.post({ type: 'busy', busy: true, label: 'Undoing…' });
    let undone: boolean;
    try {
      undone = await this.service.undo(key);
    } catch (err) {
      this.mutating = false;
      this.post({ type: 'busy', busy: false });
      return this.failWith('undo', id, err);
    }
    this.mutating = false;
    if (!undone) {
      this.post({ type: 'busy', busy: false });
      return this.respond('undo', id, { undone: false });
    }
    // Undoing a compaction written into an agent removes the session it wrote (shown here when
    // the inspector was opened on it): the original the meter shows again takes its place.
    if (!this.service.get(key)) {
      const back = this.service.active()?.key;
      if (back === undefined) return this.respond('undo', id, { undone: true });
      this.key = back;
      this.shown = undefined;
    }
    try {
      // The original is back: show what compacting it again would do.
      const model = await this.runPreview(this.key!, NO_EDITS);
      if (model) this.respond('undo', id, { undone: true, model });
      else this.respond('undo', id, { undone: true });
    } catch (err) {
      if (isCancellation(err)) return this.respond('undo', id, { undone: true });
      this.options.log?.error('inspector: preview after undo failed', err);
      this.respond('undo', id, { undone: true });
      this.post({ type: 'error', message: clip(`Undone. The new preview failed: ${userMessageOf(err)}`, MAX_ERROR_REPLY_CHARS) });
    }
  }

  private async countSections(id: number, sections: SectionEdits): Promise<void> {
    const key = this.key;
    const entry = key === undefined ? undefined : this.service.get(key);
    if (!entry) return this.fail('countSections', id, 'No conversation to count for.');
    try {
      this.respond('countSections', id, { tokens: await countSections(this.options.counters, entry.model, sections) });
    } catch (err) {
      this.failWith('countSections', id, err);
    }
  }

  // ───────────────────────────── helpers ─────────────────────────────

  /** Runs a dry run; resolves undefined when a newer preview superseded this one. */
  private async runPreview(key: string, edits: InspectorEdits, id?: number): Promise<InspectorModel | undefined> {
    const entry = this.service.get(key);
    if (!entry) throw new Error(`the conversation ${key} is not open any more`);
    this.cancelPreview();
    const cts = new vscode.CancellationTokenSource();
    const mine = id === undefined ? { cts } : { cts, id };
    this.preview = mine;
    this.post({ type: 'busy', busy: true, label: 'Previewing…' });
    try {
      const before = entry.conversation;
      const history = this.history(key);
      let compaction;
      try {
        compaction = await this.service.preview(key, toCompactionEdits(edits), cts.token);
      } catch (err) {
        // Superseded: whoever cancelled it has answered for it already.
        if (cts.token.isCancellationRequested) return undefined;
        throw err;
      }
      if (cts.token.isCancellationRequested || this.key !== key) return undefined;
      const model = buildInspectorModel({
        key,
        label: entry.label,
        phase: 'preview',
        before,
        compaction,
        warningWords: localWarningText,
        model: entry.model,
        countMethod: await this.countMethod(entry.model),
        canUndo: this.service.canUndo(key),
        edits,
        ...this.extras(key, await history),
      });
      this.shown = { key, model, seen: before, stale: false };
      return model;
    } finally {
      if (this.preview === mine) {
        this.preview = undefined;
        this.post({ type: 'busy', busy: false });
      }
      cts.dispose();
    }
  }

  /** Cancels the preview in flight; its request, if any, is answered as cancelled. */
  private cancelPreview(): void {
    const p = this.preview;
    if (!p) return;
    this.preview = undefined;
    p.cts.cancel();
    if (p.id !== undefined) this.post({ type: 'response', id: p.id, request: 'preview', ok: false, error: 'Superseded.', cancelled: true });
  }

  /** The chart's data, read beside the preview; a failure leaves the chart out (and is logged). */
  private history(key: string): Promise<ContextHistoryView | undefined> {
    return (this.options.history?.(key) ?? Promise.resolve(undefined)).catch((err: unknown) => {
      this.options.log?.warn(`inspector: the context history of ${key} could not be read: ${(err as Error).message}`);
      return undefined;
    });
  }

  private extras(key: string, history: ContextHistoryView | undefined): { history?: ContextHistoryView; offloadNote?: string } {
    const note = this.options.offloadNote?.(key);
    return { ...(history ? { history } : {}), ...(note ? { offloadNote: note } : {}) };
  }

  private async countMethod(model: string): Promise<'exact' | 'proxy' | 'estimate' | undefined> {
    try {
      return (await this.options.counters(model)).method;
    } catch {
      return undefined;
    }
  }

  private checkIds(key: string, edits: InspectorEdits): string | undefined {
    const entry = this.service.get(key);
    if (!entry) return 'The conversation is no longer open.';
    const known = new Set(entry.conversation.messages.map((m) => m.id));
    const unknown = unknownIds(edits, known);
    if (unknown.length === 0) return undefined;
    // Ids come from the webview: each is shown clipped, so three 5 MB ids make a short reply.
    const shown = unknown
      .slice(0, 3)
      .map((id) => clip(id, MAX_SHOWN_ID_CHARS))
      .join(', ');
    return `The conversation changed: ${unknown.length} message id(s) in the edits are not in it (${shown}${unknown.length > 3 ? ', …' : ''}). Refresh the preview.`;
  }

  private onConversationChanged(active: ActiveConversation): void {
    const shown = this.shown;
    if (!shown && active.key === this.key && this.ready && !this.preview && !this.mutating) {
      // The conversation this panel waited for has loaded.
      void this.sendInit();
      return;
    }
    if (!shown || active.key !== shown.key || this.mutating) return;
    if (active.conversation === shown.seen || shown.stale) return;
    shown.stale = true;
    this.post({ type: 'stale', reason: 'The conversation changed since this preview was computed.' });
  }

  private respond<K extends WebviewRequestType>(request: K, id: number, value: ResponseValues[K]): void {
    this.post({ type: 'response', id, request, ok: true, value } as HostToWebview);
  }

  /** An error reply; whatever it quotes, it stays short. */
  private fail(request: WebviewRequestType, id: number, error: string): void {
    this.post({ type: 'response', id, request, ok: false, error: clip(error, MAX_ERROR_REPLY_CHARS) });
  }

  private failWith(request: WebviewRequestType, id: number, err: unknown): void {
    if (isCancellation(err)) {
      this.post({ type: 'response', id, request, ok: false, error: 'Cancelled.', cancelled: true });
      return;
    }
    this.options.log?.error(`inspector: ${request} failed`, err);
    this.fail(request, id, userMessageOf(err));
  }

  private post(message: HostToWebview): void {
    if (this.disposed) return;
    this.channel.post(message);
  }
}
