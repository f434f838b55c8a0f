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
import type { CachedTokenCounter } from '../../engine/tokens/messageCounter';
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
