// The CompactionEngine port wired to the real engine modules: importers, token counters, the
// compactor (src/engine/compactor.ts), the exporters and the strategy registry.
//
// Parity with `ctxc compact`: the CLI run with no options passes the engine nothing but the
// counter and the archive, so the strategy, the summary limit and the tool limits are passed
// only when the user changed them (the engine then applies COMPACTION_DEFAULTS and
// DEFAULT_LIMITS itself) — the extension's confirmation and meter show exactly the tokensAfter
// `ctxc compact FILE --format json` prints.

import * as vscode from 'vscode';
import { MemoryArchive } from '../engine/archive/memoryArchive';
import { COMPACTION_DEFAULTS, compactConversation, CompactionInputError, summaryTextOf, undoCompaction, type CompactOptions } from '../engine/compactor';
import { importTranscript } from '../engine/conversation/importers/detect';
import type { Conversation } from '../engine/conversation/model';
import { exportConversation } from '../engine/conversation/exporters/exportConversation';
import { DEFAULT_TOOL_LIMITS, type ToolLimits } from '../engine/limits';
import type { CompactionResult } from '../engine/result';
import { listStrategies, UnknownStrategyError } from '../engine/strategies/strategy';
import { createTokenCounter } from '../engine/tokens/messageCounter';
import type { CompactionEngine, EngineCompactOptions } from './compactionEngine';
import { UserFacingError } from './log';

/** The tool limits that differ from the engine's defaults (none: the engine's own). */
function changedToolLimits(tools: ToolLimits): Partial<ToolLimits> | undefined {
  const out: Partial<ToolLimits> = {};
  for (const name of Object.keys(DEFAULT_TOOL_LIMITS) as (keyof ToolLimits)[]) if (tools[name] !== DEFAULT_TOOL_LIMITS[name]) out[name] = tools[name];
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The engine's options for one run. */
export function toCompactOptions(opts: EngineCompactOptions): CompactOptions {
  const tools = changedToolLimits(opts.tools);
  return {
    counter: opts.counter,
    ...(opts.cache ? { cache: opts.cache } : {}),
    archive: opts.archive,
    keepRecentRounds: opts.keepRecentRounds,
    ...(opts.strategy !== undefined ? { strategy: opts.strategy } : {}),
    level: opts.level,
    ...(opts.focus ? { focus: opts.focus } : {}),
    ...(opts.summarizer ? { summarizer: opts.summarizer } : {}),
    // The engine's default cap applies when none is given; pass only a different one.
    ...(opts.summaryMaxTokens !== COMPACTION_DEFAULTS.summaryMaxTokens ? { summaryMaxTokens: opts.summaryMaxTokens } : {}),
    ...(opts.edits ? { edits: opts.edits } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    now: opts.now,
    ...(tools ? { limits: { tools } } : {}),
    ...(opts.budget !== undefined ? { budget: opts.budget } : {}),
  };
}

/** Settings the engine rejects become one line the user can act on. */
async function engineCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof UnknownStrategyError) {
      const names = listStrategies()
        .map((s) => s.name)
        .join(', ');
      throw new UserFacingError(
        vscode.l10n.t('The setting contextCompactor.strategy names no strategy of this engine; expected "default" or one of: {0}.', names),
      );
    }
    if (err instanceof CompactionInputError) throw new UserFacingError(vscode.l10n.t('The compaction options are not valid: {0}', err.message));
    throw err;
  }
}

export function createEngine(): CompactionEngine {
  return {
    importTranscript: (text, sourcePath, usage) => importTranscript(text, { sourcePath, ...(usage ? { usage } : {}) }),
    createCounter: (model, override) => createTokenCounter(model, { override }),
    // The dry run is the real computation with the extractive summarizer, archived only in
    // memory (standing for the real archive, so the summary reads as the applied one will):
    // exact for the extractive summarizer, an estimate for an LLM one.
    preview: (conversation: Conversation, opts: EngineCompactOptions): Promise<CompactionResult> => {
      const { summarizer: _llm, ...rest } = opts;
      return engineCall(() => compactConversation(conversation, toCompactOptions({ ...rest, archive: new MemoryArchive(opts.archive.durable === true) })));
    },
    compact: (conversation, opts) => engineCall(() => compactConversation(conversation, toCompactOptions(opts))),
    undo: (archiveId, archive) => undoCompaction(archiveId, archive),
    exportConversation: (conversation, format, markdown) => exportConversation(conversation, format, markdown),
    summaryText: (conversation) => summaryTextOf(conversation),
    // Read at run time: the strategy registry grows.
    listStrategies: () => listStrategies(),
    defaults: {
      strategy: COMPACTION_DEFAULTS.strategy,
      keepRecentRounds: COMPACTION_DEFAULTS.keepRecentRounds,
      level: COMPACTION_DEFAULTS.level,
    },
  };
}
