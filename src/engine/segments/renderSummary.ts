// The summary message as Markdown: a title, one line on what happened, the eight
// sections under their exact headings (always all eight, in order; an empty one says "(none)"),
// and the Compression Metadata block. parseSummary.ts reads it back, so the layout is a
// contract: headings are "## " + the exact name at column 0, and no body line starts with "#"
// at column 0 (such lines are escaped with a backslash, which Markdown also shows as "#").
// The lead line says the original can be restored only when an archive that outlives the run
// holds it (SummaryStyle.archived). At the emergency level the skeleton is brief: a shorter
// lead and only the two metadata lines re-compaction reads — but still all eight headings: they
// are the contract people and re-compaction read, whatever the budget.

import { SECTION_NAMES, type SectionTexts } from '../sections';
import { formatCount } from '../text/formatNumber';

export const SUMMARY_TITLE = '# Compacted conversation summary';
export const METADATA_HEADING = 'Compression Metadata';
/** What an empty section shows. */
export const EMPTY_SECTION = '- (none)';

export interface CompressionMetadata {
  /** Characters of the messages the summary replaces (original length). */
  originalChars: number;
  /** Characters of the eight sections (compressed length). */
  compressedChars: number;
  /** compressedChars / originalChars (compression ratio), two decimals. */
  ratio: number;
  /** Overall retention of the validation (quality score), two decimals. */
  qualityScore: number;
  /** How many compactions this summary stands for, this one included. */
  compactions: number;
  /** How many original messages it replaces (over all compactions). */
  summarizedMessages: number;
}

/** How the summary is written around its sections. */
export interface SummaryStyle {
  /** The original is in an archive that outlives this run (a folder on disk), so undo can
   *  restore it: only then does the lead line say so. */
  archived: boolean;
  /** The emergency skeleton: short lead, two metadata lines (all eight sections still). */
  brief: boolean;
}

/** A line escapeBody changes: one that starts with "#", or with backslashes and then "#". */
const HEADING_LIKE = /(?:^|\n)\\*#/;

/** Escapes body lines that would read as headings: "#…" → "\#…", "\#…" → "\\#…". */
export function escapeBody(text: string): string {
  // Most bodies have no such line: one search instead of a split and a join.
  if (!HEADING_LIKE.test(text)) return text;
  return text
    .split('\n')
    .map((l) => (/^\\*#/.test(l) ? `\\${l}` : l))
    .join('\n');
}

export function unescapeBody(text: string): string {
  return text
    .split('\n')
    .map((l) => (/^\\+#/.test(l) ? l.slice(1) : l))
    .join('\n');
}

function fmtInt(n: number): string {
  return formatCount(n);
}

export function renderMetadata(meta: CompressionMetadata, brief = false): string {
  const counts = [`- Messages summarized: ${fmtInt(meta.summarizedMessages)}`, `- Compactions: ${meta.compactions}`];
  if (brief) return [`## ${METADATA_HEADING}`, ...counts].join('\n');
  return [
    `## ${METADATA_HEADING}`,
    `- Original length: ${fmtInt(meta.originalChars)} chars`,
    `- Compressed length: ${fmtInt(meta.compressedChars)} chars`,
    `- Compression ratio: ${meta.ratio.toFixed(2)}`,
    `- Quality score: ${meta.qualityScore.toFixed(2)}`,
    ...counts,
  ].join('\n');
}

/** The lead line under the title: what the reader (person or model) is looking at. */
export function leadLine(meta: CompressionMetadata, style: SummaryStyle): string {
  const n = meta.summarizedMessages;
  const messages = `${fmtInt(n)} message${n === 1 ? '' : 's'}`;
  if (style.brief) return `${messages} summarized; later messages verbatim.${style.archived ? ' Original archived (undo).' : ''}`;
  const archive = style.archived ? ' The original is archived and can be restored with undo.' : '';
  return `The earlier part of this conversation (${messages}) was compacted into this summary; the messages after it are verbatim.${archive}`;
}

/** The sections' Markdown without title and metadata: what "compressed length" measures, and
 *  how sections are measured and shown to an LLM. Always all eight; a section not given renders
 *  as empty. */
export function renderSections(sections: Partial<SectionTexts>): string {
  return SECTION_NAMES.map((name) => {
    const body = (sections[name] ?? '').trim();
    return `## ${name}\n${body ? escapeBody(body) : EMPTY_SECTION}`;
  }).join('\n\n');
}

/** The whole summary; `body` is renderSections(sections) when the caller has it already (the
 *  ratio loop renders an attempt's sections once for its draft, its final message and its
 *  compressed length). */
export function renderSummaryMarkdown(sections: SectionTexts, meta: CompressionMetadata, style: SummaryStyle, body = renderSections(sections)): string {
  return `${SUMMARY_TITLE}\n\n${leadLine(meta, style)}\n\n${body ? `${body}\n\n` : ''}${renderMetadata(meta, style.brief)}\n`;
}
