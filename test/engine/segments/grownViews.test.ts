// What a longer span reuses from the shorter span it extends gives exactly what reading the
// longer span afresh gives: the span view extended by the new messages (extendSpanView), and the
// ledger's fold resumed from the last span's (ledgerOf with a memo), the span cut from a view
// (viewPrefix) — on a real transcript cut at many points, and on calls whose results come after
// the cut or share an id.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MessageAnalysis } from '../../../src/engine/analyze/analysis';
import { analyzeConversation } from '../../../src/engine/analyze/analyzeConversation';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import { MessageMemo } from '../../../src/engine/conversation/messageMemo';
import type { Message } from '../../../src/engine/conversation/model';
import { buildSectionMaterial } from '../../../src/engine/segments/extractSections';
import { advanceLaterScan, laterScan } from '../../../src/engine/segments/laterEvidence';
import { ledgerOf } from '../../../src/engine/segments/ledger';
import { emptySectionTexts } from '../../../src/engine/sections';
import { spanFacts } from '../../../src/engine/validate/facts';
import { extendSpanView } from '../../../src/engine/segments/grownView';
import { buildSpanView, viewPrefix } from '../../../src/engine/segments/spanView';
import { ConversationBuilder } from '../../helpers/compactorFixtures';
import { transcriptPath } from '../../helpers/transcripts';

function realMessages(): Message[] {
  const path = transcriptPath('claude-code/kiliman__claude-transcript__test2.jsonl');
  return importTranscript(readFileSync(path, 'utf8'), { sourcePath: path, wholeFile: true }).conversation.messages;
}

/** Calls answered after other messages, a result whose call comes later, two calls sharing an
 *  id, a call the person declined. */
function tangledMessages(): Message[] {
  const b = new ConversationBuilder().user('Fix the failing test in src/a.ts and keep a todo list.');
  b.tool('TodoWrite', { todos: [{ content: 'Fix src/a.ts', status: 'in_progress' }] }, 'ok');
  const call = (id: string, file: string): Message => ({
    id: `a-${id}-${file}`,
    role: 'assistant',
    itemType: 'ASSISTANT_MESSAGE',
    content: [],
    toolCalls: [{ id, name: 'Read', arguments: JSON.stringify({ file_path: file }) }],
  });
  const result = (id: string, k: number): Message => ({
    id: `r-${id}-${k}`,
    role: 'tool',
    itemType: 'TOOL_RESULT',
    content: [{ type: 'text', text: `result ${k}` }],
    toolResult: { toolCallId: id, isError: k % 2 === 0, toolName: 'Read' },
  });
  b.messages.push(result('late', 0), call('x', 'src/a.ts'), call('y', 'src/b.ts'));
  b.user('Also look at src/c.ts.');
  b.messages.push(result('x', 1), call('x', 'src/c.ts'), result('x', 2), result('y', 3), result('x', 4), call('late', 'src/d.ts'));
  b.tool('TodoWrite', { todos: [{ content: 'Fix src/a.ts', status: 'completed' }] }, 'ok');
  b.messages.push(call('no', 'src/e.ts'), { ...result('no', 5), content: [{ type: 'text', text: "The user doesn't want to proceed with this tool use." }] });
  b.user('Cancel the fix of src/a.ts, we keep it.');
  return b.messages;
}

/** The analyses with some of the earlier ones replaced by equal new objects (a grown
 *  conversation re-scores its older messages). */
function reanalyzed(analyses: readonly (MessageAnalysis | undefined)[]): (MessageAnalysis | undefined)[] {
  return analyses.map((a, i) => (a && i % 3 === 0 ? { ...a, importance: { ...a.importance, overall: a.importance.overall / 2 } } : a));
}

/** The conversations every resumed reading is checked on. */
const SOURCES: [string, () => Message[]][] = [
  ['a real Claude Code session', realMessages],
  ['calls answered late, or sharing an id', tangledMessages],
];

