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
  /** The id the source gave (`id` differs when it was made unique). */
  given: string;
  name: string;
  answered: boolean;
}

/** What pairing the drafts up to some point leaves to the drafts after it, and the repairs made so
 *  far (for the warnings). A source read as it grows (a live session) pairs only its new drafts,
 *  from the tally of those before (finish.ts GrowingImport). */
export interface PairingTally {
  /** Call ids taken (a repeat is made unique against them). */
  usedCallIds: Set<string>;
  /** Calls no result answered, by the id the source gave, with how many. */
  unanswered: Map<string, number>;
  moved: number;
  firstMoved?: string;
  synthetic: number;
  firstSynthetic?: string;
  renamed: number;
  /** A warning for each result that answers no call (made a note), in draft order. */
  orphans: ImportWarning[];
}

export function emptyPairingTally(): PairingTally {
  return { usedCallIds: new Set(), unanswered: new Map(), moved: 0, synthetic: 0, renamed: 0, orphans: [] };
}

/** One pass of pairing over some drafts. */
export interface PairingRun {
  drafts: MessageDraft[];
  /** Per input draft: where its output starts in `drafts` (a result placed after its call: -1). */
  starts: number[];
  /** Per input draft: the input index of the call a result answers; -1 for a result that answers
   *  none (made a note) and for every other draft. */
  answers: number[];
  /** Results that answer a call of the drafts before this run (`before`'s unanswered calls). The
   *  run does not pair them: a caller that sees one pairs the whole conversation again. */
  answersBefore: number;
  /** The tally of input drafts [from, to) of this run (all by default): their call ids, their calls
   *  left unanswered, their repairs. Exact when no result at or after `to` answers a call before it. */
  tally(from?: number, to?: number): PairingTally;
}

export function repairToolPairing(drafts: MessageDraft[], format: SourceFormat, warnings: ImportWarning[]): MessageDraft[] {
  const run = pairToolCalls(drafts, format);
  warnings.push(...pairingWarnings([run.tally()]));
  return run.drafts;
}

