// The settings as a CompactionRequest (src/engine/compaction/request.ts), the one request type
// every front end builds: typed end to end, the tool limits under the names of their settings
// (CompactorSettings extends ToolLimits), so the compiler carries a new one everywhere it must go.
// Defaults are the engine's (a setting at its default asks for the same thing as no setting). A VS
// Code cancellation token becomes the run's AbortSignal; its listener lives as long as the run.

import type * as vscode from 'vscode';
import type { CompactionRequest } from '../../engine/compaction/request';
import { ENGINE_DEFAULT_STRATEGY, toolLimitsOf, type CompactorSettings } from '../settings';

/** The request the settings make; `extra`: what one run adds (the inspector's edits, a focus). */
export function requestFromSettings(s: CompactorSettings, extra: Pick<CompactionRequest, 'edits' | 'focus' | 'model'> = {}): CompactionRequest {
  return {
    fallbackModel: s.model,
    ...(s.maxContextTokens > 0 ? { maxContextTokens: s.maxContextTokens } : {}),
    keepRecentRounds: s.keepRecentRounds,
    ...(s.strategy !== ENGINE_DEFAULT_STRATEGY ? { strategy: s.strategy } : {}),
    level: s.level,
    summaryMaxTokens: s.summaryMaxLength,
    tools: toolLimitsOf(s),
    triggerRatio: s.triggerRatio,
    ...(extra.model ? { model: extra.model } : {}),
    ...(extra.edits ? { edits: extra.edits } : {}),
    ...(extra.focus ? { focus: extra.focus } : {}),
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
