// Before/after of a whole conversation, computed so that 5,000 messages or a 1.5 MB transcript
// stay responsive.
//
// A line diff of the two conversations as flat text is quadratic in the worst case (Myers is
// O(N·D), and a compaction removes most lines). The plan already says which original message
// became which result message, so the conversation is aligned by message id first (linear), and
// the `diff` package then diffs lines only inside messages that exist on both sides but changed
// (truncated, masked, offloaded). Each such message gets a time limit; past it, the message is
// shown as replaced. The work runs in slices on the webview's thread (see timeSlices.ts) rather
// than in a Worker, which the CSP would have to allow from a blob: URL.

import { diffLines, diffWordsWithSpace, type Change } from 'diff';
import type { MessageView, ResultMessageView } from '../../../src/shared/protocol';

/** Longest one message's line diff may take before it is shown as replaced instead. */
export const DIFF_TIMEOUT_MS = 200;
/** Lines longer than this are not word-diffed (word diffs of huge lines cost more than they show). */
export const WORD_DIFF_MAX_CHARS = 500;

export type BlockKind = 'unchanged' | 'removed' | 'added' | 'changed';

export interface DiffBlock {
  kind: BlockKind;
  /** The original message (absent for a message the compaction added, e.g. the summary). */
  before?: MessageView;
  /** The result message (absent for a message the compaction removed). */
  after?: ResultMessageView;
  /** Line changes of a changed block, once computed. */
  changes?: Change[];
  /** The line diff took too long: shown as all removed, then all added. */
  gaveUp?: boolean;
}

export type LineOp = 'ctx' | 'del' | 'add';

export interface DiffLine {
  op: LineOp;
  text: string;
  /** 1-based line number within the original message / the result message. */
  oldNo?: number;
  newNo?: number;
}

export interface DiffStats {
  removedLines: number;
  addedLines: number;
  unchanged: number;
  removed: number;
  added: number;
  changed: number;
}

/** Pairs result messages with original ones: by id first, then (for results whose id is new)
 *  by identical role and text, so a result that re-keyed a verbatim message still lines up. */
export function alignMessages(before: readonly MessageView[], after: readonly ResultMessageView[]): DiffBlock[] {
  const byId = new Map<string, number>();
  before.forEach((m, i) => byId.set(m.id, i));
  let byText: Map<string, number[]> | undefined;
  const blocks: DiffBlock[] = [];
  let next = 0;
  const emitRemovedUntil = (end: number) => {
    for (; next < end; next++) blocks.push({ kind: 'removed', before: before[next]! });
  };
  for (const a of after) {
    let j = byId.get(a.id);
    if (j === undefined || j < next) {
      byText ??= indexByText(before);
      const candidates = byText.get(`${a.role}\u0000${a.text}`);
      while (candidates && candidates.length > 0 && candidates[0]! < next) candidates.shift();
      j = candidates?.shift();
    }
    if (j === undefined || j < next) {
      blocks.push({ kind: 'added', after: a });
      continue;
    }
    emitRemovedUntil(j);
    const b = before[j]!;
    blocks.push({ kind: b.text === a.text ? 'unchanged' : 'changed', before: b, after: a });
    next = j + 1;
  }
  emitRemovedUntil(before.length);
  return blocks;
}

function indexByText(before: readonly MessageView[]): Map<string, number[]> {
  const map = new Map<string, number[]>();
  before.forEach((m, i) => {
    const key = `${m.role}\u0000${m.text}`;
    const list = map.get(key);
    if (list) list.push(i);
    else map.set(key, [i]);
  });
  return map;
}

/** Runs the line diff of a changed block (no-op for the other kinds or when already done). */
export function computeBlock(block: DiffBlock): void {
  if (block.kind !== 'changed' || block.changes || block.gaveUp) return;
  // Both end with a newline, so a last line that only gained a successor is not a change.
  const changes = diffLines(endLine(block.before!.text), endLine(block.after!.text), { timeout: DIFF_TIMEOUT_MS });
  if (changes) block.changes = changes;
  else block.gaveUp = true;
}

