// When the summary's required content — every user message, every file acted on, every error —
// does not fit its budget even in the shortest forms, it gives way in steps, each taken only
// while the floor is still over the budget, and each reported (DegradationStep):
//   1 shorten-user-messages  a long user message becomes its opening and closing words, with
//                            the paths, identifiers and error names of the part between
//   2 merge-repeats          acknowledgements ("ok", "thanks", "yes do it") become one line that
//                            quotes them all; of near-duplicate messages the latest stays, with
//                            a count of the earlier ones
//   3 gist-user-messages     every user message but the first request and the most recent
//                            USER_MESSAGE_RECENT_KEPT becomes a one-line gist (its opening words)
//   4 cut-required           emergency level only, each part while still over: the entries of
//                            the other sections (files, errors, requirements …) become one short
//                            line each, then stop being required, lowest priority first; then
//                            the user messages become their first words (the first request its
//                            gist), then stop being required, the first request last of all;
//                            every section that gave up entries then ends with a line that
//                            counts them ("All user messages" the messages it no longer names),
//                            so none says "(none)" when it had some
// Steps 1–3 still name every user message (a gist starts with its opening words and carries the
// cut marker, so a later re-compaction adds to its count), so "All user messages" keeps growing
// across re-compactions; only the emergency cut, as the last resort, may leave some out.

import type { DegradationStep } from '../result';
import { SECTION_NAMES, type SectionName } from '../sections';
import type { SegmentConstants } from './constants';
import type { FormTokens, SectionItem } from './sectionItems';
import { bulletText } from './parseSummary';
import { listItem, oneLine } from '../text/textCut';
import { gistOf } from './userMessages';

const USERS: SectionName = 'All user messages';
/** About what "- (12 more user messages left out to fit; the archive has them)" takes. */
const LEFT_OUT_LINE_TOKENS = 16;

/** About what "- (3 more entries left out to fit)" takes. */
const SECTION_LEFT_OUT_TOKENS = 11;

/** The line a section ends with when the emergency cut left some of its entries out (so that it
 *  never says "(none)" when it had some); for "All user messages" it points to the archive only
 *  when one that outlives the compaction holds them. */
export function leftOutLine(n: number, archived = true, section: SectionName = USERS): string {
  if (section !== USERS) return listItem(`(${n} more entr${n === 1 ? 'y' : 'ies'} left out to fit)`);
  return listItem(`(${n} more user message${n === 1 ? '' : 's'} left out to fit${archived ? '; the archive has them' : ''})`);
}

export type SectionItemLists = Record<SectionName, SectionItem[]>;

export interface DegradeOptions {
  budget: number;
  /** The emergency level: step 4 may run. */
  emergency: boolean;
  /** The tokens of an item's forms (sectionItems.ts formTokensOf). */
  tokensOf: FormTokens;
  c: SegmentConstants;
  /** Keeps what the steps made of each list, for the next degradation of the same material with
   *  the same counter (the ratio loop fits one material to several budgets). */
  memo?: DegradeMemo;
}

export interface Degraded {
  items: SectionItemLists;
  steps: DegradationStep[];
  /** Entries that were required and no longer are (the emergency cut), per section. */
  released: Map<SectionName, Set<SectionItem>>;
}

/** What the steps gave for each item list, and each list's floor. Every step but the emergency
 *  release is a pure function of the list it changes, so a list met again (the same material
 *  fitted to another budget) is given what it was given before. */
export class DegradeMemo {
  readonly floors = new WeakMap<readonly SectionItem[], number>();
  private readonly made = new WeakMap<readonly SectionItem[], Map<string, unknown>>();

  step<T>(list: readonly SectionItem[], key: string, make: () => T): T {
    let byKey = this.made.get(list);
    if (!byKey) this.made.set(list, (byKey = new Map()));
    if (byKey.has(key)) return byKey.get(key) as T;
    const v = make();
    byKey.set(key, v);
    return v;
  }
}

