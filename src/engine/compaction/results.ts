// Stage 8: the result objects a caller reads — the summary with its token counts, the plan of
// every message (the inspector's timeline), the stats block, the preview and the full result.

import { messageText, type Conversation, type Message, type Role } from '../conversation/model';
import type { CompactionStats, DegradationStep, LossReport, MessagePlan } from '../result';
import { SECTION_NAMES, type SectionTexts, type Summary } from '../sections';
import type { CachedTokenCounter } from '../tokens/messageCounter';
import type { TextCounter } from '../tokens/tokenCounter';
import type { Attempt } from './attempt';
import { PRESENT } from './decisions';
import type { PlannedCompaction } from './plan';
import type { EngineWarning } from '../warnings';

/** What planCompaction returns: the result as the extractive summary would make it, without
 *  the archive write. */
export interface CompactionPreview {
  conversation: Conversation;
  summary: Summary;
  plan: MessagePlan[];
  loss: LossReport;
  stats: CompactionStats;
  tokensBefore: number;
  /** Estimated tokens after (exact for the extractive summarizer). */
  tokensAfter: number;
  /** The target the budget/ratio resolved to. */
  target: number;
  /** The smallest result the invariants allow (below it the target cannot be met). */
  minimumTokens: number;
  strategy: string;
  level: string;
  compactionCount: number;
  warnings: EngineWarning[];
  /** The extractive sections (also in summary), and what the span was. */
  sections: SectionTexts;
  summarizedIds: string[];
  /** Each step taken to meet the target, in order (empty when nothing had to give). */
  degradation: DegradationStep[];
}

/** The summary's sections and message with their tokens; `text` counts as `counter` does, with
 *  what the attempts counted remembered (CompactionCache.textCounter). */
export function summaryOf(sections: SectionTexts, summaryMessage: Message | undefined, counter: CachedTokenCounter, text: TextCounter): Summary {
  return {
    sections: SECTION_NAMES.map((name) => ({ name, text: sections[name], tokens: sections[name] ? text.count(sections[name]) : 0 })),
    tokens: summaryMessage ? counter.countMessageWith(summaryMessage, text) : 0,
  };
}

export function planOf(planned: PlannedCompaction, attempt: Attempt): MessagePlan[] {
  const { input } = planned.ctx;
  return input.messages.map((m, i) => {
    const d = attempt.decided.decisions[i]!;
    const a = input.analysis.messages[i]!;
    return {
      id: m.id,
      index: i,
      role: m.role,
      itemType: m.itemType,
      tokens: input.tokens[i]!,
      decision: d.decision,
      reason: d.reason,
      classification: a.classification,
      importance: a.importance,
      tokensAfter: PRESENT.has(d.decision) ? (d.replacement ? input.counter.countMessage(d.replacement) : input.tokens[i]!) : 0,
    };
  });
}

function statsContent(m: Message): string {
  let out = messageText(m);
  for (const c of m.toolCalls ?? []) out += `${out ? '\n' : ''}[tool call ${c.name}(${c.arguments})]`;
  return out;
}

function ratioText(before: number, after: number): string {
  if (after <= 0) return '∞x';
  return `${(before / after).toFixed(1)}x`;
}

export function statsOf(planned: PlannedCompaction, attempt: Attempt, now: string | undefined): CompactionStats {
  const { input, options } = planned.ctx;
  let kept = 0;
  let summarized = 0;
  let dropped = 0;
  for (const d of attempt.decided.decisions) {
    if (d.decision === 'summarized') summarized++;
    else if (d.decision === 'dropped') dropped++;
    else kept++;
  }
  const systemIdx = input.messages.findIndex((m) => m.itemType === 'SYSTEM_PROMPT');
  let lastTs: string | undefined;
  for (let i = input.messages.length - 1; i >= 0 && !lastTs; i--) lastTs = input.messages[i]!.timestamp || undefined;
  return {
    original_tokens: input.tokensBefore,
    compressed_tokens: attempt.tokensAfter,
    ratio: ratioText(input.tokensBefore, attempt.tokensAfter),
    kept_messages: kept,
    summarized_count: summarized,
    dropped_count: dropped,
    compression_level: options.level,
    system_prompt_preserved: systemIdx >= 0 && attempt.messages.includes(input.messages[systemIdx]!),
    timestamp: now ?? lastTs ?? '',
    messages: attempt.messages.map((m) => ({ role: m.role as Role, content: statsContent(m), tokens: input.counter.countMessage(m) })),
  };
}

/** The result's conversation: a new object, the input's meta with the compaction count. The usage
 *  the agent reported (the last and the first request's) is left out: it measured the messages
 *  before compaction, not these. */
export function conversationOf(planned: PlannedCompaction, messages: Message[]): Conversation {
  const conv = planned.ctx.input.conv;
  const { reportedUsage: _measuredBefore, firstReportedUsage: _firstMeasured, ...meta } = conv.meta;
  // A copy of the list: the plan may be kept (CompactionCache) and given again.
  return { ...conv, messages: [...messages], meta: { ...meta, compactions: planned.compactionCount } };
}

export function previewOf(planned: PlannedCompaction, now: string | undefined): CompactionPreview {
  const { attempt, ctx } = planned;
  const { input, options } = ctx;
  return {
    conversation: conversationOf(planned, attempt.messages),
    summary: summaryOf(attempt.sections, attempt.summaryMessage, input.counter, options.cache.textCounter(input.counter)),
    plan: planOf(planned, attempt),
    loss: attempt.loss,
    stats: statsOf(planned, attempt, now),
    tokensBefore: input.tokensBefore,
    tokensAfter: attempt.tokensAfter,
    target: planned.budget.target,
    minimumTokens: planned.minimumTokens,
    strategy: options.strategy.name,
    level: options.level,
    compactionCount: planned.compactionCount,
    warnings: [...planned.warnings],
    sections: { ...attempt.sections },
    summarizedIds: attempt.decided.span.map((i) => input.messages[i]!.id),
    degradation: [...planned.degradation],
  };
}
