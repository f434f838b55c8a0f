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
  tokens: readonly number[];
}

/** Newline between items, counted as one token (tokenizers rarely merge across it). */
const JOIN_TOKENS = 1;

/** The tokens each form of a list of forms takes in a section, with the newline that joins it. */
export interface FormTokens {
  (forms: readonly string[]): readonly number[];
  /** The tokens of the first (shortest) form alone, the same number: what a floor reads. A list
   *  of forms not counted yet is not counted whole for it (the degradation's lists in between
   *  make new lists of forms for every entry, and only the last list is measured whole). */
  first(forms: readonly string[]): number;
}

const FORM_TOKENS = new WeakMap<TextCounter, WeakMap<readonly string[], readonly number[]>>();

/** FormTokens by `counter`, remembered for each forms array while it lives: a message's entry
 *  keeps its forms array from one material to the next (the ratio loop's spans, a grown
 *  conversation), so it is counted once, without hashing its strings again. */
export function formTokensOf(counter: TextCounter): FormTokens {
  let byForms = FORM_TOKENS.get(counter);
  if (!byForms) FORM_TOKENS.set(counter, (byForms = new WeakMap()));
  const known = byForms;
  const all = (forms: readonly string[]) => {
    let t = known.get(forms);
    if (!t) known.set(forms, (t = forms.map((f) => counter.count(f) + JOIN_TOKENS)));
    return t;
  };
  const first = (forms: readonly string[]) => known.get(forms)?.[0] ?? counter.count(forms[0]!) + JOIN_TOKENS;
  return Object.assign(all, { first });
}

export function measureItems(items: readonly SectionItem[], tokensOf: FormTokens): MeasuredItem[] {
  return items.map((item) => ({ item, tokens: tokensOf(item.forms) }));
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

/** What fitItems reads of a measured list whatever the budget: the indices in priority order
 *  and in rendering order, the most forms an item has, the floor and the need. */
interface Ranked {
  byPriority: Int32Array;
  byOrder: Int32Array;
  maxLevel: number;
  floor: number;
  need: number;
}

/** Per measured list (the ratio loop fits the same lists to several budgets): sorted once. */
const RANKED = new WeakMap<readonly MeasuredItem[], Ranked>();

function rankedOf(measured: readonly MeasuredItem[]): Ranked {
  let r = RANKED.get(measured);
  if (r) return r;
  const indexed = measured.map((m, i) => ({ m, i }));
  const prio = Int32Array.from(indexed.sort(byPriority), (x) => x.i);
  const order = Int32Array.from(
    measured.map((m, i) => ({ m, i })).sort((a, b) => a.m.item.order - b.m.item.order || a.i - b.i),
    (x) => x.i,
  );
  let maxLevel = 0;
  for (const m of measured) maxLevel = Math.max(maxLevel, m.item.forms.length - 1);
  r = { byPriority: prio, byOrder: order, maxLevel, floor: sectionFloor(measured), need: sectionNeed(measured) };
  RANKED.set(measured, r);
  return r;
}

/** The floor and the need of a measured list (sectionFloor, sectionNeed), summed once per list. */
export function measuredFigures(measured: readonly MeasuredItem[]): { floor: number; need: number } {
  return rankedOf(measured);
}

/** Fills a section within `budget` tokens (required items always appear). */
export function fitItems(measured: readonly MeasuredItem[], budget: number): FittedSection {
  const ranked = rankedOf(measured);
  const level = new Int32Array(measured.length).fill(-1);
  let used = 0;
  for (let i = 0; i < measured.length; i++) {
    const m = measured[i]!;
    if (m.item.required) {
      level[i] = 0;
      used += m.tokens[0]!;
    }
  }
  for (let lv = 0; lv <= ranked.maxLevel; lv++) {
    for (const i of ranked.byPriority) {
      const m = measured[i]!;
      const cur = level[i]!;
      if (cur !== lv - 1 || lv >= m.tokens.length) continue;
      const delta = m.tokens[lv]! - (cur >= 0 ? m.tokens[cur]! : 0);
      if (used + delta <= budget) {
        level[i] = lv;
        used += delta;
      }
    }
  }
  const shown: number[] = [];
  for (const i of ranked.byOrder) if (level[i]! >= 0) shown.push(i);
  const text = shown.map((i) => measured[i]!.item.forms[level[i]!]).join('\n');
  let shortened = 0;
  for (const i of shown) if (level[i]! < measured[i]!.item.forms.length - 1) shortened++;
  return {
    text,
    tokens: used,
    need: ranked.need,
    floor: ranked.floor,
    shown: shown.length,
    offered: measured.length,
    shortened,
    shownOf: (items) => {
      let n = 0;
      for (const i of shown) if (items.has(measured[i]!.item)) n++;
      return n;
    },
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
