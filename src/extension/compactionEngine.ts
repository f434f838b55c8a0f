// The engine as the extension sees it: one small port over the importers, counters, the one way to
// run a compaction (src/sessions/compactionService.ts), the exporters and the strategy registry.
// The host code depends on this interface only, so the wiring to the real modules lives in one file
// (engineModules.ts) and host tests can run on the real engine or on a stand-in.

import type { ArchiveStore } from '../engine/archive/archiveStore';
import type { CompactionRequest } from '../engine/compaction/request';
import type { MarkdownExportOptions } from '../engine/conversation/exporters/markdown';
import type { UsageRecord } from '../engine/conversation/importers/reportedUsage';
import type { Conversation, ImportResult } from '../engine/conversation/model';
import type { CachedTokenCounter } from '../engine/tokens/messageCounter';
import type { ModelOverride } from '../engine/tokens/modelRegistry';
import type { CompactionHost, CompactionRun } from '../sessions/compactionService';

export type ExportFormat = 'markdown' | 'openai' | 'anthropic';

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
  /** Runs a compaction as every front end does (host.dryRun: the preview, archived only in memory);
   *  the result with its figures. The engine's refusals are UserFacingErrors. */
  run(conversation: Conversation, request: CompactionRequest, host: CompactionHost): Promise<CompactionRun>;
  /** The conversation a compaction replaced, exactly, from the archive. */
  undo(archiveId: string, archive: ArchiveStore): Promise<Conversation>;
  /** markdown.textAsData: message texts fenced and names escaped (a handoff prompt). */
  exportConversation(conversation: Conversation, format: ExportFormat, markdown?: MarkdownExportOptions): string;
  /** The summary message's text of a compacted conversation (Markdown), if it has one. */
  summaryText(conversation: Conversation): string | undefined;
  listStrategies(): StrategyInfo[];
  readonly defaults: EngineDefaults;
}
