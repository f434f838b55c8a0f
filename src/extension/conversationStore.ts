// The conversations the extension knows — transcript files and chat sessions — and everything
// that changes them: (re-)import, counting, preview, compaction, the drop-oldest alternative and
// undo. Implements the ConversationService seam the status bar, commands, chat participant and
// inspector use.
//
// Model: every conversation has a *source* (the imported transcript, or the messages built from
// the chat history) that the extension never modifies, and a stack of applied *steps*. The
// current view is the last step's conversation plus whatever the source gained since that step;
// with no steps it is the source. Steps are persisted (atomically) with their archive keys, so
// the view and undo survive a reload. Work on one conversation is serialized.

import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ArchiveStore } from '../engine/archive/archiveStore';
import type { Conversation, Message } from '../engine/conversation/model';
import type { CompactionEdits, CompactionResult } from '../engine/result';
import { hash64 } from '../engine/text/hash';
import { TokenLedger } from '../engine/tokens/ledger';
import type { CachedTokenCounter } from '../engine/tokens/messageCounter';
import type { TokenReport } from '../engine/tokens/report';
import { dropOldestRounds, type DropOldestResult } from './alternatives/dropOldest';
import type { CompactionEngine, EngineCompactOptions } from './compactionEngine';
import type { ActiveConversation, ApplyOptions, ConversationService } from './conversationService';
import { NothingToDoError, type Logger } from './log';
import { ConversationStateStore, STATE_VERSION, type PersistedStep } from './persistence/conversationStateStore';
import { FileArchiveStore } from './persistence/fileArchiveStore';
import { DEFAULT_SETTINGS, ENGINE_DEFAULT_STRATEGY, type CompactorSettings, type SettingsStore } from './settings';
import type { SummarizerFactory } from './summarizers/summarizerFactory';
import { notificationText } from './notificationText';

/** Counts a chat session with the chat model's own tokenizer (see chat/lmTokenCounter.ts). */
export type ReportProvider = (messages: readonly Message[]) => Promise<TokenReport>;

export interface SourceOptions {
  label: string;
  kind: 'transcript' | 'chat';
  /** The counting model; default: the source's own model, else the contextCompactor.model setting. */
  model?: string;
  /** Counting by something other than the tiktoken counter (a chat model's countTokens). */
  reportProvider?: ReportProvider;
  uri?: vscode.Uri;
  activate?: boolean;
}

interface Entry {
  key: string;
  label: string;
  kind: 'transcript' | 'chat';
  uri?: vscode.Uri;
  model: string;
  source: Conversation;
  steps: PersistedStep[];
  current: Conversation;
  counter: CachedTokenCounter;
  ledger: TokenLedger;
  report: TokenReport;
  reportProvider?: ReportProvider;
  lastResult?: CompactionResult;
  /** Serializes work on this conversation. */
  queue: Promise<unknown>;
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
}

/** A message for the user when the source changed under a compacted view. */
export type SourceResetListener = (label: string) => void;

export class ConversationStore implements ConversationService {
  private readonly entries = new Map<string, Entry>();
  private activeKey: string | undefined;
  private readonly activeEmitter = new vscode.EventEmitter<ActiveConversation | undefined>();
  private readonly changeEmitter = new vscode.EventEmitter<ActiveConversation>();
  private readonly resetEmitter = new vscode.EventEmitter<string>();
  private readonly settingsListener: vscode.Disposable;
  private readonly counters = new Map<string, Promise<CachedTokenCounter>>();
  readonly onDidChangeActive = this.activeEmitter.event;
  readonly onDidChange = this.changeEmitter.event;
  /** Fires with a label when a compacted view had to be reset because its source was rewritten. */
  readonly onDidResetSource = this.resetEmitter.event;

  constructor(private readonly deps: StoreDependencies) {
    // A new window size or counting model changes every count: recount what we know.
    let counting = countingKey(deps.settings.current);
    this.settingsListener = deps.settings.onDidChange((s) => {
      if (countingKey(s) === counting) return;
      counting = countingKey(s);
      void this.recountAll();
    });
  }

