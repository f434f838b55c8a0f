// Makes every imported conversation valid for the chat APIs, whatever the source did:
//   - each tool call is followed, right after its assistant message, by exactly one result;
//   - no result without a call.
// Results that arrive late (after a sub-agent's lines, or interleaved with another call's
// results) are moved up to follow their call. A call nobody answered gets a synthetic error
// result "[no result recorded]" (marked source.extra.synthetic) so the conversation can be
// sent again. A result that answers no call (its call was lost, or it answers a call twice)
// becomes a SKILL_METADATA note on the user side: kept readable, never counted as something
// the user wrote, and no longer claiming to be a tool result. Each repair is reported.

import type { ImportWarning, Message, SourceFormat } from '../model';

export type MessageDraft = Omit<Message, 'id'>;

export const NO_RESULT_TEXT = '[no result recorded]';

interface CallRecord {
  /** Index of the assistant draft in the input. */
  owner: number;
  id: string;
  name: string;
  answered: boolean;
}

export function repairToolPairing(drafts: MessageDraft[], format: SourceFormat, warnings: ImportWarning[]): MessageDraft[] {
  const callsById = new Map<string, CallRecord[]>();
  const usedCallIds = new Set<string>();
  const resultsOf = new Map<number, MessageDraft[]>();
  /** Assistant drafts that a later ordinary message has already closed. */
  const closed = new Set<number>();
  let lastOpen: number[] = [];
  const kept: (MessageDraft | undefined)[] = new Array(drafts.length);
  let moved = 0;
  let firstMoved: string | undefined;
  let renamed = 0;

  drafts.forEach((d, i) => {
    if (d.toolResult) {
      const candidates = callsById.get(d.toolResult.toolCallId);
      const call = candidates?.find((c) => !c.answered);
      if (!call) {
        warnings.push({ position: where(d), message: `tool result for '${d.toolResult.toolCallId}' answers no earlier tool call; kept as a note` });
        kept[i] = orphanNote(d, format);
        return;
      }
      call.answered = true;
      if (closed.has(call.owner)) {
        moved++;
        firstMoved ??= where(d);
      }
      const r: MessageDraft = { ...d, toolResult: { ...d.toolResult, toolCallId: call.id, toolName: d.toolResult.toolName ?? call.name } };
      let list = resultsOf.get(call.owner);
      if (!list) resultsOf.set(call.owner, (list = []));
      list.push(r);
      return;
    }
    // An ordinary message closes the tool blocks before it (sub-agent lines do not: they are
    // side traffic that the main conversation's results routinely arrive after).
    if (!d.source?.sidechain) {
      for (const o of lastOpen) closed.add(o);
      lastOpen = [];
    }
    if (d.toolCalls && d.toolCalls.length > 0) {
      const calls = d.toolCalls.map((c) => {
        let id = c.id;
        if (usedCallIds.has(id)) {
          renamed++;
          for (let k = 2; usedCallIds.has((id = `${c.id}#${k}`)); k++);
        }
        usedCallIds.add(id);
        const rec: CallRecord = { owner: i, id, name: c.name, answered: false };
        let list = callsById.get(c.id);
        if (!list) callsById.set(c.id, (list = []));
        list.push(rec);
        return id === c.id ? c : { ...c, id };
      });
      kept[i] = calls.some((c, k) => c !== d.toolCalls![k]) ? { ...d, toolCalls: calls } : d;
      if (!d.source?.sidechain) lastOpen.push(i);
    } else {
      kept[i] = d;
    }
  });

  const out: MessageDraft[] = [];
  let synthetic = 0;
  let firstSynthetic: string | undefined;
  kept.forEach((d, i) => {
    if (!d) return;
    out.push(d);
    if (!d.toolCalls || d.toolCalls.length === 0) return;
    const results = resultsOf.get(i) ?? [];
    out.push(...results);
    const answered = new Set(results.map((r) => r.toolResult!.toolCallId));
    for (const c of d.toolCalls) {
      if (answered.has(c.id)) continue;
      synthetic++;
      firstSynthetic ??= where(d);
      out.push({
        role: 'tool',
        itemType: 'TOOL_RESULT',
        content: [{ type: 'text', text: NO_RESULT_TEXT }],
        toolResult: { toolCallId: c.id, isError: true, toolName: c.name },
        ...(d.timestamp ? { timestamp: d.timestamp } : {}),
        source: { format, ...(d.source?.sidechain ? { sidechain: true } : {}), extra: { synthetic: true } },
      });
    }
  });

  if (moved > 0) warnings.push({ position: firstMoved!, message: `${moved} tool result${moved === 1 ? ' was' : 's were'} moved up to follow ${moved === 1 ? 'its call' : 'their calls'}` });
  if (synthetic > 0) warnings.push({ position: firstSynthetic!, message: `${synthetic} tool call${synthetic === 1 ? ' has' : 's have'} no result; added "${NO_RESULT_TEXT}" as an error result` });
  if (renamed > 0) warnings.push({ position: 'tool calls', message: `${renamed} repeated tool call id${renamed === 1 ? ' was' : 's were'} made unique` });
  return out;
}

function where(d: MessageDraft): string {
  const s = d.source;
  if (s?.line !== undefined) return `line ${s.line}`;
  if (s?.index !== undefined) return `messages[${s.index}]`;
  return 'message';
}

function orphanNote(d: MessageDraft, format: SourceFormat): MessageDraft {
  const { toolResult, ...rest } = d;
  const header = `[output of tool call ${toolResult!.toolCallId}${toolResult!.toolName ? ` (${toolResult!.toolName})` : ''}, whose call is not in this transcript]`;
  const content = d.content.length > 0 && d.content[0]!.type === 'text'
    ? [{ type: 'text' as const, text: `${header}\n${d.content[0]!.text}` }, ...d.content.slice(1)]
    : [{ type: 'text' as const, text: header }, ...d.content];
  return {
    ...rest,
    role: 'user',
    itemType: 'SKILL_METADATA',
    content,
    source: { ...(d.source ?? { format }), extra: { ...(d.source?.extra ?? {}), orphanToolResult: true } },
  };
}
