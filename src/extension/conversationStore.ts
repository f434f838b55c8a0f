// The registry of the conversations the extension knows — transcript files and chat sessions —
// and the seam (ConversationService) the status bar, commands, chat participant and inspector
// use. The concerns live beside it in store/:
//   conversationEntry.ts  one conversation: source, steps, current view, counts
//   compactionSteps.ts    the step stack: pushStep, undo, persistence, rebasing on the source
//   tokenCounting.ts      counters per model and window, reports, recounting on settings changes
//   engineOptions.ts      the settings as the CompactionRequest every front end builds, cancellation
//   llmCooldown.ts        no LLM retry at once after an LLM compaction fell back
// A compaction runs as every front end runs one (src/sessions/compactionService.ts), on the counts
// the store already has, and comes back with its figures (before → after as the agent will send
// them). Which conversation is active is decided by MeterFocus (meterFocus.ts) alone. Work on one
// conversation is serialized; everything this store creates is disposed with it.

import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ArchiveStore } from '../engine/archive/archiveStore';
import { CompactionCache } from '../engine/compaction/cache';
import type { Conversation } from '../engine/conversation/model';
import type { CompactionEdits } from '../engine/result';
import { MemoryArchive } from '../engine/archive/memoryArchive';
import { hash64 } from '../engine/text/hash';
import { TokenLedger } from '../engine/tokens/ledger';
import type { CachedTokenCounter } from '../engine/tokens/messageCounter';
import type { TokenReport } from '../engine/tokens/report';
import type { CompactionHost } from '../sessions/compactionService';
import { dropOldestRounds, type DropOldestResult } from './compact/dropOldest';
import type { CompactionEngine } from './compactionEngine';
import type { ActiveConversation, ApplyOptions, Compaction, ConversationService } from './conversationService';
import { Disposable } from './lifecycle';
import type { Logger } from './log';
import { ConversationStateStore } from './persistence/conversationStateStore';
import { FileArchiveStore } from './persistence/fileArchiveStore';
import type { SettingsStore } from './settings';
import { CompactionSteps } from './store/compactionSteps';
import type { ApplyElsewhere, ConversationEntry, ReportProvider } from './store/conversationEntry';
import { abortOnCancel, requestFromSettings } from './store/engineOptions';
import { LlmCooldown } from './store/llmCooldown';
import { throwIfNothingChanged } from './store/nothingChanged';
import { TokenCounting } from './store/tokenCounting';
import type { SummarizerFactory } from './summarizers/summarizerFactory';
import { notificationText } from './notificationText';

export type { ApplyElsewhere, ReportProvider } from './store/conversationEntry';

/** Undo for compactions that did not become steps of a conversation (written into an agent as a
 *  new session): the sessions feature keeps them. */
export interface UndoElsewhere {
  canUndo(key: string): boolean;
  /** False when there was nothing to undo or the person declined. */
  undo(key: string): Promise<boolean>;
}

export interface SourceOptions {
  label: string;
  kind: 'transcript' | 'chat';
  /** The counting model; default: the source's own model, else the contextCompactor.model setting. */
  model?: string;
  /** Counting by something other than the tiktoken counter (a chat model's countTokens). */
  reportProvider?: ReportProvider;
  /** The source's report, counted where it was read (an agent session: the Sessions view's count,
   *  with the counter this store gives), so a session is counted once. */
  report?: TokenReport;
  uri?: vscode.Uri;
  /** Applying a compaction writes it elsewhere (an agent session) instead of adding a step. */
  applyElsewhere?: ApplyElsewhere;
}

export interface StoreDependencies {
  engine: CompactionEngine;
  settings: SettingsStore;
  log: Logger;
  archive: ArchiveStore;
  states: ConversationStateStore;
  summarizers: SummarizerFactory;
  /** ISO time for results and steps (tests pass a fixed one). */
  now?: () => string;
  /** Milliseconds, for the LLM cooldown (tests pass their own). */
  clock?: () => number;
}

export class ConversationStore extends Disposable implements ConversationService {
  private readonly entries = new Map<string, ConversationEntry>();
  /** Conversations being read for the first time, so two callers share one load. */
  private readonly loading = new Map<string, Promise<ConversationEntry>>();
  private activeKey: string | undefined;
  private undoElsewhere: UndoElsewhere | undefined;
  private readonly activeEmitter = this._register(new vscode.EventEmitter<ActiveConversation | undefined>());
  private readonly changeEmitter = this._register(new vscode.EventEmitter<ActiveConversation>());
  private readonly resetEmitter = this._register(new vscode.EventEmitter<string>());
  private readonly steps: CompactionSteps;
  private readonly counting: TokenCounting;
  private readonly cooldown: LlmCooldown;
  readonly onDidChangeActive = this.activeEmitter.event;
  readonly onDidChange = this.changeEmitter.event;
  /** Fires with a label when a compacted view had to be reset because its source was rewritten. */
  readonly onDidResetSource = this.resetEmitter.event;

