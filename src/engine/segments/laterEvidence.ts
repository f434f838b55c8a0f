// What the timeline shows after a position, for the status of an error (errorsAndFixes.ts): the
// files edited later, the same command run clean later, the person saying it works.

import { confirmsItWorks, isPersonsMessage } from './evidence';
import type { SpanMessage, SpanToolCall, SpanView } from './spanView';
import { collapseWhitespace } from '../text/textCut';

/** Arguments that say nothing about what a call did (aider's output runs are all `aider {}`). */
const NO_ARGUMENTS = /^\s*(?:\{\s*\}|\[\s*\]|null|"")?\s*$/;

/** `path` and every part of it after a slash ("a/b/c.ts", "b/c.ts", "c.ts"): the paths another
 *  path equals or ends in "/…" with, as samePath reads them. */
function pathTails(path: string): string[] {
  const out = [path];
  for (let k = path.indexOf('/'); k >= 0; k = path.indexOf('/', k + 1)) out.push(path.slice(k + 1));
  return out;
}

/** The first index in ascending `xs` that is greater than `x` (xs.length when none). */
export function firstAfter(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** What the timeline shows after a position, prepared once for every error group: each question
 *  an error's status asks ("was a file it names edited later?", "did the same command run clean
 *  later?") is answered by a lookup instead of a walk over the rest of the conversation. */
export interface LaterEvidence {
  /** The first three files edited or created after `pos` (distinct, in order). */
  editedAfter(pos: number): string[];
  /** The first file edited or created after `pos` that is one of `files`: the same path, or one
   *  is the other with leading folders. */
  namedEditAfter(pos: number, files: readonly string[]): string | undefined;
  /** Whether the same command as `call` ran clean after `pos`: the same shell line (whitespace
   *  aside), or the same tool with the same arguments when those arguments identify something
   *  (two argument-less calls are not "the same run"). */
  cleanRunAfter(pos: number, call: SpanToolCall | undefined): boolean;
  /** Whether a tool result or a person's message comes after `pos`. */
  activityAfter(pos: number): boolean;
  /** The person's first message after `pos` says it works (confirmsItWorks). */
  confirmedAfter(pos: number): boolean;
}

/** What laterEvidence reads, scanned over the timeline's messages in order (advanceLaterScan): a
 *  timeline that grew at its end (a re-plan of the same span) reads only its new messages. */
export interface LaterScan {
  /** Every edit or creation, in the order of the calls and of their files. */
  editPos: number[];
  editPath: string[];
  /** Edits by each tail of their path, and by their path exactly (ascending edit indices). */
  byTail: Map<string, number[]>;
  byPath: Map<string, number[]>;
  /** Calls that ran clean: the latest position of each command line and of each tool with its arguments. */
  byCommand: Map<string, number>;
  byNameArgs: Map<string, Map<string, number>>;
  byNameArgsNoCommand: Map<string, Map<string, number>>;
  lastActivity: number;
  persons: SpanMessage[];
  personPos: number[];
}

export function laterScan(): LaterScan {
  return {
    editPos: [],
    editPath: [],
    byTail: new Map(),
    byPath: new Map(),
    byCommand: new Map(),
    byNameArgs: new Map(),
    byNameArgsNoCommand: new Map(),
    lastActivity: -1,
    persons: [],
    personPos: [],
  };
}

/** The latest of two positions (a call that ran clean again later). */
function setLatest(map: Map<string, number>, key: string, pos: number): void {
  const at = map.get(key);
  if (at === undefined || pos > at) map.set(key, pos);
}

/** Scans timeline.messages[from…] into `scan`; `failed(pos)`: whether the result at `pos` carried
 *  an error signature. A call's result comes after it, so a call that ran clean is counted at
 *  its result. */
export function advanceLaterScan(scan: LaterScan, timeline: SpanView, from: number, failed: (pos: number) => boolean): void {
  const latest = (map: Map<string, Map<string, number>>, call: SpanToolCall) => {
    const inner = map.get(call.name) ?? map.set(call.name, new Map()).get(call.name)!;
    setLatest(inner, call.call.arguments, call.pos);
  };
  for (let p = from; p < timeline.messages.length; p++) {
    const m = timeline.messages[p]!;
    for (const call of timeline.callsAt.get(m.pos) ?? []) {
      for (const f of call.files) {
        if (f.action !== 'edited' && f.action !== 'created') continue;
        const j = scan.editPath.length;
        scan.editPos.push(call.pos);
        scan.editPath.push(f.path);
        for (const t of pathTails(f.path)) push(scan.byTail, t, j);
        push(scan.byPath, f.path, j);
      }
    }
    const call = timeline.callOfResult.get(m.pos);
    if (call && !failed(m.pos) && !m.message.toolResult?.isError) {
      if (call.command !== undefined) setLatest(scan.byCommand, collapseWhitespace(call.command), call.pos);
      else latest(scan.byNameArgsNoCommand, call);
      latest(scan.byNameArgs, call);
    }
    if (m.message.toolResult !== undefined || m.userAuthored) scan.lastActivity = m.pos;
    if (isPersonsMessage(m)) {
      scan.persons.push(m);
      scan.personPos.push(m.pos);
    }
  }
}

/** The answers of a scanned timeline (advanceLaterScan), read now: the scan may grow later. */
export function laterEvidence(scan: LaterScan): LaterEvidence {
  const { editPos, editPath, byTail, byPath, byCommand, byNameArgs, byNameArgsNoCommand, lastActivity, persons, personPos } = scan;
  // The first three distinct paths from each edit on, found when asked (a few errors ask).
  const firstThree = new Map<number, string[]>();
  const firstThreeFrom = (j: number): string[] => {
    let out = firstThree.get(j);
    if (out) return out;
    out = [];
    for (let k = j; k < editPath.length && out.length < 3; k++) if (!out.includes(editPath[k]!)) out.push(editPath[k]!);
    firstThree.set(j, out);
    return out;
  };
  return {
    editedAfter: (pos) => firstThreeFrom(firstAfter(editPos, pos)),
    namedEditAfter: (pos, files) => {
      const from = firstAfter(editPos, pos);
      let best = Number.POSITIVE_INFINITY;
      const consider = (list: readonly number[] | undefined) => {
        if (!list) return;
        let lo = 0;
        let hi = list.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (list[mid]! >= from) hi = mid;
          else lo = mid + 1;
        }
        if (lo < list.length && list[lo]! < best) best = list[lo]!;
      };
      for (const n of files) {
        consider(byTail.get(n)); // an edited path equal to n or ending in "/n"
        for (const t of pathTails(n).slice(1)) consider(byPath.get(t)); // n ending in "/path"
      }
      return best < editPath.length ? editPath[best] : undefined;
    },
    cleanRunAfter: (pos, a) => {
      if (!a) return false;
      const after = (at: number | undefined) => at !== undefined && at > pos;
      const sameArgs = (map: Map<string, Map<string, number>>) => !NO_ARGUMENTS.test(a.call.arguments) && after(map.get(a.name)?.get(a.call.arguments));
      if (a.command !== undefined) return after(byCommand.get(collapseWhitespace(a.command))) || sameArgs(byNameArgsNoCommand);
      return sameArgs(byNameArgs);
    },
    activityAfter: (pos) => lastActivity > pos,
    confirmedAfter: (pos) => {
      const next = persons[firstAfter(personPos, pos)];
      return next !== undefined && confirmsItWorks(next);
    },
  };
}