  private get settings(): CompactorSettings {
    return this.deps.settings.current;
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

  async preview(key: string, edits?: CompactionEdits, token?: vscode.CancellationToken): Promise<CompactionResult> {
    const e = this.require(key);
    return this.serialize(e, async () => {
      const opts = await this.compactOptions(e, edits, token, false);
      return this.deps.engine.preview(e.current, opts);
    });
  }

  async apply(key: string, edits?: CompactionEdits, token?: vscode.CancellationToken, options: ApplyOptions = {}): Promise<CompactionResult> {
    const e = this.require(key);
    return this.serialize(e, async () => {
      const opts = await this.compactOptions(e, edits, token, true, options.focus, options.onProgress);
      const before = e.current;
      const result = await this.deps.engine.compact(before, opts);
      throwIfCancelled(token);
      // A compaction that changes nothing is not a step: nothing to undo, no "compacted" report.
      throwIfNothingChanged(before, result);
      const step: PersistedStep = {
        kind: 'compaction',
        archiveId: result.archiveId,
        sourceLength: e.source.messages.length,
        sourceLastId: e.source.messages.at(-1)?.id ?? '',
        conversation: result.conversation,
        tokensBefore: result.tokensBefore,
        tokensAfter: result.tokensAfter,
        strategy: result.strategy,
        summarizer: result.summarizer.name,
        level: result.level,
        at: this.now(),
      };
      // Persist first: if the state cannot be written, nothing changes in memory either.
      await this.persist(e, [...e.steps, step]);
      e.steps.push(step);
      e.lastResult = result;
      await this.setCurrent(e, result.conversation);
      this.deps.log.info(
        `compacted ${e.label}: ${result.tokensBefore} → ${result.tokensAfter} tokens (${result.strategy}, ${result.summarizer.name}, archive ${result.archiveId})`,
      );
      return result;
    });
  }

  async undo(key: string): Promise<boolean> {
    const e = this.entries.get(key);
    if (!e) return false;
    return this.serialize(e, async () => {
      const step = e.steps.at(-1);
      if (!step) return false;
      const restored = await this.restoreBefore(step);
      const tail = e.source.messages.slice(step.sourceLength);
      const view: Conversation = tail.length > 0 ? { ...restored, messages: [...restored.messages, ...tail] } : restored;
      const steps = e.steps.slice(0, -1);
      await this.persist(e, steps);
      e.steps = steps;
      delete e.lastResult;
      await this.setCurrent(e, view);
      this.deps.log.info(`undid the last ${step.kind} of ${e.label} (archive ${step.archiveId})`);
      return true;
    });
  }

  // ───────────── beyond the seam ─────────────

  canUndo(key: string): boolean {
    return (this.entries.get(key)?.steps.length ?? 0) > 0;
  }

  /** The Markdown of the current summary, when the conversation has been compacted. */
  summaryText(key: string): string | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    return this.deps.engine.summaryText(e.current);
  }

  /** The counter the conversation is counted with (the engine's, for exports and estimates). */
  async counterFor(key: string): Promise<CachedTokenCounter> {
    return this.require(key).counter;
  }

  /** Seed 003's alternative: drop the oldest rounds until the conversation is under `targetTokens`. */
  async dropOldest(key: string, targetTokens: number): Promise<DropOldestResult> {
    const e = this.require(key);
    return this.serialize(e, async () => {
      const result = dropOldestRounds(e.current, e.counter, targetTokens);
      if (result.droppedMessages === 0) return result;
      const original = JSON.stringify(e.current);
      const archiveId = `drop-${hash64(original)}-${original.length}`;
      await this.deps.archive.put(archiveId, original);
      const step: PersistedStep = {
        kind: 'dropOldest',
        archiveId,
        sourceLength: e.source.messages.length,
        sourceLastId: e.source.messages.at(-1)?.id ?? '',
        conversation: result.conversation,
        tokensBefore: result.tokensBefore,
        tokensAfter: result.tokensAfter,
        strategy: 'drop-oldest',
        summarizer: 'none',
        level: 'none',
        at: this.now(),
      };
      await this.persist(e, [...e.steps, step]);
      e.steps.push(step);
      delete e.lastResult;
      await this.setCurrent(e, result.conversation);
      return result;
    });
  }