/** Tokens of each required item's shortest form, counted once per form string: the floor of
 *  all the lists, and of one item. */
interface FloorOf {
  (items: SectionItemLists): number;
  item(it: SectionItem): number;
}

function floorCounter(tokensOf: FormTokens, ofList: WeakMap<readonly SectionItem[], number>): FloorOf {
  const shortest = (it: SectionItem) => tokensOf.first(it.forms);
  // A step changes one list or two; the floor of each list is counted once.
  const floorOf = (items: SectionItemLists) => {
    let n = 0;
    for (const name of SECTION_NAMES) {
      const list = items[name];
      let f = ofList.get(list);
      if (f === undefined) {
        f = 0;
        for (const it of list) if (it.required) f += shortest(it);
        ofList.set(list, f);
      }
      n += f;
    }
    return n;
  };
  return Object.assign(floorOf, { item: (it: SectionItem) => (it.required ? shortest(it) : 0) });
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Step 1: long user messages to their opening and closing words. */
function shorten(items: SectionItem[]): { items: SectionItem[]; n: number } {
  let n = 0;
  const out = items.map((it) => {
    const s = it.reduced?.shortened;
    if (!it.required || !s || s.length >= it.forms[0]!.length) return it;
    n++;
    return { ...it, forms: [s, ...it.forms] };
  });
  return { items: out, n };
}

/** Step 2: acknowledgements into one line; near-duplicates into their latest. */
function mergeRepeats(items: SectionItem[]): { items: SectionItem[]; acks: number; similar: number } {
  const acks = items.filter((it) => it.required && it.reduced?.acknowledgement !== undefined);
  const latest = new Map<string, SectionItem>();
  for (const it of items) {
    const g = it.reduced?.similar;
    if (!it.required || g === undefined || it.reduced?.acknowledgement !== undefined) continue;
    const cur = latest.get(g);
    if (!cur || it.order > cur.order) latest.set(g, it);
  }
  const earlier = new Map<string, number>();
  for (const it of items) {
    const g = it.reduced?.similar;
    if (g !== undefined && latest.has(g) && latest.get(g) !== it && it.required && it.reduced?.acknowledgement === undefined)
      earlier.set(g, (earlier.get(g) ?? 0) + 1);
  }
  let similar = 0;
  const out: SectionItem[] = [];
  let acksPlaced = acks.length < 2;
  const ackSet = new Set(acks);
  for (const it of items) {
    if (acks.length >= 2 && ackSet.has(it)) {
      if (!acksPlaced) {
        acksPlaced = true;
        const quoted = acks.map((a) => a.reduced!.acknowledgement!).join(', ');
        out.push({
          key: 'user:acknowledgements',
          forms: [listItem(`${plural(acks.length, 'short reply', 'short replies')}: ${quoted}`)],
          required: true,
          priority: Math.max(...acks.map((a) => a.priority)),
          order: it.order,
          sourceIds: acks.flatMap((a) => a.sourceIds),
        });
      }
      continue;
    }
    const g = it.reduced?.similar;
    if (g !== undefined && it.required && it.reduced?.acknowledgement === undefined && latest.has(g)) {
      const keep = latest.get(g)!;
      if (keep !== it) {
        similar++;
        continue;
      }
      const n = earlier.get(g) ?? 0;
      if (n > 0) {
        const note = ` (also sent ${plural(n, 'time')} before in similar words)`;
        out.push({
          ...it,
          forms: it.forms.map((f) => `${f}${note}`),
          ...(it.reduced?.gist ? { reduced: { ...it.reduced, gist: `${it.reduced.gist}${note}` } } : {}),
        });
        continue;
      }
    }
    out.push(it);
  }
  return { items: out, acks: acks.length >= 2 ? acks.length : 0, similar };
}

/** Step 3: all but the first request and the most recent user messages as one-line gists. */
function gist(items: SectionItem[], recentKept: number): { items: SectionItem[]; n: number } {
  const required = items.filter((it) => it.required).sort((a, b) => a.order - b.order);
  const spared = new Set<SectionItem>([...required.slice(0, 1), ...required.slice(Math.max(1, required.length - recentKept))]);
  let n = 0;
  const out = items.map((it) => {
    const g = it.reduced?.gist;
    if (!it.required || spared.has(it) || !g || g.length >= it.forms[0]!.length) return it;
    n++;
    // Longer forms stay behind it: budget left after the floor still lengthens entries.
    return { ...it, forms: [g, ...it.forms] };
  });
  return { items: out, n };
}

/** Step 4, first part: every required entry to one short line. */
function oneLiners(items: SectionItemLists, c: SegmentConstants, users: boolean, memo: DegradeMemo): SectionItemLists {
  const out = {} as SectionItemLists;
  // The first request keeps its gist: it says what the whole conversation is for.
  const first = items[USERS].filter((it) => it.required).sort((a, b) => a.order - b.order)[0];
  for (const name of SECTION_NAMES) {
    if ((name === USERS) !== users) {
      out[name] = items[name];
      continue;
    }
    out[name] = memo.step(
      items[name],
      `oneLiners:${name === USERS}:${c.USER_MESSAGE_GIST_CHARS}:${c.USER_MESSAGE_EMERGENCY_CHARS}:${c.ENTRY_EMERGENCY_CHARS}`,
      () =>
        items[name].map((it) => {
          if (!it.required || it.reduced?.verbatim) return it;
          // A user message's gist counts what its original leaves out; other entries their first form.
          const text = bulletText(name === USERS && it.reduced?.gist ? it.reduced.gist : it.forms[0]!);
          const line =
            name === USERS
              ? gistOf(text, it === first ? c.USER_MESSAGE_GIST_CHARS : c.USER_MESSAGE_EMERGENCY_CHARS, it.reduced?.whole)
              : // A path, a signature or a command in code stays whole.
                oneLine(text, c.ENTRY_EMERGENCY_CHARS, text.match(/`[^`\n]+`/g) ?? undefined);
          const form = listItem(line);
          return form.length < it.forms[0]!.length ? { ...it, forms: [form, ...it.forms] } : it;
        }),
    );
  }
  return out;
}

/** Step 4, second part: lowest priority first, required entries become optional until the
 *  floor fits; each section then says how many of its entries were left out. */
function release(
  items: SectionItemLists,
  budget: number,
  floorOf: FloorOf,
  users: boolean,
  byName: Map<SectionName, Set<SectionItem>>,
): { items: SectionItemLists; reserve: number } {
  const all: { name: SectionName; it: SectionItem }[] = [];
  for (const name of SECTION_NAMES) if ((name === USERS) === users) for (const it of items[name]) if (it.required) all.push({ name, it });
  // Lowest priority first, then the oldest; the first request last of all.
  const firstUser = items[USERS].filter((it) => it.required).sort((a, b) => a.order - b.order)[0];
  all.sort((a, b) => (a.it === firstUser ? 1 : 0) - (b.it === firstUser ? 1 : 0) || a.it.priority - b.it.priority || a.it.order - b.it.order);
  const released = new Set<SectionItem>();
  // Room for the line that counts what each section left out (leftOutLine).
  let reserve = users ? LEFT_OUT_LINE_TOKENS : 0;
  const touched = new Set<SectionName>();
  // The floor falls by each released entry's shortest form (what floorOf counts for it).
  let floor = floorOf(items);
  for (const { name, it } of all) {
    if (floor <= Math.max(0, budget - reserve)) break;
    if (released.has(it)) continue;
    released.add(it);
    floor -= floorOf.item(it);
    if (!users && !touched.has(name)) {
      touched.add(name);
      reserve += SECTION_LEFT_OUT_TOKENS;
    }
  }
  let cur = items;
  if (released.size > 0) {
    cur = {} as SectionItemLists;
    for (const name of SECTION_NAMES) cur[name] = items[name].map((it) => (released.has(it) ? { ...it, required: false } : it));
  }
  for (const name of SECTION_NAMES) {
    cur[name].forEach((it, k) => {
      if (it.required || !items[name][k]!.required) return;
      if (!byName.has(name)) byName.set(name, new Set());
      byName.get(name)!.add(it);
    });
  }
  return { items: cur, reserve };
}

/** The material after the steps the budget and level call for, and the steps taken. */
export function degradeItems(items: SectionItemLists, opts: DegradeOptions): Degraded {
  const memo = opts.memo ?? new DegradeMemo();
  const floorOf = floorCounter(opts.tokensOf, memo.floors);
  const steps: DegradationStep[] = [];
  const released = new Map<SectionName, Set<SectionItem>>();
  let cur = items;
  // Tokens the lines saying what the emergency cut left out will take (leftOutLine).
  let notes = 0;
  const over = () => floorOf(cur) > opts.budget - notes;
  if (!over()) return { items, steps, released };
  const withUsers = (list: SectionItem[]) => ({ ...cur, [USERS]: list });

  const a = memo.step(cur[USERS], 'shorten', () => shorten(cur[USERS]));
  if (a.n > 0) {
    const before = floorOf(cur);
    cur = withUsers(a.items);
    steps.push({
      step: 'shorten-user-messages',
      detail: `${plural(a.n, 'long user message')} shortened to opening and closing words, names kept (required content ${before} → ${floorOf(cur)} tokens)`,
    });
  }
  if (over()) {
    const b = memo.step(cur[USERS], 'mergeRepeats', () => mergeRepeats(cur[USERS]));
    if (b.acks + b.similar > 0) {
      const before = floorOf(cur);
      cur = withUsers(b.items);
      const parts = [
        b.acks > 0 ? `${plural(b.acks, 'acknowledgement')} on one line` : '',
        b.similar > 0 ? `${plural(b.similar, 'near-duplicate message')} merged into their latest` : '',
      ].filter(Boolean);
      steps.push({ step: 'merge-repeats', detail: `${parts.join('; ')} (required content ${before} → ${floorOf(cur)} tokens)` });
    }
  }
  if (over()) {
    const g = memo.step(cur[USERS], `gist:${opts.c.USER_MESSAGE_RECENT_KEPT}`, () => gist(cur[USERS], opts.c.USER_MESSAGE_RECENT_KEPT));
    if (g.n > 0) {
      const before = floorOf(cur);
      cur = withUsers(g.items);
      steps.push({
        step: 'gist-user-messages',
        detail: `${plural(g.n, 'user message')} as one-line gists; the first request and the ${opts.c.USER_MESSAGE_RECENT_KEPT} most recent kept (required content ${before} → ${floorOf(cur)} tokens)`,
      });
    }
  }
  if (over() && opts.emergency) {
    // Files, errors and the rest give way before the person's own words do.
    const before = floorOf(cur);
    const parts: string[] = [];
    cur = oneLiners(cur, opts.c, false, memo);
    parts.push('files, errors and the rest on one short line each');
    if (over()) {
      const r = release(cur, opts.budget, floorOf, false, released);
      cur = r.items;
      notes = r.reserve;
    }
    if (over()) {
      cur = oneLiners(cur, opts.c, true, memo);
      parts.push('user messages to their first words (the first request to its gist)');
    }
    if (over()) cur = release(cur, opts.budget - notes, floorOf, true, released).items;
    const n = [...released.values()].reduce((s, set) => s + set.size, 0);
    if (n > 0) parts.push(`${plural(n, 'entry', 'entries')} of lowest priority no longer required`);
    steps.push({ step: 'cut-required', detail: `${parts.join('; ')} (required content ${before} → ${floorOf(cur)} tokens)` });
  }
  return { items: cur, steps, released };
}