describe('a span extended by new messages reads as the whole span read afresh', () => {
  it.each(SOURCES)('%s: the view, at every cut', (_name, make) => {
    const messages = make();
    const analyses = analyzeConversation(messages).messages;
    const later = reanalyzed(analyses);
    const n = messages.length;
    const cuts = n < 40 ? Array.from({ length: n + 1 }, (_, k) => k) : [0, 1, 2, Math.floor(n / 3), Math.floor(n / 2) + 1, n - 7, n - 1, n];
    for (const k of cuts) {
      const memo = new MessageMemo();
      const before = buildSpanView(messages.slice(0, k), analyses.slice(0, k), memo);
      const snapshot = structuredClone({ calls: before.calls, callOfResult: [...before.callOfResult], callsAt: [...before.callsAt] });
      const extended = extendSpanView(before, messages, later, memo);
      expect(extended, `cut at ${k}`).toEqual(buildSpanView(messages, later, memo));
      // The shorter view is left as it was.
      expect({ calls: before.calls, callOfResult: [...before.callOfResult], callsAt: [...before.callsAt] }).toEqual(snapshot);
      // Each call the maps hold is one of the view's calls.
      const calls = new Set(extended.calls);
      for (const c of [...extended.callOfResult.values(), ...[...extended.callsAt.values()].flat()]) expect(calls.has(c)).toBe(true);
    }
  });

  it.each(SOURCES)('%s: the span cut from a view, kept for the next cut of the same view', (_name, make) => {
    const messages = make();
    const view = buildSpanView(messages, analyzeConversation(messages).messages);
    const n = messages.length;
    for (const k of [0, 1, Math.floor(n / 3), Math.floor(n / 3), n - 1, Math.floor(n / 2), n - 1, n]) {
      const cut = viewPrefix(view, k);
      expect(cut, `cut at ${k}`).toEqual(
        buildSpanView(
          messages.slice(0, k),
          view.messages.slice(0, k).map((sm) => sm.analysis),
        ),
      );
      // The same cut of the same view is the object cut before.
      expect(viewPrefix(view, k)).toBe(cut);
    }
  });

  it.each(SOURCES)('%s: the ledger, resumed span after span', (_name, make) => {
    const messages = make();
    const analyses = analyzeConversation(messages).messages;
    const memo = new MessageMemo();
    const n = messages.length;
    const previous = [{ kind: 'Rule' as const, where: 'user, message 1', text: 'Never push to main.' }];
    // Growing spans resume; a shorter one, or another previous ledger, starts over.
    for (const k of [1, Math.floor(n / 4), Math.floor(n / 2), n - 1, n, Math.floor(n / 3), n]) {
      const view = buildSpanView(messages.slice(0, k), analyses.slice(0, k), memo);
      expect(ledgerOf(view, [], memo), `span of ${k}`).toEqual(ledgerOf(view));
      expect(ledgerOf(view, previous, memo), `span of ${k} onto a ledger`).toEqual(ledgerOf(view, previous));
      const kept = view.messages.find((sm) => sm.userAuthored);
      if (kept) expect(ledgerOf(view, [], memo, kept)).toEqual(ledgerOf(view, [], undefined, kept));
    }
  });

  it('the items read from the span alone are kept while its references and the summary it continues are the same', () => {
    const messages = realMessages();
    const analyses = analyzeConversation(messages).messages;
    const memo = new MessageMemo();
    const previous = { ...emptySectionTexts(), 'Files and Code Sections': '- `src/old.ts` — edited', 'Key Technical Concepts': '- `OldThing`, `OtherThing`' };
    const otherRefs = analyses.map((a, i) => (a && i % 5 === 0 ? { ...a, refs: { ...a.refs, files: ['src/other.ts'], identifiers: ['OtherThing'] } } : a));
    const cases: [(MessageAnalysis | undefined)[], { previous?: typeof previous }][] = [
      [analyses, {}],
      [reanalyzed(analyses), {}],
      [otherRefs, {}],
      [otherRefs, { previous }],
      [analyses, { previous }],
    ];
    for (const [list, opts] of cases)
      expect(buildSectionMaterial(messages, list, { ...opts, memo }).items).toEqual(buildSectionMaterial(messages, list, opts).items);
    // Only the importance changed: the same items, not read again.
    const once = buildSectionMaterial(messages, analyses, { memo }).items;
    const again = buildSectionMaterial(messages, reanalyzed(analyses), { memo }).items;
    expect(again['Files and Code Sections']).toBe(once['Files and Code Sections']);
    expect(again['Key Technical Concepts']).toBe(once['Key Technical Concepts']);
  });

  it("the span's facts are kept while its messages and their references are the same", () => {
    const messages = realMessages();
    const analyses = analyzeConversation(messages).messages;
    const memo = new MessageMemo();
    const otherRefs = analyses.map((a, i) =>
      a && i % 7 === 0 ? { ...a, refs: { ...a.refs, files: ['src/other.ts'], errors: ['TypeError: x is not a function'] } } : a,
    );
    for (const list of [analyses, reanalyzed(analyses), otherRefs, analyses]) expect(spanFacts(messages, list, { memo })).toEqual(spanFacts(messages, list));
    const shorter = messages.slice(0, -3);
    expect(spanFacts(shorter, analyses.slice(0, -3), { memo })).toEqual(spanFacts(shorter, analyses.slice(0, -3)));
    const once = spanFacts(messages, analyses, { memo });
    expect(spanFacts(messages, reanalyzed(analyses), { memo })).toBe(once);
  });

  it.each(SOURCES)("%s: the span's errors are kept while its messages, references and result calls are the same, as messages come after it", (_name, make) => {
    const messages = make();
    const analyses = analyzeConversation(messages).messages;
    const memo = new MessageMemo();
    const n = messages.length;
    const otherErrors = analyses.map((a, i) => (a && i % 4 === 1 ? { ...a, refs: { ...a.refs, errors: ['TypeError: x is not a function'] } } : a));
    const errorsOf = (k: number, to: number, list: readonly (MessageAnalysis | undefined)[], withMemo: boolean) =>
      buildSectionMaterial(messages.slice(0, k), list.slice(0, k), {
        after: { messages: messages.slice(k, to), analyses: list.slice(k, to) as MessageAnalysis[] },
        ...(withMemo ? { memo } : {}),
      }).items['Errors and fixes'];
    // One span, more and more messages after it; another span; other references, in the span
    // or only after it.
    const k = Math.floor(n / 2);
    // An error of the span recurring after it.
    const recurring = analyses.slice(0, k).find((a) => a && a.refs.errors.length > 0)?.refs.errors[0] ?? 'TypeError: x is not a function';
    const laterErrors = analyses.map((a, i) => (a && i >= k && i % 4 === 1 ? { ...a, refs: { ...a.refs, errors: [recurring] } } : a));
    for (const [span, to, list] of [
      [k, k, analyses],
      [k, k + 1, analyses],
      [k, Math.min(n, k + 3), reanalyzed(analyses)],
      [k, n - 1, analyses],
      [k, n, analyses],
      [k - 1, n, analyses],
      [k - 1, n, otherErrors],
      [k, n, otherErrors],
      [k, n, analyses],
      [k, n - 1, analyses],
      [k, n, laterErrors],
      [k, n, analyses],
    ] as const) {
      const warm = errorsOf(span, to, list, true);
      expect(warm, `span ${span}, to ${to}`).toEqual(errorsOf(span, to, list, false));
    }
    const once = errorsOf(k, n, analyses, true);
    expect(once.length).toBeGreaterThan(0);
    // A re-plan of the same span and messages writes its entries again only for errors that
    // recur after the span: the others keep their forms.
    const again = errorsOf(k, n, reanalyzed(analyses), true);
    expect(again.map((it) => it.forms)).toEqual(once.map((it) => it.forms));
    expect(again.some((it, j) => it.key.startsWith('error:') && it.forms === once[j]!.forms)).toBe(true);
  });

  it('a call the person declined is listed as such, with the span read afresh or kept', () => {
    const messages = tangledMessages();
    const analyses = analyzeConversation(messages).messages;
    const memo = new MessageMemo();
    const n = messages.length;
    for (const k of [n - 2, n - 1, n]) {
      const read = (withMemo: boolean) => buildSectionMaterial(messages.slice(0, k), analyses.slice(0, k), withMemo ? { memo } : {}).items['Errors and fixes'];
      const warm = read(true);
      expect(warm).toEqual(read(false));
      expect(warm.some((it) => it.key === 'rejected:no')).toBe(k >= n - 1);
    }
  });

  it.each(SOURCES)("%s: the span's facts, the scan resumed span after span", (_name, make) => {
    const messages = make();
    const analyses = analyzeConversation(messages).messages;
    const otherRefs = analyses.map((a, i) => (a && i % 3 === 0 ? { ...a, refs: { ...a.refs, files: ['src/other.ts'] } } : a));
    const memo = new MessageMemo();
    const n = messages.length;
    // Growing spans resume the scan; a shorter one, or the same messages with other references
    // among the first ones, scan again.
    const spans: [number, (MessageAnalysis | undefined)[]][] = [
      [1, analyses],
      [Math.floor(n / 4), analyses],
      [Math.floor(n / 2), analyses],
      [n - 1, analyses],
      [n, analyses],
      [Math.floor(n / 3), analyses],
      [n, otherRefs],
      [n, analyses],
    ];
    for (const [k, list] of spans) {
      expect(spanFacts(messages.slice(0, k), list.slice(0, k), { memo }), `span of ${k}`).toEqual(spanFacts(messages.slice(0, k), list.slice(0, k)));
    }
  });

  it.each(SOURCES)('%s: what comes after each error, scanned in steps, is what one scan finds', (_name, make) => {
    const messages = make();
    const view = buildSpanView(messages, analyzeConversation(messages).messages);
    const failed = (pos: number) => pos % 5 === 0;
    const once = laterScan();
    advanceLaterScan(once, view, 0, failed);
    const steps = laterScan();
    for (let from = 0; from < messages.length; from += 3) advanceLaterScan(steps, { ...view, messages: view.messages.slice(0, from + 3) }, from, failed);
    expect(steps).toEqual(once);
    expect(once.editPath.length + once.byCommand.size + once.persons.length).toBeGreaterThan(0);
  });

  it.each(SOURCES)('%s: the technical concepts, the scan resumed span after span', (_name, make) => {
    const messages = make();
    const analyses = analyzeConversation(messages).messages;
    const otherRefs = analyses.map((a, i) => (a && i % 3 === 0 ? { ...a, refs: { ...a.refs, identifiers: ['OtherThing'] } } : a));
    const previous = { ...emptySectionTexts(), 'Key Technical Concepts': '- `OldThing`, `OtherThing`' };
    const memo = new MessageMemo();
    const n = messages.length;
    // Growing spans resume the scan; a shorter one, other references among the first messages
    // or another earlier section scan again.
    const spans: [number, (MessageAnalysis | undefined)[], { previous?: typeof previous }][] = [
      [1, analyses, {}],
      [Math.floor(n / 4), analyses, {}],
      [Math.floor(n / 2), analyses, {}],
      [n, analyses, {}],
      [Math.floor(n / 3), analyses, {}],
      [n, otherRefs, {}],
      [n, analyses, {}],
      [n, analyses, { previous }],
      [n, otherRefs, { previous }],
    ];
    const concepts = (k: number, list: (MessageAnalysis | undefined)[], opts: { previous?: typeof previous; memo?: MessageMemo }) =>
      buildSectionMaterial(messages.slice(0, k), list.slice(0, k), opts).items['Key Technical Concepts'];
    for (const [k, list, opts] of spans) expect(concepts(k, list, { ...opts, memo }), `span of ${k}`).toEqual(concepts(k, list, opts));
  });
});
