// Re-compaction: the sections of the summary already in the conversation become items again,
// so the builders merge them with the new material section by section — never a summary of a
// summary. Per section (see each builder):
//   • All user messages: every earlier entry stays (required); it may be shortened, never removed.
//   • Files and Code Sections / Errors and fixes / Key Technical Concepts: keyed by path /
//     signature / term; a new entry for the same key replaces the old one (latest state wins).
//   • Primary Request and Intent: the earlier intent stays first (required).
//   • Problem Solving / Pending Tasks: earlier entries stay as optional items, below new ones.
//   • Current Work: replaced by the new span's (kept only when the new span adds nothing).

import type { SectionName, SectionTexts } from '../sections';
import { SECTION_NAMES, emptySectionTexts } from '../sections';
import type { SegmentConstants } from './constants';
import { bulletText, firstInlineCode, parseSummary, splitBullets } from './parseSummary';
import type { SectionItem } from './sectionItems';
import { distinctForms } from './sectionItems';
import { CUT_MARKER_PATTERN, collapseWhitespace, cutAfter, cutMarker, listItem } from './textCut';

/** Where earlier items sort: before everything from the new span. */
export const PREVIOUS_ORDER_BASE = -1_000_000;

export interface PreviousItemOptions {
  required: boolean;
  priority: number;
  /** Key of an item from its text; default: whitespace-collapsed text. */
  keyOf?: (text: string) => string;
  /** Shortest form of a long item: default its first line. */
  shorten?: (text: string) => string;
}

/** Items of an earlier section body, in their earlier order. */
export function previousItems(body: string, opts: PreviousItemOptions): SectionItem[] {
  return splitBullets(body).map((bullet, i) => {
    const text = bulletText(bullet);
    const short = opts.shorten ? opts.shorten(text) : text.split('\n')[0]!;
    return {
      key: opts.keyOf ? opts.keyOf(text) : `prev:${collapseWhitespace(text)}`,
      forms: distinctForms([listItem(short), listItem(text)]),
      required: opts.required,
      priority: opts.priority,
      order: PREVIOUS_ORDER_BASE + i,
      sourceIds: [],
    };
  });
}

/** Key by the first inline code span (file path, error signature, term), else the text. */
export function keyByInlineCode(prefix: string): (text: string) => string {
  return (text) => `${prefix}:${firstInlineCode(text) ?? collapseWhitespace(text)}`;
}

/** Shortens an earlier user-message entry further, adding the newly omitted characters to the
 *  count its marker already names. */
export function shortenEntry(text: string, minChars: number, c: SegmentConstants): string {
  const marker = CUT_MARKER_PATTERN.exec(text);
  const already = marker ? Number(/\[… ([\d,]+)/.exec(marker[0])![1]!.replace(/,/g, '')) : 0;
  const body = marker ? text.slice(0, marker.index) : text;
  const cut = cutAfter(body, minChars, c);
  if (!cut.cut) return text;
  const kept = cut.text.replace(CUT_MARKER_PATTERN, '');
  return `${kept} ${cutMarker(already + cut.omitted)}`;
}

/** Items from the new span replace earlier items with the same key; earlier ones stay otherwise. */
export function replaceByKey(previous: readonly SectionItem[], fresh: readonly SectionItem[]): SectionItem[] {
  const freshKeys = new Set(fresh.map((i) => i.key));
  return [...previous.filter((p) => !freshKeys.has(p.key)), ...fresh];
}

/** The sections of every earlier summary in the span, merged in order (a conversation normally
 *  holds one; several are folded oldest first). Also returns how many compactions they record. */
export function previousSections(summaryTexts: readonly string[]): { sections: SectionTexts; compactions: number; summarizedMessages: number } | undefined {
  if (summaryTexts.length === 0) return undefined;
  const merged = emptySectionTexts();
  let compactions = 0;
  let summarizedMessages = 0;
  for (const text of summaryTexts) {
    const p = parseSummary(text);
    if (p.found.length === 0 && p.preamble) {
      // A summary without our headings (Claude Code's one-line summaries, a hand-written note):
      // keep it whole under the intent rather than lose it.
      const note = listItem(`Earlier summary: ${p.preamble}`);
      const primary = merged['Primary Request and Intent'];
      merged['Primary Request and Intent'] = primary ? `${primary}\n${note}` : note;
    }
    for (const name of SECTION_NAMES as readonly SectionName[]) {
      const body = p.sections[name];
      if (!body) continue;
      merged[name] = name === 'Current Work' ? body : merged[name] ? `${merged[name]}\n${body}` : body;
    }
    compactions += p.compactions ?? 1;
    summarizedMessages += p.summarizedMessages ?? 0;
  }
  return { sections: merged, compactions, summarizedMessages };
}
