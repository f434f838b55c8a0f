// A span view extended by the messages that follow it (a conversation that grew, a span grown
// into the kept tail): what the shorter view holds is kept and only the new messages are read.

import type { MessageAnalysis } from '../analyze/analysis';
import type { MessageMemo } from '../conversation/messageMemo';
import type { Message } from '../conversation/model';
import { buildSpanView, type SpanToolCall, type SpanView } from './spanView';

/** The view of `span` from `view`, the view of its first messages with the same message objects
 *  (a conversation that grew): what `view` holds is kept — the messages whose analysis is the
 *  same, the calls — and only the new messages are read; a call whose result is among them is
 *  given its result in a copy. Equal to buildSpanView(span, analyses, memo); `view` is left as
 *  it was. */
export function extendSpanView(view: SpanView, span: readonly Message[], analyses: readonly (MessageAnalysis | undefined)[], memo: MessageMemo): SpanView {
  const from = view.messages.length;
  const messages = view.messages.slice();
  for (let pos = 0; pos < from; pos++) {
    const sm = messages[pos]!;
    if (sm.analysis !== analyses[pos]) messages[pos] = { ...sm, analysis: analyses[pos] };
  }
  const added = buildSpanView(span.slice(from), analyses.slice(from), memo);
  const calls = view.calls.slice();
  // Copied entry by entry: a Map made from a Map makes a pair for each entry it copies.
  const callOfResult = new Map<number, SpanToolCall>();
  view.callOfResult.forEach((c, pos) => callOfResult.set(pos, c));
  const callsAt = new Map<number, SpanToolCall[]>();
  view.callsAt.forEach((cs, pos) => callsAt.set(pos, cs));
  // A result answers the latest call with its id before it, when that call has no result yet.
  const byId = new Map<string, number>();
  calls.forEach((c, k) => byId.set(c.call.id, k));
  const moved = (c: SpanToolCall): SpanToolCall => ({ ...c, pos: c.pos + from, resultPos: c.resultPos === undefined ? undefined : c.resultPos + from });
  const addedCalls = new Map(added.calls.map((c) => [c, moved(c)]));
  for (const sm of added.messages) {
    const pos = sm.pos + from;
    messages.push({ ...sm, pos });
    const here = added.callsAt.get(sm.pos);
    if (here) {
      const shifted = here.map((c) => addedCalls.get(c)!);
      for (const c of shifted) {
        byId.set(c.call.id, calls.length);
        calls.push(c);
      }
      callsAt.set(pos, shifted);
    }
    const id = sm.message.toolResult?.toolCallId;
    const k = id === undefined ? undefined : byId.get(id);
    if (k === undefined || calls[k]!.pos >= from) {
      // No call before the new messages: the new messages' own view matched it, or nothing does.
      const c = added.callOfResult.get(sm.pos);
      if (c && k !== undefined) callOfResult.set(pos, addedCalls.get(c)!);
      continue;
    }
    const c = calls[k]!;
    if (c.resultPos !== undefined) continue;
    const answered: SpanToolCall = { ...c, resultPos: pos };
    calls[k] = answered;
    callsAt.set(
      c.pos,
      callsAt.get(c.pos)!.map((x) => (x === c ? answered : x)),
    );
    callOfResult.set(pos, answered);
  }
  return { messages, calls, callOfResult, callsAt };
}
