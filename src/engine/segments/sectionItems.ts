// The unit every section builder produces: an item with progressively longer renderings.
// A section is filled by one rule (fitItems): required items first in their shortest form, then
// the other items by priority, then longer forms by priority — breadth before depth, so every
// file and every user message is named before any one of them is shown in full.

import type { TextCounter } from '../tokens/tokenCounter';

export interface SectionItem {
  /** Identity for merging and de-duplication (a file path, an error signature, a term …). */
  key: string;
  /** Markdown renderings, shortest first; the last is the fullest. Never empty. */
  forms: string[];
  /** Must appear (at least forms[0]) whatever the budget: user messages, files acted on, errors. */
  required: boolean;
  /** Higher is added and lengthened first. */
  priority: number;
  /** Rendering order within the section (ascending; ties keep insertion order). */
  order: number;
  /** Messages the item was taken from. */
  sourceIds: string[];
  /** What the item becomes when the required content does not fit the budget (degrade.ts). */
  reduced?: ReducedForms;
}

/** Renderings and facts for the degradation steps, which run only when every required item in
 *  its shortest form is still over the budget. */
export interface ReducedForms {
  /** A long user message as its opening and closing words plus the names it holds. */
  shortened?: string;
  /** One line: the opening words. */
  gist?: string;
  /** A user message that only acknowledges ("ok", "thanks", "yes do it"): its words, merged
   *  with the other acknowledgements into one line. */
  acknowledgement?: string;
  /** User messages with the same value nearly duplicate each other: the latest stays. */
  similar?: string;
  /** Texts in the item no reduction may cut (a person's standing rules). */
  whole?: readonly string[];
  /** Never reduced: the item's one form is carried verbatim (a ledger line). */
  verbatim?: boolean;
}

export interface FittedSection {
  text: string;
  tokens: number;
  /** Tokens the section would take with every item in its fullest form. */
  need: number;
  /** Tokens of the required items in their shortest forms. */
  floor: number;
  /** Items shown / items offered, and how many are shown shorter than their fullest form. */
  shown: number;
  offered: number;
  shortened: number;
  /** How many of the given items are shown. */
  shownOf(items: ReadonlySet<SectionItem>): number;
}

/** Tokens of each form of each item, counted once. */
export interface MeasuredItem {
  item: SectionItem;
  tokens: number[];
}

/** Newline between items, counted as one token (tokenizers rarely merge across it). */
const JOIN_TOKENS = 1;

export function measureItems(items: readonly SectionItem[], counter: TextCounter): MeasuredItem[] {
  return items.map((item) => ({ item, tokens: item.forms.map((f) => counter.count(f) + JOIN_TOKENS) }));
}

export function sectionFloor(measured: readonly MeasuredItem[]): number {
  let n = 0;
  for (const m of measured) if (m.item.required) n += m.tokens[0]!;
  return n;
}

export function sectionNeed(measured: readonly MeasuredItem[]): number {
  let n = 0;
  // The largest form, not the last: a "shorter" form can cost a token more than the full one.
  for (const m of measured) n += Math.max(...m.tokens);
  return n;
}

/** Priority order: higher priority first, then earlier order, then insertion. Deterministic. */
function byPriority(a: { m: MeasuredItem; i: number }, b: { m: MeasuredItem; i: number }): number {
  return b.m.item.priority - a.m.item.priority || a.m.item.order - b.m.item.order || a.i - b.i;
}

/** Fills a section within `budget` tokens (required items always appear). */
export function fitItems(measured: readonly MeasuredItem[], budget: number): FittedSection {
  const level = new Array<number>(measured.length).fill(-1);
  let used = 0;
  measured.forEach((m, i) => {
    if (m.item.required) {
      level[i] = 0;
      used += m.tokens[0]!;
    }
  });
  const ranked = measured.map((m, i) => ({ m, i })).sort(byPriority);
  const maxLevel = Math.max(0, ...measured.map((m) => m.item.forms.length - 1));
  for (let lv = 0; lv <= maxLevel; lv++) {
    for (const { m, i } of ranked) {
      const cur = level[i]!;
      if (cur !== lv - 1 || lv >= m.tokens.length) continue;
      const delta = m.tokens[lv]! - (cur >= 0 ? m.tokens[cur]! : 0);
      if (used + delta <= budget) {
        level[i] = lv;
        used += delta;
      }
    }
  }
  const shown = measured
    .map((m, i) => ({ m, i }))
    .filter(({ i }) => level[i]! >= 0)
    .sort((a, b) => a.m.item.order - b.m.item.order || a.i - b.i);
  const text = shown.map(({ m, i }) => m.item.forms[level[i]!]).join('\n');
  let shortened = 0;
  for (const { m, i } of shown) if (level[i]! < m.item.forms.length - 1) shortened++;
  return {
    text,
    tokens: used,
    need: sectionNeed(measured),
    floor: sectionFloor(measured),
    shown: shown.length,
    offered: measured.length,
    shortened,
    shownOf: (items) => shown.filter(({ m }) => items.has(m.item)).length,
  };
}

/** Keeps the first item per key (callers put the one that should win first). */
export function uniqueByKey(items: readonly SectionItem[]): SectionItem[] {
  const seen = new Set<string>();
  const out: SectionItem[] = [];
  for (const it of items) {
    if (seen.has(it.key)) continue;
    seen.add(it.key);
    out.push(it);
  }
  return out;
}

/** Forms without repeats (a short text has one form however many were offered). */
export function distinctForms(forms: readonly string[]): string[] {
  const out: string[] = [];
  for (const f of forms) if (f && out[out.length - 1] !== f) out.push(f);
  return out;
}
