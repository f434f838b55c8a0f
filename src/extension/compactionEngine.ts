// The engine as the extension sees it: one small port over the importers, counters, compactor,
// exporters and strategy registry of src/engine. The host code depends on this interface only,
// so the wiring to the real modules lives in one file (engineModules.ts) and host tests can run
// on the real engine or on a stand-in.

import type { ArchiveStore } from '../engine/archive/archiveStore';
import type { CompactionCache } from '../engine/compaction/cache';
import type { CompactionLevel } from '../engine/compactor';
import type { MarkdownExportOptions } from '../engine/conversation/exporters/markdown';
import type { UsageRecord } from '../engine/conversation/importers/reportedUsage';
import type { Conversation, ImportResult } from '../engine/conversation/model';
import type { ToolLimits } from '../engine/limits';
import type { CompactionEdits, CompactionResult } from '../engine/result';
import type { Summarizer } from '../engine/summarizer';
import type { CachedTokenCounter } from '../engine/tokens/messageCounter';
import type { ModelOverride } from '../engine/tokens/modelRegistry';

export type ExportFormat = 'markdown' | 'openai' | 'anthropic';

export interface EngineCompactOptions {
  counter: CachedTokenCounter;
  /** Kept per conversation: a plan after a few new messages costs those messages, and Compact
   *  right after its preview does not plan again. */
  cache?: CompactionCache;
  archive: ArchiveStore;
  keepRecentRounds: number;
  /** A strategy name; undefined = the engine's default. */
  strategy?: string;
  level: CompactionLevel;
  focus?: string;
  /** undefined = the engine's extractive summarizer. */
  summarizer?: Summarizer;
  summaryMaxTokens: number;
  edits?: CompactionEdits;
  signal?: AbortSignal;
  onProgress?: (p: { phase: string; fraction?: number }) => void;
  /** ISO time for the result's timestamp. */
  now: string;
  /** Sizes of tool content the selective rules and offload act on (the settings of the same names). */
  tools: ToolLimits;
  /** An explicit target in tokens (the engine then escalates levels to meet it); undefined: the
   *  engine's default share of the original. */
  budget?: number;
}

export interface StrategyInfo {
  name: string;
  description: string;
}

export interface EngineDefaults {
  strategy: string;
  keepRecentRounds: number;
  level: string;
}

export interface CompactionEngine {
  /** Imports a transcript of any supported format, with the usage kept beside it (Cline's
   *  ui_messages.json, read by the caller). Bad input throws an error whose message names the file,
   *  the position and what was expected (the importers' TranscriptError). */
  importTranscript(text: string, sourcePath: string, usage?: readonly UsageRecord[]): ImportResult;
  createCounter(model: string, override: ModelOverride): Promise<CachedTokenCounter>;
  /** A dry run: the same computation as compact, archived only in memory. */
  preview(conversation: Conversation, opts: EngineCompactOptions): Promise<CompactionResult>;
  /** Archives the original through opts.archive, then returns the compacted result whole. */
  compact(conversation: Conversation, opts: EngineCompactOptions): Promise<CompactionResult>;
  /** The conversation a compaction replaced, exactly, from the archive. */
  undo(archiveId: string, archive: ArchiveStore): Promise<Conversation>;
  /** markdown.textAsData: message texts fenced and names escaped (a handoff prompt). */
  exportConversation(conversation: Conversation, format: ExportFormat, markdown?: MarkdownExportOptions): string;
  /** The summary message's text of a compacted conversation (Markdown), if it has one. */
  summaryText(conversation: Conversation): string | undefined;
  listStrategies(): StrategyInfo[];
  readonly defaults: EngineDefaults;
}
