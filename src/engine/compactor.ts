// The compaction pipeline's public functions. The stages live in compaction/, each taking and
// returning typed values:
//   options.ts      options checked, defaults applied (ResolvedOptions, typed limits)
//   input.ts        the conversation checked and measured: tokens, analysis, structure, pins
//   budget.ts       the target and how it divides between summary and kept messages
//   decisions.ts    the strategy's decision per message, the invariants enforced
//   spanContent.ts  what the summary replaces: builders' material, facts, importance
//   attempt.ts      the one attempt builder (extractive sections or an LLM's): summary
//                   message, assembly (assemble.ts), loss
//   ratioLoop.ts    attempts under the ratio controller; the best one wins
//   plan.ts         the synchronous stages in order, and the final checks
//   llmSummary.ts   an LLM's sections held to the extractive ones (compactConversation only)
//   results.ts      the preview and result objects
//
// planCompaction is the synchronous dry run (no archive write, extractive only): the
// confirmation's "estimated after" and the inspector's plan. compactConversation runs the same
// computation, then the summarizer, then the archive write, and returns the result whole or
// rejects (cancel: AbortError) — no partial state. The input conversation is never mutated;
// kept messages are shared by reference with it.

import { archiveConversation, readArchivedConversation } from './archive/conversationArchive';
import type { ArchiveStore } from './archive/archiveStore';
import { pureSha256, type ContentHasher } from './archive/contentHasher';
import { writeOffloaded } from './compaction/offload';
import { CompactionInputError, throwIfAborted, type CompactOptions, type PlanOptions } from './compaction/options';
import { planPipeline } from './compaction/plan';
import { conversationOf, planOf, previewOf, statsOf, summaryOf, type CompactionPreview } from './compaction/results';
import { summarizeWithLlm } from './compaction/llmSummary';
import { withArchiveId } from './compaction/summaryMessage';
import { messageText, type Conversation } from './conversation/model';
import type { CompactionEventBus } from './events';
import type { CompactionResult, SummarizerInfo } from './result';
import { EXTRACTIVE_SUMMARIZER_NAME } from './segments/extractiveSummarizer';
import { REPLY_PRIMING } from './tokens/messageCounter';

export {
  COMPACTION_DEFAULTS,
  COMPACTION_WARN_AFTER,
  CompactionAbortedError,
  CompactionInputError,
  SUMMARY_MIN_TOKENS,
  SUMMARY_RESERVE_SHARE,
  type CompactionDefaults,
  type CompactionLevel,
  type CompactOptions,
  type PlanOptions,
} from './compaction/options';
export type { CompactionPreview } from './compaction/results';

/** The dry run: what compactConversation would produce with the extractive summarizer, without
 *  writing the archive. Synchronous. */
export function planCompaction(conv: Conversation, opts: PlanOptions): CompactionPreview {
  return previewOf(planPipeline(conv, opts), opts.now);
}

