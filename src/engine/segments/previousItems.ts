// Earlier summaries' entries as items again (re-compaction): each section builder takes the
// entries of the merged earlier section as items of its own, keyed so that a new entry for the
// same key replaces the old one (mergeSections.ts says the rule per section).

import type { SegmentConstants } from './constants';
import { bulletText, firstInlineCode, splitBullets } from './parseSummary';
import type { SectionItem } from './sectionItems';
import { distinctForms } from './sectionItems';
import { CUT_MARKER_PATTERN, collapseWhitespace, cutAfter, cutMarker, listItem, type WholeTexts } from '../text/textCut';

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
export function shortenEntry(text: string, minChars: number, c: SegmentConstants, whole?: WholeTexts): string {
  const marker = CUT_MARKER_PATTERN.exec(text);
  const already = marker ? Number(/\[… ([\d,]+)/.exec(marker[0])![1]!.replace(/,/g, '')) : 0;
  const body = marker ? text.slice(0, marker.index) : text;
  const cut = cutAfter(body, minChars, c, whole);
  if (!cut.cut) return text;
  const kept = cut.text.replace(CUT_MARKER_PATTERN, '');
  return `${kept} ${cutMarker(already + cut.omitted)}`;
}

/** Items from the new span replace earlier items with the same key; earlier ones stay otherwise. */
export function replaceByKey(previous: readonly SectionItem[], fresh: readonly SectionItem[]): SectionItem[] {
  const freshKeys = new Set(fresh.map((i) => i.key));
  return [...previous.filter((p) => !freshKeys.has(p.key)), ...fresh];
}
