// What a person asks of one compaction, whichever front end they ask through: `ctxc compact`'s
// flags, the MCP and Copilot tools' arguments and the extension's settings each become one
// CompactionRequest, and src/sessions/compactionService.ts turns it into the engine's options here
// (requestOptions), so every front end gets the same result from the same request. A field left
// out takes the default, applied here and in options.ts (COMPACTION_DEFAULTS) only.

import type { CompactionEdits } from '../result';
import type { ToolLimits } from '../limits';
import type { CompactionLevel } from '../strategies/levelStrategy';
import type { Summarizer } from '../summarizer';
import type { CachedTokenCounter } from '../tokens/messageCounter';
import type { TokenReport } from '../tokens/report';
import type { ArchiveStore } from '../archive/archiveStore';
import type { ContentHasher } from '../archive/contentHasher';
import type { CompactionCache } from './cache';
import { COMPACTION_DEFAULTS, type CompactOptions } from './options';

export interface CompactionRequest {
  /** The counting model; default: the one the conversation names, else `fallbackModel`. */
  model?: string;
  /** The counting model when neither `model` nor the conversation names one (the extension's
   *  contextCompactor.model); default: the registry's (gpt-4o). */
  fallbackModel?: string;
  /** The window in tokens; 0 or undefined: the one the agent states, else the model's. */
  maxContextTokens?: number;
  /** Target size of the result in tokens (the messages: what the file will hold). */
  budget?: number;
  /** Target size as a share of the original, 0 < ratio ≤ 1. */
  ratio?: number;
  keepRecentRounds?: number;
  /** A strategy name (`ctxc strategies`); default: COMPACTION_DEFAULTS.strategy. */
  strategy?: string;
  level?: CompactionLevel;
  /** What the summary should favour. */
  focus?: string;
  /** The summary's own limit; default COMPACTION_DEFAULTS.summaryMaxTokens, and none with an
   *  explicit budget or ratio (the target alone bounds it then). */
  summaryMaxTokens?: number;
  /** Sizes of tool content the selective rules and offload act on; default DEFAULT_TOOL_LIMITS. */
  tools?: Partial<ToolLimits>;
  /** What a person changed in the inspector. */
  edits?: CompactionEdits;
  /** Without a budget or ratio, the result is made to end under this share of the window, what the
   *  agent sends besides the messages included (the meter's trigger); default REQUEST_DEFAULTS. */
  triggerRatio?: number;
  /** The agent the result is written into, when that is not the conversation's own (`ctxc compact
   *  --to codex` of a Claude Code session): its own overhead is the after's. */
  to?: string;
}

export const REQUEST_DEFAULTS = {
  /** The meter turns red and compaction is proposed at 80% of the window. */
  triggerRatio: 0.8,
} as const;

/** Share of the room under the trigger a forced target leaves the result: below the trigger with
 *  room for the next turns, so the conversation is not proposed for compaction again at once. */
export const TRIGGER_HEADROOM = 0.9;

/** The window as the target: when the default result (a share of the original) would still leave
 *  the conversation at or over the trigger, the messages get an explicit budget that fits under it —
 *  what the agent sends besides them included — and the engine escalates levels to meet it.
 *  Undefined when the default fits, or when no budget could. */
export function fitUnderTrigger(report: Pick<TokenReport, 'total' | 'overhead' | 'window'>, triggerRatio: number): number | undefined {
  if (!(report.window > 0)) return undefined;
  const overhead = Math.max(0, report.overhead);
  const room = Math.floor((Math.floor(report.window * triggerRatio) - overhead) * TRIGGER_HEADROOM);
  const messages = report.total - overhead;
  const defaultTarget = Math.round(COMPACTION_DEFAULTS.targetRatio * messages);
  return room > 0 && defaultTarget > room ? room : undefined;
}

/** What one run adds to a request: where the original goes, who writes the summary, the counter. */
export interface RunContext {
  counter: CachedTokenCounter;
  archive: ArchiveStore;
  /** The SHA-256 of the archive keys (CompactOptions.hasher). */
  hasher?: ContentHasher;
  summarizer?: Summarizer;
  cache?: CompactionCache;
  signal?: AbortSignal;
  onProgress?: (p: { phase: string; fraction?: number }) => void;
  /** ISO time for the result's timestamp (none: the transcript's own last one). */
  now?: string;
  clock?: () => number;
}

/** The engine's options for a request on a conversation counted as `report`. */
export function requestOptions(request: CompactionRequest, report: Pick<TokenReport, 'total' | 'overhead' | 'window'>, run: RunContext): CompactOptions {
  const explicit = request.budget !== undefined || request.ratio !== undefined;
  // A compaction of part of the conversation (up to a message, only offloads) is not made to fit the
  // window: what it keeps is the person's choice.
  const scoped = request.edits?.upTo !== undefined || request.edits?.offloadOnly === true;
  const fit = explicit || scoped ? undefined : fitUnderTrigger(report, request.triggerRatio ?? REQUEST_DEFAULTS.triggerRatio);
  // The summary's default limit holds unless the person gave a target (a derived one is not theirs).
  const summaryMaxTokens = request.summaryMaxTokens ?? (explicit ? undefined : COMPACTION_DEFAULTS.summaryMaxTokens);
  const tools = request.tools && Object.values(request.tools).some((v) => v !== undefined) ? request.tools : undefined;
  return {
    counter: run.counter,
    archive: run.archive,
    ...(run.hasher ? { hasher: run.hasher } : {}),
    ...(request.budget !== undefined ? { budget: request.budget } : fit !== undefined ? { budget: fit } : {}),
    ...(request.ratio !== undefined ? { ratio: request.ratio } : {}),
    ...(request.keepRecentRounds !== undefined ? { keepRecentRounds: request.keepRecentRounds } : {}),
    ...(request.strategy !== undefined ? { strategy: request.strategy } : {}),
    ...(request.level !== undefined ? { level: request.level } : {}),
    ...(request.focus ? { focus: request.focus } : {}),
    ...(summaryMaxTokens !== undefined ? { summaryMaxTokens } : {}),
    ...(tools ? { limits: { tools } } : {}),
    ...(request.edits ? { edits: request.edits } : {}),
    ...(run.summarizer ? { summarizer: run.summarizer } : {}),
    ...(run.cache ? { cache: run.cache } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
    ...(run.onProgress ? { onProgress: run.onProgress } : {}),
    ...(run.now !== undefined ? { now: run.now } : {}),
    ...(run.clock ? { clock: run.clock } : {}),
  };
}