  constructor(private readonly deps: StoreDependencies) {
    super();
    const now = () => this.now();
    this.steps = new CompactionSteps({ engine: deps.engine, archive: deps.archive, states: deps.states, log: deps.log, now });
    this.counting = this._register(new TokenCounting(deps.engine, deps.settings, () => void this.recountAll()));
    this.cooldown = new LlmCooldown(deps.clock ?? Date.now);
    this._register({ dispose: () => this.entries.clear() });
  }

  private now(): string {
    return this.deps.now ? this.deps.now() : new Date().toISOString();
  }

  // ───────────── the seam ─────────────

  active(): ActiveConversation | undefined {
    return this.activeKey ? this.get(this.activeKey) : undefined;
  }

  get(key: string): ActiveConversation | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    return {
      key: e.key,
      label: e.label,
      kind: e.kind,
      conversation: e.current,
      report: e.report,
      ...(e.lastResult ? { lastResult: e.lastResult } : {}),
      compactions: e.steps.length,
      model: e.model,
    };
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  /** What a run of this conversation gets from the store, for the preview and for Compact alike:
   *  its counts (so nothing is counted again and the figures start from the meter's), and its plan
   *  cache (when the two agree the cache hands Compact the preview's plan, and the confirmation's
   *  figures are the result's). One applied elsewhere (an agent session written anew) leaves the
   *  original where it is: nothing to archive, and the summary does not say it can be undone here. */
  private host(e: ConversationEntry, signal: AbortSignal): CompactionHost {
    return {
      counted: { counter: e.counter, report: e.report },
      cache: e.cache,
      archive: e.applyElsewhere ? new MemoryArchive() : this.deps.archive,
      signal,
      now: this.now(),
    };
  }

  async preview(key: string, edits?: CompactionEdits, token?: vscode.CancellationToken): Promise<Compaction> {
    const e = this.require(key);
    return this.serialize(e, async () => {
      // Previews are extractive: fast, free and deterministic (the confirmation labels them estimates).
      const cancel = abortOnCancel(token);
      try {
        const request = requestFromSettings(this.deps.settings.current, edits ? { edits } : {});
        return await this.deps.engine.run(e.current, request, { ...this.host(e, cancel.signal), dryRun: true });
      } finally {
        cancel.dispose();
      }
    });
  }

  async apply(key: string, edits?: CompactionEdits, token?: vscode.CancellationToken, options: ApplyOptions = {}): Promise<Compaction> {
    const e = this.require(key);
    return this.serialize(e, async () => {
      const settings = this.deps.settings.current;
      const cancel = abortOnCancel(token);
      try {
        const made = await this.deps.summarizers.create(settings, cancel.signal);
        const choice = this.cooldown.choose(made);
        const request = requestFromSettings(settings, { ...(edits ? { edits } : {}), ...(options.focus ? { focus: options.focus } : {}) });
        const before = e.current;
        const run = await this.deps.engine.run(before, request, {
          ...this.host(e, cancel.signal),
          ...(options.onProgress ? { onProgress: (p: { phase: string }) => options.onProgress!(p.phase) } : {}),
          ...(choice.summarizer ? { summarizer: choice.summarizer } : {}),
        });
        const { result, figures } = run;
        this.cooldown.record(made, choice, result);
        throwIfCancelled(token);
        // A compaction that changes nothing is not a step: nothing to undo, no "compacted" report.
        throwIfNothingChanged(before, result);
        if (e.applyElsewhere) {
          await e.applyElsewhere.apply(run, before);
          this.deps.log.info(
            `compacted ${e.label} elsewhere: ${figures.before.total} → ${figures.after.total} tokens as the agent will send them (${result.strategy}, ${result.summarizer.name}); the conversation is left as it is`,
          );
          return run;
        }
        const view = await this.steps.pushStep(e, {
          kind: 'compaction',
          archiveId: result.archiveId,
          conversation: result.conversation,
          tokensBefore: result.tokensBefore,
          tokensAfter: result.tokensAfter,
          strategy: result.strategy,
          summarizer: result.summarizer.name,
          level: result.level,
        });
        e.lastResult = result;
        await this.setCurrent(e, view);
        this.deps.log.info(
          `compacted ${e.label}: ${figures.before.total} → ${figures.after.total} tokens as the agent will send them (${result.strategy}, ${result.summarizer.name}, archive ${result.archiveId})`,
        );
        return run;
      } finally {
        cancel.dispose();
      }
    });
  }