function endLine(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function countLines(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) if (i < text.length - 1) n++;
  return n;
}

/** The lines of a block, in unified order. */
export function blockLines(block: DiffBlock): DiffLine[] {
  const out: DiffLine[] = [];
  const removeAll = (text: string) => splitLines(text).forEach((t, i) => out.push({ op: 'del', text: t, oldNo: i + 1 }));
  const addAll = (text: string) => splitLines(text).forEach((t, i) => out.push({ op: 'add', text: t, newNo: i + 1 }));
  switch (block.kind) {
    case 'removed':
      removeAll(block.before!.text);
      return out;
    case 'added':
      addAll(block.after!.text);
      return out;
    case 'unchanged':
      splitLines(block.before!.text).forEach((t, i) => out.push({ op: 'ctx', text: t, oldNo: i + 1, newNo: i + 1 }));
      return out;
    case 'changed': {
      computeBlock(block);
      if (!block.changes) {
        removeAll(block.before!.text);
        addAll(block.after!.text);
        return out;
      }
      let oldNo = 1;
      let newNo = 1;
      for (const c of block.changes) {
        for (const t of splitLines(c.value)) {
          if (c.removed) out.push({ op: 'del', text: t, oldNo: oldNo++ });
          else if (c.added) out.push({ op: 'add', text: t, newNo: newNo++ });
          else out.push({ op: 'ctx', text: t, oldNo: oldNo++, newNo: newNo++ });
        }
      }
      return out;
    }
  }
}

/** Lines added and removed by a block, without building its lines. */
export function blockLineCounts(block: DiffBlock): { removed: number; added: number } {
  switch (block.kind) {
    case 'removed':
      return { removed: countLines(block.before!.text), added: 0 };
    case 'added':
      return { removed: 0, added: countLines(block.after!.text) };
    case 'unchanged':
      return { removed: 0, added: 0 };
    case 'changed': {
      computeBlock(block);
      if (!block.changes) return { removed: countLines(block.before!.text), added: countLines(block.after!.text) };
      let removed = 0;
      let added = 0;
      for (const c of block.changes) {
        if (c.removed) removed += c.count;
        else if (c.added) added += c.count;
      }
      return { removed, added };
    }
  }
}

export function emptyStats(): DiffStats {
  return { removedLines: 0, addedLines: 0, unchanged: 0, removed: 0, added: 0, changed: 0 };
}

export function addToStats(stats: DiffStats, block: DiffBlock): void {
  const n = blockLineCounts(block);
  stats.removedLines += n.removed;
  stats.addedLines += n.added;
  stats[block.kind]++;
}

/** A removed line next to the added line that replaced it, for side-by-side rows and word
 *  highlights: a run of removals followed by a run of additions pairs up line by line. */
export interface LinePair {
  left?: DiffLine;
  right?: DiffLine;
}

export function pairLines(lines: readonly DiffLine[]): LinePair[] {
  const out: LinePair[] = [];
  let i = 0;
  while (i < lines.length) {
    const l = lines[i]!;
    if (l.op === 'ctx') {
      out.push({ left: l, right: l });
      i++;
      continue;
    }
    const dels: DiffLine[] = [];
    const adds: DiffLine[] = [];
    while (i < lines.length && lines[i]!.op === 'del') dels.push(lines[i++]!);
    while (i < lines.length && lines[i]!.op === 'add') adds.push(lines[i++]!);
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
      const pair: LinePair = {};
      if (dels[k]) pair.left = dels[k];
      if (adds[k]) pair.right = adds[k];
      out.push(pair);
    }
  }
  return out;
}

/** Word-level changes between a removed line and its replacement, when both are short enough. */
export function wordChanges(oldLine: string, newLine: string): Change[] | undefined {
  if (oldLine.length > WORD_DIFF_MAX_CHARS || newLine.length > WORD_DIFF_MAX_CHARS) return undefined;
  return diffWordsWithSpace(oldLine, newLine);
}
