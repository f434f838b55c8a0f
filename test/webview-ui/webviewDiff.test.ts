// The webview's pure parts, without a browser: how the diff lines the two conversations up and
// what it shows at first, the pin/restore edit rules, and reading saved UI state defensively.

import { describe, expect, it } from 'vitest';
import type { MessageView, ResultMessageView } from '../../src/shared/protocol';
import { alignMessages, blockLines, blockLineCounts, countLines, pairLines, type DiffLine } from '../../webview-ui/src/diff/conversationDiff';
import { editCount, isPinned, planEditKey, setUpTo, toggleOffload, togglePin, toggleRestore } from '../../webview-ui/src/state/edits';
import { emptyEdits, readUiState } from '../../webview-ui/src/state/uiState';
import { condense, REMOVED_RUN_LINES, CONTEXT_LINES } from '../../webview-ui/src/views/diffView';

function mv(id: string, text: string, extra: Partial<MessageView> = {}): MessageView {
  return {
    id,
    index: 0,
    role: 'assistant',
    itemType: 'ASSISTANT_MESSAGE',
    text,
    tokens: 10,
    tokensAfter: 0,
    decision: 'summarized',
    reason: '',
    importance: { criticality: 0, dependency: 0, uniqueness: 0, actionability: 0, overall: 0, temporal: 0, temporalCategory: 'historical' },
    contentType: 'general',
    pinned: false,
    ...extra,
  };
}

function rv(id: string, text: string, role: ResultMessageView['role'] = 'assistant'): ResultMessageView {
  return { id, role, itemType: 'ASSISTANT_MESSAGE', text };
}

describe('conversation diff', () => {
  it('aligns by id: removed originals, the added summary, unchanged and shortened messages, in order', () => {
    const before = [mv('s', 'system'), mv('1', 'old one'), mv('2', 'old two'), mv('3', 'tool output\nline 2\nline 3'), mv('4', 'recent')];
    const after = [rv('s', 'system'), rv('sum', '## Summary'), rv('3', '[masked]'), rv('4', 'recent')];
    const blocks = alignMessages(before, after);
    expect(blocks.map((b) => [b.kind, b.before?.id ?? null, b.after?.id ?? null])).toEqual([
      ['unchanged', 's', 's'],
      ['added', null, 'sum'],
      ['removed', '1', null],
      ['removed', '2', null],
      ['changed', '3', '3'],
      ['unchanged', '4', '4'],
    ]);
    expect(blockLineCounts(blocks[4]!)).toEqual({ removed: 3, added: 1 });
  });

  it('lines up a verbatim message the result re-keyed, by role and text', () => {
    const before = [mv('1', 'alpha'), mv('2', 'beta')];
    const blocks = alignMessages(before, [rv('new-2', 'beta')]);
    expect(blocks.map((b) => b.kind)).toEqual(['removed', 'unchanged']);
  });

  it('numbers lines within each message and diffs changed messages by line', () => {
    const [block] = alignMessages([mv('1', 'a\nb\nc\nd')], [rv('1', 'a\nB\nc\nd\ne')]);
    const lines = blockLines(block!);
    expect(lines).toEqual([
      { op: 'ctx', text: 'a', oldNo: 1, newNo: 1 },
      { op: 'del', text: 'b', oldNo: 2 },
      { op: 'add', text: 'B', newNo: 2 },
      { op: 'ctx', text: 'c', oldNo: 3, newNo: 3 },
      { op: 'ctx', text: 'd', oldNo: 4, newNo: 4 },
      { op: 'add', text: 'e', newNo: 5 },
    ]);
    expect(pairLines(lines).filter((p) => p.left !== p.right)).toEqual([{ left: lines[1], right: lines[2] }, { right: lines[5] }]);
  });

  it('counts lines as the diff splits them', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('one')).toBe(1);
    expect(countLines('one\n')).toBe(1);
    expect(countLines('one\ntwo')).toBe(2);
  });

  it('shows the start of long runs and hides the rest behind expanders (whole view); one message shows in full', () => {
    const del: DiffLine[] = Array.from({ length: 50 }, (_, i) => ({ op: 'del', text: `old ${i}`, oldNo: i + 1 }));
    const add: DiffLine = { op: 'add', text: '[masked]', newNo: 1 };
    const chunks = condense([...del, add], 'changed', false);
    expect(chunks.map((c) => ('shown' in c ? `shown ${c.shown.length}` : `hidden ${c.hidden.length}`))).toEqual([
      `shown ${REMOVED_RUN_LINES}`,
      `hidden ${50 - REMOVED_RUN_LINES}`,
      'shown 1',
    ]);
    const ctx: DiffLine[] = Array.from({ length: 20 }, (_, i) => ({ op: 'ctx', text: `same ${i}`, oldNo: i + 1, newNo: i + 1 }));
    const mid = condense([add, ...ctx, add], 'changed', false);
    expect(mid.map((c) => ('shown' in c ? c.shown.length : -c.hidden.length))).toEqual([1 + CONTEXT_LINES, -(20 - 2 * CONTEXT_LINES), CONTEXT_LINES + 1]);
    expect(condense(ctx, 'unchanged', false)).toEqual([{ hidden: ctx, what: 'unchanged lines' }]);
    expect(condense([...del, add], 'changed', true)).toEqual([{ shown: [...del, add] }]);
  });
});

