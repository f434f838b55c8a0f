// The summary message: the eight sections rendered as Markdown with their compression metadata,
// as a COMPACTION_SUMMARY user message whose id is derived from its text.

import { messageText, thinkingText, type Message } from '../conversation/model';
import { renderSummaryMarkdown, type CompressionMetadata, type SummaryStyle } from '../segments/renderSummary';
import type { SectionTexts } from '../sections';
import { hash64 } from '../text/hash';
import type { ResolvedOptions } from './options';

/** Metadata of the widest figures, to measure what a summary's skeleton costs at most. */
export const SKELETON_METADATA: CompressionMetadata = {
  originalChars: 1_000_000,
  compressedChars: 100_000,
  ratio: 0.1,
  qualityScore: 0.9,
  compactions: 1,
  summarizedMessages: 1000,
};

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** The id of a summary message that never leaves the engine (buildSummaryMessage `unnamed`). */
const UNNAMED_ID = 'compaction-draft';

function summaryId(count: number, text: string): string {
  return `compaction-${count}-${hash64(text).slice(0, 12)}`;
}

/** How the summary is written: the lead promises undo only with a durable archive; the
 *  emergency level writes the brief skeleton (short lead and metadata; all eight sections). */
export function summaryStyleOf(options: Pick<ResolvedOptions, 'archived' | 'level'>): SummaryStyle {
  return { archived: options.archived, brief: options.level === 'emergency' };
}

/** The summary message; `body`: the sections rendered already (renderSummaryMarkdown). A
 *  message only read or counted (a draft, a floor estimate) is `unnamed`: its id is not derived
 *  from its text, which would read the whole text once more. */
export function buildSummaryMessage(sections: SectionTexts, meta: CompressionMetadata, style: SummaryStyle, body?: string, unnamed = false): Message {
  const text = renderSummaryMarkdown(sections, meta, style, body);
  return {
    id: unnamed ? UNNAMED_ID : summaryId(meta.compactions, text),
    role: 'user',
    itemType: 'COMPACTION_SUMMARY',
    content: [{ type: 'text', text }],
    source: { format: 'compacted', extra: { compactions: meta.compactions, summarizedMessages: meta.summarizedMessages } },
  };
}

/** The summary message naming the archive entry the original can be restored from. */
export function withArchiveId(summary: Message, archiveId: string): Message {
  return { ...summary, source: { format: 'compacted', extra: { ...(summary.source?.extra ?? {}), archiveId } } };
}

/** A message as plain text for fact matching and the metadata: text, thinking, tool calls. */
export function messageAsText(m: Message): string {
  let out = messageText(m);
  const th = thinkingText(m);
  if (th) out += `\n${th}`;
  for (const c of m.toolCalls ?? []) out += `\n[tool call ${c.name}] ${c.arguments}`;
  return out;
}
