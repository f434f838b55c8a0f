// The engine's options for one run, from the settings, typed end to end: every setting the
// engine reads has a field in EngineCompactOptions, and the tool limits travel under the names
// of their settings (CompactorSettings extends ToolLimits), so the compiler carries a new one
// everywhere it must go. A VS Code cancellation token becomes the run's AbortSignal; its
// listener lives as long as the run.

import type * as vscode from 'vscode';
import type { ArchiveStore } from '../../engine/archive/archiveStore';
import type { CompactionCache } from '../../engine/compaction/cache';
import type { CompactionEdits } from '../../engine/result';
import type { Summarizer } from '../../engine/summarizer';
import { COMPACTION_DEFAULTS } from '../../engine/compactor';
import type { CachedTokenCounter } from '../../engine/tokens/messageCounter';
import type { TokenReport } from '../../engine/tokens/report';
import type { EngineCompactOptions } from '../compactionEngine';
import { ENGINE_DEFAULT_STRATEGY, toolLimitsOf, type CompactorSettings } from '../settings';

/** What one run adds to the settings. */
export interface EngineRun {
  counter: CachedTokenCounter;
  /** The conversation's cache (ConversationEntry.cache). */
  cache?: CompactionCache;
  archive: ArchiveStore;
  signal: AbortSignal;
  /** ISO time for the result. */
  now: string;
  edits?: CompactionEdits;
  focus?: string;
  onProgress?: (message: string) => void;
  /** undefined: the engine's extractive summarizer (previews always). */
  summarizer?: Summarizer;
  /** An explicit target for the messages (fitUnderTrigger); undefined: the engine's default. */
  budget?: number;
}

/** Share of the room under the trigger a forced target leaves the result: below the trigger with
 *  room for the next turns, so the conversation is not proposed for compaction again at once. */
export const TRIGGER_HEADROOM = 0.9;

/** The window as the target: when the engine's default result (a share of the original) would
 *  still leave the conversation at or over the trigger, the messages get an explicit budget that
 *  fits under it — what the agent sends besides them (the overhead its reported usage shows)
 *  included — and the engine escalates levels to meet it. Undefined when the default fits (then
 *  the extension gives exactly what `ctxc compact` gives) or when no budget could. */
export function fitUnderTrigger(report: Pick<TokenReport, 'total' | 'overhead' | 'window'>, triggerRatio: number): number | undefined {
  if (!(report.window > 0)) return undefined;
  const room = Math.floor((Math.floor(report.window * triggerRatio) - Math.max(0, report.overhead)) * TRIGGER_HEADROOM);
  const messages = report.total - report.overhead;
  const defaultTarget = Math.round(COMPACTION_DEFAULTS.targetRatio * messages);
  return room > 0 && defaultTarget > room ? room : undefined;
}

export function engineOptions(s: CompactorSettings, run: EngineRun): EngineCompactOptions {
  return {
    counter: run.counter,
    ...(run.cache ? { cache: run.cache } : {}),
    archive: run.archive,
    keepRecentRounds: s.keepRecentRounds,
    ...(s.strategy !== ENGINE_DEFAULT_STRATEGY ? { strategy: s.strategy } : {}),
    level: s.level,
    summaryMaxTokens: s.summaryMaxLength,
    tools: toolLimitsOf(s),
    ...(run.focus ? { focus: run.focus } : {}),
    ...(run.summarizer ? { summarizer: run.summarizer } : {}),
    ...(run.edits ? { edits: run.edits } : {}),
    signal: run.signal,
    ...(run.onProgress ? { onProgress: (p: { phase: string }) => run.onProgress!(p.phase) } : {}),
    now: run.now,
    ...(run.budget !== undefined ? { budget: run.budget } : {}),
  };
}

/** An AbortSignal that follows `token`, and the listener's disposal. */
export function abortOnCancel(token: vscode.CancellationToken | undefined): { signal: AbortSignal } & vscode.Disposable {
  const controller = new AbortController();
  if (!token) return { signal: controller.signal, dispose: () => undefined };
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => listener.dispose() };
}