/** Pairs `drafts`, which follow drafts whose tally is `before` (none: they are the whole list). */
export function pairToolCalls(drafts: readonly MessageDraft[], format: SourceFormat, before: Readonly<PairingTally> = emptyPairingTally()): PairingRun {
  const callsById = new Map<string, CallRecord[]>();
  const calls: CallRecord[] = [];
  const usedCallIds = new Set<string>();
  const used = (id: string) => usedCallIds.has(id) || before.usedCallIds.has(id);
  const resultsOf = new Map<number, MessageDraft[]>();
  /** Assistant drafts that a later ordinary message has already closed. */
  const closed = new Set<number>();
  let lastOpen: number[] = [];
  const kept: (MessageDraft | undefined)[] = new Array(drafts.length);
  const answers: number[] = new Array<number>(drafts.length).fill(-1);
  const moved: number[] = [];
  const orphans: number[] = [];
  let answersBefore = 0;

  drafts.forEach((d, i) => {
    if (d.toolResult) {
      if ((before.unanswered.get(d.toolResult.toolCallId) ?? 0) > 0) {
        // The call before this run comes first among the candidates: the result is its.
        answersBefore++;
        return;
      }
      const candidates = callsById.get(d.toolResult.toolCallId);
      const call = candidates?.find((c) => !c.answered);
      if (!call) {
        orphans.push(i);
        kept[i] = orphanNote(d, format);
        return;
      }
      call.answered = true;
      answers[i] = call.owner;
      if (closed.has(call.owner)) moved.push(i);
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
      const mine = d.toolCalls.map((c) => {
        let id = c.id;
        if (used(id)) for (let k = 2; used((id = `${c.id}#${k}`)); k++);
        usedCallIds.add(id);
        const rec: CallRecord = { owner: i, id, given: c.id, name: c.name, answered: false };
        calls.push(rec);
        let list = callsById.get(c.id);
        if (!list) callsById.set(c.id, (list = []));
        list.push(rec);
        return id === c.id ? c : { ...c, id };
      });
      kept[i] = mine.some((c, k) => c !== d.toolCalls![k]) ? { ...d, toolCalls: mine } : d;
      if (!d.source?.sidechain) lastOpen.push(i);
    } else {
      kept[i] = d;
    }
  });

  const out: MessageDraft[] = [];
  const starts: number[] = new Array<number>(drafts.length).fill(-1);
  /** Owners that got a synthetic result, with how many. */
  const synthetic = new Map<number, number>();
  kept.forEach((d, i) => {
    if (!d) return;
    starts[i] = out.length;
    out.push(d);
    if (!d.toolCalls || d.toolCalls.length === 0) return;
    const results = resultsOf.get(i) ?? [];
    out.push(...results);
    const answered = new Set(results.map((r) => r.toolResult!.toolCallId));
    for (const c of d.toolCalls) {
      if (answered.has(c.id)) continue;
      synthetic.set(i, (synthetic.get(i) ?? 0) + 1);
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

  const tally = (from = 0, to = drafts.length): PairingTally => {
    const t = emptyPairingTally();
    const inside = (i: number) => i >= from && i < to;
    for (const c of calls) {
      if (!inside(c.owner)) continue;
      t.usedCallIds.add(c.id);
      if (c.id !== c.given) t.renamed++;
      if (!c.answered) t.unanswered.set(c.given, (t.unanswered.get(c.given) ?? 0) + 1);
    }
    for (const i of orphans) {
      const d = drafts[i]!;
      if (inside(i))
        t.orphans.push({ position: where(d), message: `tool result for '${d.toolResult!.toolCallId}' answers no earlier tool call; kept as a note` });
    }
    for (const i of moved) {
      if (!inside(i)) continue;
      t.moved++;
      t.firstMoved ??= where(drafts[i]!);
    }
    for (const [i, n] of synthetic) {
      if (!inside(i)) continue;
      t.synthetic += n;
      t.firstSynthetic ??= where(drafts[i]!);
    }
    return t;
  };
  return { drafts: out, starts, answers, answersBefore, tally };
}

/** Adds `more` (the tally of the drafts after) to `into`. */
export function addPairingTally(into: PairingTally, more: Readonly<PairingTally>): void {
  for (const id of more.usedCallIds) into.usedCallIds.add(id);
  for (const [id, n] of more.unanswered) into.unanswered.set(id, (into.unanswered.get(id) ?? 0) + n);
  into.moved += more.moved;
  into.firstMoved ??= more.firstMoved;
  into.synthetic += more.synthetic;
  into.firstSynthetic ??= more.firstSynthetic;
  into.renamed += more.renamed;
  into.orphans.push(...more.orphans);
}

/** The repairs the tallies (in draft order) add up to, as the import's warnings. */
export function pairingWarnings(tallies: readonly Readonly<PairingTally>[]): ImportWarning[] {
  const sum = emptyPairingTally();
  for (const t of tallies) {
    sum.moved += t.moved;
    sum.firstMoved ??= t.firstMoved;
    sum.synthetic += t.synthetic;
    sum.firstSynthetic ??= t.firstSynthetic;
    sum.renamed += t.renamed;
  }
  const { moved, synthetic, renamed } = sum;
  const out: ImportWarning[] = tallies.flatMap((t) => t.orphans);
  if (moved > 0)
    out.push({
      position: sum.firstMoved!,
      message: `${moved} tool result${moved === 1 ? ' was' : 's were'} moved up to follow ${moved === 1 ? 'its call' : 'their calls'}`,
    });
  if (synthetic > 0)
    out.push({
      position: sum.firstSynthetic!,
      message: `${synthetic} tool call${synthetic === 1 ? ' has' : 's have'} no result; added "${NO_RESULT_TEXT}" as an error result`,
    });
  if (renamed > 0) out.push({ position: 'tool calls', message: `${renamed} repeated tool call id${renamed === 1 ? ' was' : 's were'} made unique` });
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
  const content =
    d.content.length > 0 && d.content[0]!.type === 'text'
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