  /** Adds or refreshes a conversation from its source. Re-importing a grown transcript costs
   *  the new messages only: unchanged messages are recognised by the ledger and the counter's cache. */
  async upsertSource(key: string, source: Conversation, opts: SourceOptions): Promise<ActiveConversation> {
    let e = this.entries.get(key);
    if (!e) {
      const model = opts.model || source.meta.model || this.settings.model;
      const counter = await this.counter(model);
      const created: Entry = {
        key,
        label: opts.label,
        kind: opts.kind,
        model,
        source,
        steps: [],
        current: source,
        counter,
        ledger: new TokenLedger(counter),
        report: undefined as unknown as TokenReport,
        queue: Promise.resolve(),
        ...(opts.uri ? { uri: opts.uri } : {}),
        ...(opts.reportProvider ? { reportProvider: opts.reportProvider } : {}),
      };
      // Another call may have created it while the counter loaded.
      e = this.entries.get(key) ?? created;
      if (e === created) {
        this.entries.set(key, created);
        await this.serialize(created, async () => {
          await this.restoreState(created);
          await this.refresh(created);
        });
      }
    }
    const entry = e;
    await this.serialize(entry, async () => {
      entry.label = opts.label;
      if (opts.reportProvider) entry.reportProvider = opts.reportProvider;
      if (source !== entry.source) {
        entry.source = source;
        await this.rebase(entry);
      }
    });
    if (opts.activate) this.setActive(key);
    else if (key === this.activeKey) this.changeEmitter.fire(this.get(key)!);
    return this.get(key)!;
  }

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

  dispose(): void {
    this.settingsListener.dispose();
    this.activeEmitter.dispose();
    this.changeEmitter.dispose();
    this.resetEmitter.dispose();
    this.entries.clear();
  }

  // ───────────── internals ─────────────

  private require(key: string): Entry {
    const e = this.entries.get(key);
    if (!e) throw new Error(`no conversation '${key}' is open`);
    return e;
  }

  private serialize<T>(e: Entry, fn: () => Promise<T>): Promise<T> {
    const run = e.queue.then(fn, fn);
    e.queue = run.catch(() => undefined);
    return run;
  }

  private counter(model: string): Promise<CachedTokenCounter> {
    const override = { maxContextTokens: this.settings.maxContextTokens };
    const cacheKey = `${model}\u0000${override.maxContextTokens}`;
    let c = this.counters.get(cacheKey);
    if (!c) {
      c = this.deps.engine.createCounter(model, override);
      c.catch(() => this.counters.delete(cacheKey));
      this.counters.set(cacheKey, c);
    }
    return c;
  }

  private async compactOptions(
    e: Entry,
    edits: CompactionEdits | undefined,
    token: vscode.CancellationToken | undefined,
    forReal: boolean,
    focus?: string,
    onProgress?: (message: string) => void,
  ): Promise<EngineCompactOptions> {
    const s = this.settings;
    const controller = new AbortController();
    if (token) {
      if (token.isCancellationRequested) controller.abort();
      token.onCancellationRequested(() => controller.abort());
    }
    // Previews are extractive: fast, free and deterministic (the confirmation labels them estimates).
    const made = forReal ? await this.deps.summarizers.create(s, controller.signal) : undefined;
    const strategy = s.strategy === ENGINE_DEFAULT_STRATEGY ? undefined : s.strategy;
    return {
      counter: e.counter,
      archive: this.deps.archive,
      keepRecentRounds: s.keepRecentRounds,
      ...(strategy ? { strategy } : {}),
      level: s.level,
      ...(focus ? { focus } : {}),
      ...(made?.summarizer ? { summarizer: made.summarizer } : {}),
      summaryMaxTokens: s.summaryMaxLength,
      ...(edits ? { edits } : {}),
      signal: controller.signal,
      ...(onProgress ? { onProgress: (p: { phase: string; fraction?: number }) => onProgress(p.phase) } : {}),
      now: this.now(),
      constants: changedThresholds(s),
    };
  }

  private async restoreBefore(step: PersistedStep): Promise<Conversation> {
    if (step.kind === 'compaction') return this.deps.engine.undo(step.archiveId, this.deps.archive);
    const text = await this.deps.archive.get(step.archiveId);
    if (text === undefined) throw new Error(`the archive has no entry '${step.archiveId}': cannot undo`);
    return JSON.parse(text) as Conversation;
  }

  private async persist(e: Entry, steps: PersistedStep[]): Promise<void> {
    await this.deps.states.save({ version: STATE_VERSION, key: e.key, label: e.label, kind: e.kind, steps });
  }

  private async restoreState(e: Entry): Promise<void> {
    const saved = await this.deps.states.load(e.key);
    if (!saved || saved.steps.length === 0) return;
    e.steps = saved.steps;
    await this.rebase(e);
    if (e.steps.length > 0) this.deps.log.info(`restored ${e.steps.length} compaction step(s) of ${e.label}`);
  }

