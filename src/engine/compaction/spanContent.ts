// Stage 5: what the summary replaces — the span's messages, the extractive builders' material
// for it (chunk by chunk for an incremental strategy, each chunk merged onto the ones before),
// the facts the result is checked against, and how important the span was.

import type { MessageAnalysis } from '../analyze/analysis';
import type { Message } from '../conversation/model';
import type { Fact } from '../result';
import { buildSectionMaterial, fitSectionMaterial, spanViewOf, type ExtractOptions, type SectionMaterial } from '../segments/extractSections';
import type { SectionTexts } from '../sections';
import { spanFacts } from '../validate/facts';
import { PRESENT, type Decided } from './decisions';
import { latestRequest } from '../strategies/tail';
import type { CompactionInput } from './input';
import type { ResolvedOptions } from './options';

export interface SpanContent {
  /** Indices of the summarized messages. */
  span: readonly number[];
  messages: Message[];
  analyses: (MessageAnalysis | undefined)[];
  material: SectionMaterial;
  /** Every fact the loss detector checks the result against. */
  facts: Fact[];
  /** Mean importance of the span (0.5 when empty): selects the loss thresholds. */
  importance: number;
}

function meanImportance(analyses: readonly (MessageAnalysis | undefined)[]): number {
  const xs = analyses.filter((a): a is MessageAnalysis => a !== undefined).map((a) => a.importance.overall);
  return xs.length === 0 ? 0.5 : xs.reduce((s, x) => s + x, 0) / xs.length;
}

export function extractOptions(input: CompactionInput, options: ResolvedOptions): ExtractOptions {
  return {
    focus: options.focus,
    limits: options.limits.segments,
    counter: options.cache.textCounter(input.counter),
    emergency: options.level === 'emergency',
    memo: options.cache.messages,
    archived: options.archived,
  };
}

/** The messages after the summarized ones: evidence for the summary's claims (segments/evidence.ts). */
function afterOf(input: CompactionInput, last: number): NonNullable<ExtractOptions['after']> {
  return { messages: input.messages.slice(last + 1), analyses: input.analysis.messages.slice(last + 1) };
}

/** The builders' material for the messages at `idx`; with chunks, each chunk is summarized onto
 *  the sections of the chunks before it. */
export function materialOf(
  input: CompactionInput,
  options: ResolvedOptions,
  decided: Pick<Decided, 'decisions'>,
  idx: readonly number[],
  chunks: number[][] | undefined,
): SectionMaterial {
  const analyses = input.analysis.messages;
  const ex = extractOptions(input, options);
  const after = (last: number) => afterOf(input, last);
  // The latest request, kept verbatim while work after it is summarized (strategies/tail.ts).
  const request = latestRequest(input);
  const keptOf = (span: readonly number[]) => {
    if (request === undefined || !PRESENT.has(decided.decisions[request]?.decision ?? 'summarized') || !(span[span.length - 1]! > request)) return {};
    return { keptRequest: { message: input.messages[request]!, analysis: analyses[request], at: span.filter((i) => i < request).length } };
  };
  if (!chunks || chunks.length <= 1) {
    return buildSectionMaterial(
      idx.map((i) => input.messages[i]!),
      idx.map((i) => analyses[i]),
      { ...ex, after: after(idx[idx.length - 1] ?? input.messages.length), ...keptOf(idx) },
    );
  }
  let previous: SectionTexts | undefined;
  let material: SectionMaterial | undefined;
  let prevCompactions = 0;
  for (const chunk of chunks) {
    const chunkIdx = chunk.filter((i) => decided.decisions[i]?.decision === 'summarized');
    if (chunkIdx.length === 0) continue;
    material = buildSectionMaterial(
      chunkIdx.map((i) => input.messages[i]!),
      chunkIdx.map((i) => analyses[i]),
      { ...ex, after: after(chunkIdx[chunkIdx.length - 1]!), ...(previous ? { previous } : {}), ...keptOf(chunkIdx) },
    );
    prevCompactions = Math.max(prevCompactions, material.previousCompactions);
    previous = fitSectionMaterial(material, Number.POSITIVE_INFINITY, ex).sections;
  }
  return material ? { ...material, previousCompactions: prevCompactions } : buildSectionMaterial([], [], ex);
}

/** What the summary of `decided` replaces. */
export function spanContent(input: CompactionInput, options: ResolvedOptions, decided: Decided): SpanContent {
  const idx = decided.span;
  const material = materialOf(input, options, decided, idx, decided.strategy.chunks);
  const messages = idx.map((i) => input.messages[i]!);
  const analyses = idx.map((i) => input.analysis.messages[i]);
  return {
    span: idx,
    messages,
    analyses,
    material,
    facts: spanFacts(messages, analyses, {
      limits: options.limits.validate,
      memo: options.cache.messages,
      // The builders' view of these messages, made just before (for one chunk, made again here).
      view: spanViewOf(messages, analyses, afterOf(input, idx[idx.length - 1] ?? input.messages.length), options.cache.messages),
    }),
    importance: meanImportance(analyses),
  };
}