  /** Undoes the last compaction of `key`: its last step, else a compaction of it written into its
   *  agent (UndoElsewhere). */
  async undo(key: string): Promise<boolean> {
    const e = this.entries.get(key);
    if ((!e || e.steps.length === 0) && this.undoElsewhere?.canUndo(key)) return this.undoElsewhere.undo(key);
    if (!e) return false;
    return this.serialize(e, async () => {
      const undone = await this.steps.popStep(e);
      if (!undone) return false;
      delete e.lastResult;
      await this.setCurrent(e, undone.view);
      this.deps.log.info(`undid the last ${undone.step.kind} of ${e.label} (archive ${undone.step.archiveId})`);
      return true;
    });
  }

  // ───────────── beyond the seam ─────────────

  canUndo(key: string): boolean {
    return (this.entries.get(key)?.steps.length ?? 0) > 0 || !!this.undoElsewhere?.canUndo(key);
  }

  /** Who undoes the compactions written elsewhere (the sessions feature). */
  setUndoElsewhere(undo: UndoElsewhere): void {
    this.undoElsewhere = undo;
  }

  /** Where applying a compaction to this conversation goes, when not onto its own steps. */
  applyElsewhere(key: string): ApplyElsewhere | undefined {
    return this.entries.get(key)?.applyElsewhere;
  }