export async function compactConversation(conv: Conversation, opts: CompactOptions): Promise<CompactionResult> {
  const started = opts.clock?.();
  const progress = (phase: string, fraction?: number) => opts.onProgress?.(fraction === undefined ? { phase } : { phase, fraction });
  if (!opts || typeof opts !== 'object' || !opts.archive || typeof opts.archive.put !== 'function') {
    throw new CompactionInputError('options.archive: expected an ArchiveStore (e.g. new MemoryArchive())');
  }
  if (opts.hasher !== undefined && (opts.hasher === null || typeof opts.hasher.create !== 'function')) {
    throw new CompactionInputError('options.hasher: expected a ContentHasher (an object with create())');
  }
  throwIfAborted(opts.signal);
  progress('analyze', 0);
  const planned = planPipeline(conv, opts);
  const { input, options } = planned.ctx;
  const emit = (phase: Parameters<CompactionEventBus['emit']>[0]['phase'], tokensBefore: number, tokensAfter: number) =>
    opts.events?.emit({ phase, tokensBefore, tokensAfter, strategy: options.strategy.name, level: options.level });
  throwIfAborted(opts.signal);
  emit('selective_start', input.tokensBefore, input.tokensBefore);
  let { attempt } = planned;
  // After the in-place work, before the summary: summarized messages still count whole.
  const afterSelective =
    REPLY_PRIMING +
    attempt.decided.decisions.reduce(
      (s, d, i) =>
        s +
        (d.decision === 'summarized'
          ? input.tokens[i]!
          : d.decision === 'dropped'
            ? 0
            : d.replacement
              ? input.counter.countMessage(d.replacement)
              : input.tokens[i]!),
      0,
    );
  emit('selective_done', input.tokensBefore, afterSelective);
  emit('summary_start', afterSelective, afterSelective);
  const warnings = [...planned.warnings];
  let summarizer: SummarizerInfo = { name: EXTRACTIVE_SUMMARIZER_NAME };
  if (opts.summarizer && opts.summarizer.name !== EXTRACTIVE_SUMMARIZER_NAME && attempt.decided.span.length > 0) {
    progress('summarize', 0.5);
    const llm = await summarizeWithLlm(planned, opts.summarizer, {
      ...(opts.focus !== undefined ? { focus: opts.focus } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      onProgress: (fraction) => progress('summarize', 0.5 + 0.3 * fraction),
    });
    attempt = llm.attempt;
    summarizer = llm.summarizer;
    warnings.push(...llm.warnings);
  }
  throwIfAborted(opts.signal);
  progress('archive', 0.85);
  const hasher = opts.hasher ?? pureSha256;
  const archiveId = await archiveConversation(conv, opts.archive, hasher);
  await writeOffloaded(input, attempt.decided.decisions, opts.archive, hasher);
  throwIfAborted(opts.signal);
  progress('assemble', 0.95);
  // The summary message names the archive entry it can be restored from.
  const summaryMessage = attempt.summaryMessage ? withArchiveId(attempt.summaryMessage, archiveId) : undefined;
  if (summaryMessage) attempt = { ...attempt, summaryMessage, messages: attempt.messages.map((m) => (m === attempt.summaryMessage ? summaryMessage : m)) };
  const durationMs = started !== undefined && opts.clock ? Math.max(0, opts.clock() - started) : 0;
  const result: CompactionResult = {
    conversation: conversationOf(planned, attempt.messages),
    summary: summaryOf(attempt.sections, attempt.summaryMessage, input.counter, options.cache.textCounter(input.counter)),
    plan: planOf(planned, attempt),
    loss: attempt.loss,
    stats: statsOf(planned, attempt, opts.now),
    archiveId,
    tokensBefore: input.tokensBefore,
    tokensAfter: attempt.tokensAfter,
    strategy: options.strategy.name,
    level: options.level,
    summarizer,
    compactionCount: planned.compactionCount,
    warnings,
    durationMs,
    target: planned.budget.target,
    minimumTokens: planned.minimumTokens,
    degradation: [...planned.degradation],
  };
  opts.monitor?.record({
    durationMs,
    ratio: input.tokensBefore > 0 ? attempt.tokensAfter / input.tokensBefore : 1,
    qualityScore: attempt.loss.overallRetention,
    success: attempt.loss.acceptable,
  });
  emit('summary_done', afterSelective, attempt.tokensAfter);
  emit('compaction_performed', input.tokensBefore, attempt.tokensAfter);
  progress('done', 1);
  return result;
}

/** The original conversation a compaction replaced, exactly (deep-equal, JSON-identical), checked
 *  against its key with `hasher` (default: the engine's own SHA-256; any gives the same keys). */
export async function undoCompaction(archiveId: string, archive: ArchiveStore, hasher?: ContentHasher): Promise<Conversation> {
  return readArchivedConversation(archiveId, archive, hasher);
}

/** The Markdown of a conversation's compaction summary (the last one), if it has one. */
export function summaryTextOf(conversation: Conversation): string | undefined {
  const m = [...conversation.messages].reverse().find((x) => x.itemType === 'COMPACTION_SUMMARY');
  return m ? messageText(m) : undefined;
}