describe('inspector edits', () => {
  it('a pin toggled twice is no edit at all; unpinning a pinned message is an unpin edit', () => {
    const e = emptyEdits();
    const m = mv('x', 't');
    togglePin(e, m);
    expect(e.pin).toEqual(['x']);
    expect(isPinned(e, m)).toBe(true);
    togglePin(e, m);
    expect(e).toEqual(emptyEdits());
    const pinned = mv('p', 't', { pinned: true });
    togglePin(e, pinned);
    expect(e.unpin).toEqual(['p']);
    expect(isPinned(e, pinned)).toBe(false);
    toggleRestore(e, 'r');
    expect(planEditKey(e)).not.toBe(planEditKey(emptyEdits()));
    toggleRestore(e, 'r');
    togglePin(e, pinned);
    expect(planEditKey(e)).toBe(planEditKey(emptyEdits()));
  });

  it('a range and offloads exclude each other (an offload is a compaction of its own); each needs a new preview', () => {
    const e = emptyEdits();
    setUpTo(e, 'm7');
    expect(planEditKey(e)).not.toBe(planEditKey(emptyEdits()));
    expect(editCount(e)).toBe(1);
    toggleOffload(e, 't3');
    expect(e.upTo).toBeUndefined();
    expect(e.offload).toEqual(['t3']);
    toggleOffload(e, 't4');
    setUpTo(e, 'm9');
    expect([e.upTo, e.offload]).toEqual(['m9', []]);
    setUpTo(e, undefined);
    expect(e).toEqual(emptyEdits());
    // Saved and read back after a reload.
    toggleOffload(e, 't3');
    expect(readUiState({ edits: { ...e, upTo: 5 } }).edits).toEqual({ sections: {}, restore: [], pin: [], unpin: [], offload: ['t3'] });
    expect(readUiState({ edits: { upTo: 'm2' } }).edits.upTo).toBe('m2');
  });

  it('reads saved state field by field, dropping what does not fit', () => {
    const s = readUiState({
      version: 1,
      key: 'k',
      roles: ['user', 'wizard', 3],
      decisions: ['kept', 'vanished'],
      search: 7,
      timelineScroll: Number.NaN,
      diffMode: 'sideways',
      edits: { sections: { 'Current Work': 'mine', 'Made Up': 'x' }, restore: ['a', 1], pin: 'b' },
    });
    expect(s).toEqual({
      version: 1,
      key: 'k',
      roles: ['user'],
      decisions: ['kept'],
      search: '',
      timelineScroll: 0,
      diffMode: 'unified',
      edits: { sections: { 'Current Work': 'mine' }, restore: ['a'], pin: [], unpin: [], offload: [] },
    });
    expect(readUiState('garbage')).toEqual(readUiState(undefined));
  });
});