  /** The Markdown of the current summary, when the conversation has been compacted. */
  summaryText(key: string): string | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    return this.deps.engine.summaryText(e.current);
  }

  /** What the conversation's plans reuse (its stats say how many plans were made and reused). */
  compactionCache(key: string): CompactionCache | undefined {
    return this.entries.get(key)?.cache;
  }

  /** The counter the conversation is counted with (the engine's, for exports and estimates). */
  async counterFor(key: string): Promise<CachedTokenCounter> {
    return this.require(key).counter;
  }

  /** The counter a source naming `model` (or none) is counted with here: what counts an agent
   *  session where it is read (the Sessions view), so the store takes that count as it is. */
  counterForModel(model: string | undefined): Promise<CachedTokenCounter> {
    return this.counting.counterFor(this.counting.modelFor(undefined, { meta: model ? { model } : {} }));
  }

  /** The alternative to a summary: drop the oldest rounds until the conversation is under `targetTokens`. */
  async dropOldest(key: string, targetTokens: number): Promise<DropOldestResult> {
    const e = this.require(key);
    return this.serialize(e, async () => {
      const result = dropOldestRounds(e.current, e.counter, targetTokens);
      if (result.droppedMessages === 0) return result;
      const original = JSON.stringify(e.current);
      const archiveId = `drop-${hash64(original)}-${original.length}`;
      await this.deps.archive.put(archiveId, original);
      const view = await this.steps.pushStep(e, {
        kind: 'dropOldest',
        archiveId,
        conversation: result.conversation,
        tokensBefore: result.tokensBefore,
        tokensAfter: result.tokensAfter,
        strategy: 'drop-oldest',
        summarizer: 'none',
        level: 'none',
      });
      delete e.lastResult;
      await this.setCurrent(e, view);
      return result;
    });
  }

  /** Adds or refreshes a conversation from its source. Re-importing a grown transcript costs
   *  the new messages only: unchanged messages are recognised by the ledger and the counter's cache. */
  async upsertSource(key: string, source: Conversation, opts: SourceOptions): Promise<ActiveConversation> {
    const entry = this.entries.get(key) ?? (await this.load(key, source, opts));
    await this.serialize(entry, async () => {
      entry.label = opts.label;
      if (opts.reportProvider) entry.reportProvider = opts.reportProvider;
      if (opts.applyElsewhere) entry.applyElsewhere = opts.applyElsewhere;
      if (source !== entry.source || (opts.report && opts.report !== entry.sourceReport)) {
        entry.source = source;
        if (opts.report) entry.sourceReport = opts.report;
        await this.rebase(entry);
      }
    });
    if (key === this.activeKey) this.changeEmitter.fire(this.get(key)!);
    return this.get(key)!;
  }

  /** Makes `key` the active conversation. MeterFocus (meterFocus.ts) decides which one: call it there. */
  setActive(key: string | undefined): void {
    if (key !== undefined && !this.entries.has(key)) return;
    if (key === this.activeKey) return;
    this.activeKey = key;
    this.activeEmitter.fire(this.active());
  }

  /** Forgets a conversation (its editor closed). Its persisted state stays for next time. */
  remove(key: string): void {
    if (!this.entries.delete(key)) return;
    if (this.activeKey === key) {
      this.activeKey = undefined;
      this.activeEmitter.fire(undefined);
    }
  }

  // ───────────── internals ─────────────

  private require(key: string): ConversationEntry {
    const e = this.entries.get(key);
    if (!e) throw new Error(`no conversation '${key}' is open`);
    return e;
  }

  private serialize<T>(e: ConversationEntry, fn: () => Promise<T>): Promise<T> {
    const run = e.queue.then(fn, fn);
    e.queue = run.catch(() => undefined);
    return run;
  }

  /** A conversation read for the first time: its saved steps, its view and its counts, complete
   *  before anyone can see it. Two callers for the same key share one load. */
  private load(key: string, source: Conversation, opts: SourceOptions): Promise<ConversationEntry> {
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.readEntry(key, source, opts).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  private async readEntry(key: string, source: Conversation, opts: SourceOptions): Promise<ConversationEntry> {
    const model = this.counting.modelFor(opts.model, source);
    const counter = await this.counting.counterFor(model);
    const owner = { key, label: opts.label, kind: opts.kind, source, steps: await this.steps.load(key) };
    const { view, reset } = await this.steps.viewOf(owner);
    if (reset) this.resetEmitter.fire(opts.label);
    if (owner.steps.length > 0) this.deps.log.info(`restored ${owner.steps.length} compaction step(s) of ${opts.label}`);
    const reportProvider = opts.reportProvider;
    const counts: Pick<ConversationEntry, 'ledger' | 'reportProvider' | 'source' | 'sourceReport' | 'calibration'> = {
      ledger: new TokenLedger(counter),
      source,
      ...(reportProvider ? { reportProvider } : {}),
      ...(opts.report ? { sourceReport: opts.report } : {}),
    };
    const report = await this.counting.report(counts, view.messages);
    const entry: ConversationEntry = {
      ...owner,
      model,
      current: view,
      counter,
      cache: new CompactionCache(),
      ledger: counts.ledger,
      report,
      queue: Promise.resolve(),
      ...(counts.calibration ? { calibration: counts.calibration } : {}),
      ...(opts.report ? { sourceReport: opts.report } : {}),
      ...(opts.uri ? { uri: opts.uri } : {}),
      ...(reportProvider ? { reportProvider } : {}),
      ...(opts.applyElsewhere ? { applyElsewhere: opts.applyElsewhere } : {}),
    };
    this.entries.set(key, entry);
    return entry;
  }

  /** Recomputes the current view after the source changed. */
  private async rebase(e: ConversationEntry): Promise<void> {
    const { view, reset } = await this.steps.viewOf(e);
    if (reset) {
      delete e.lastResult;
      this.resetEmitter.fire(e.label);
    }
    await this.setCurrent(e, view);
  }

  private async setCurrent(e: ConversationEntry, conversation: Conversation): Promise<void> {
    e.current = conversation;
    e.report = await this.counting.report(e, conversation.messages);
    if (e.key === this.activeKey) this.changeEmitter.fire(this.get(e.key)!);
  }

  private async recountAll(): Promise<void> {
    for (const e of [...this.entries.values()]) {
      await this.serialize(e, async () => {
        e.model = e.kind === 'transcript' ? this.counting.modelFor(undefined, e.source) : e.model;
        e.counter = await this.counting.counterFor(e.model);
        e.ledger = new TokenLedger(e.counter);
        delete e.calibration;
        // Counted elsewhere with the old counter: counted here until its source reads it again.
        delete e.sourceReport;
        e.report = await this.counting.report(e, e.current.messages);
      }).catch((err) => this.deps.log.error(`recounting ${e.label} failed`, err));
      if (e.key === this.activeKey) this.changeEmitter.fire(this.get(e.key)!);
    }
  }
}

function throwIfCancelled(token: vscode.CancellationToken | undefined): void {
  if (token?.isCancellationRequested) throw new vscode.CancellationError();
}

/** The store with its archive and state under the extension's global storage. */
export function registerConversationStore(context: vscode.ExtensionContext, deps: Omit<StoreDependencies, 'archive' | 'states'>): ConversationStore {
  const root = context.globalStorageUri.fsPath;
  const states = new ConversationStateStore(join(root, 'conversations'), (path, reason) => deps.log.warn(`ignoring unreadable state ${path}: ${reason}`));
  const store = new ConversationStore({ ...deps, archive: new FileArchiveStore(join(root, 'archive')), states });
  context.subscriptions.push(
    store,
    store.onDidResetSource((label) => {
      void vscode.window.showInformationMessage(
        notificationText(vscode.l10n.t('{0} changed on disk, so its compacted view was reset. The originals stay archived.', label)),
      );
    }),
  );
  return store;
}