  /** Recomputes the current view after the source changed (or state was restored). */
  private async rebase(e: Entry): Promise<void> {
    const last = e.steps.at(-1);
    if (!last) return this.setCurrent(e, e.source);
    const anchor = e.source.messages[last.sourceLength - 1];
    if (e.source.messages.length < last.sourceLength || (last.sourceLength > 0 && anchor?.id !== last.sourceLastId)) {
      // The source no longer starts with what was compacted (rewritten, truncated): its
      // compacted view no longer applies. The archive keeps every original.
      this.deps.log.warn(`${e.label} changed under its compacted view; showing the source as it is now`);
      e.steps = [];
      delete e.lastResult;
      await this.persist(e, []);
      this.resetEmitter.fire(e.label);
      return this.setCurrent(e, e.source);
    }
    const tail = e.source.messages.slice(last.sourceLength);
    const view = tail.length > 0 ? { ...last.conversation, messages: [...last.conversation.messages, ...tail] } : last.conversation;
    return this.setCurrent(e, view);
  }

  private async setCurrent(e: Entry, conversation: Conversation): Promise<void> {
    e.current = conversation;
    await this.refresh(e);
    if (e.key === this.activeKey) this.changeEmitter.fire(this.get(e.key)!);
  }

  private async refresh(e: Entry): Promise<void> {
    e.ledger.sync(e.current.messages);
    e.report = e.reportProvider ? await e.reportProvider(e.current.messages) : e.ledger.report();
  }

  private async recountAll(): Promise<void> {
    for (const e of [...this.entries.values()]) {
      await this.serialize(e, async () => {
        const model = e.kind === 'transcript' ? e.source.meta.model || this.settings.model : e.model;
        e.model = model;
        e.counter = await this.counter(model);
        e.ledger = new TokenLedger(e.counter);
        await this.refresh(e);
      }).catch((err) => this.deps.log.error(`recounting ${e.label} failed`, err));
      if (e.key === this.activeKey) this.changeEmitter.fire(this.get(e.key)!);
    }
  }
}

const THRESHOLD_SETTINGS = ['toolArgumentTokens', 'toolResultTokens', 'previewTokens', 'keepRecentToolBlocks', 'offloadTokens'] as const;

/** The selective-rule and offload thresholds the user changed. Unchanged ones are left to the
 *  engine's own defaults, so default settings give exactly what `ctxc compact` gives. */
export function changedThresholds(s: CompactorSettings): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of THRESHOLD_SETTINGS) if (s[name] !== DEFAULT_SETTINGS[name]) out[name] = s[name];
  return out;
}

/** The settings that change counts (not, e.g., the trigger ratio, which only changes colours). */
function countingKey(s: CompactorSettings): string {
  return `${s.model}\u0000${s.maxContextTokens}`;
}

/** True when the engine left the conversation as it was (too short, everything kept). Kept
 *  messages are shared by reference with the input, so this is exact and cheap. */
export function compactionChangesNothing(before: Conversation, result: CompactionResult): boolean {
  const after = result.conversation.messages;
  return after.length === before.messages.length && after.every((m, i) => m === before.messages[i]);
}

/** Stops a compaction that would change nothing, with the engine's reason. */
export function throwIfNothingChanged(before: Conversation, result: CompactionResult): void {
  if (!compactionChangesNothing(before, result)) return;
  const reason = result.warnings[0] ?? '';
  throw new NothingToDoError(vscode.l10n.t('Nothing to compact: {0}', reason || vscode.l10n.t('every message is kept as it is.')));
}

function throwIfCancelled(token: vscode.CancellationToken | undefined): void {
  if (token?.isCancellationRequested) throw new vscode.CancellationError();
}

/** The store with its archive and state under the extension's global storage. */
export function registerConversationStore(
  context: vscode.ExtensionContext,
  deps: Omit<StoreDependencies, 'archive' | 'states'>,
): ConversationStore {
  const root = context.globalStorageUri.fsPath;
  const states = new ConversationStateStore(join(root, 'conversations'), (path, reason) => deps.log.warn(`ignoring unreadable state ${path}: ${reason}`));
  const store = new ConversationStore({ ...deps, archive: new FileArchiveStore(join(root, 'archive')), states });
  context.subscriptions.push(
    store,
    store.onDidResetSource((label) => {
      void vscode.window.showInformationMessage(notificationText(vscode.l10n.t('{0} changed on disk, so its compacted view was reset. The originals stay archived.', label)));
    }),
  );
  return store;
}
