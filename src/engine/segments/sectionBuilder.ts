// What every section builder receives and returns. A builder is a pure function from the span
// to items (sectionItems.ts); it merges the previous summary's section itself, because only it
// knows what identifies an entry (a path, a signature, a term).

import type { SegmentConstants } from './constants';
import type { SectionItem } from './sectionItems';
import { memoSlotWith, type MessageMemo } from '../conversation/messageMemo';
import type { SpanMessage, SpanView } from './spanView';

export interface BuilderContext {
  view: SpanView;
  /** Keeps what a builder reads from each message alone (fromMessage). */
  memo: MessageMemo;
  /** The span followed by the messages the result keeps after it (same positions for the span):
   *  evidence of what happened later — a clean re-run, a submission, a final report — that a
   *  builder may check but never lists. The span alone when nothing follows it. */
  timeline: SpanView;
  c: SegmentConstants;
  /** The same section of the summary being merged (re-compaction), if any. */
  previous: string | undefined;
  /** True when the span continues an earlier summary. */
  continues: boolean;
  /** Free-text focus of this compaction, if any. */
  focus: string | undefined;
  /** The latest request, kept verbatim between summarized messages (ExtractOptions.keptRequest):
   *  its reading, and how many span messages come before it. */
  keptRequest?: { sm: SpanMessage; at: number };
}

export type SectionBuilder = (ctx: BuilderContext) => SectionItem[];

/** What `read` gives for one span message, computed once per message (and set of constants)
 *  and kept in the context's memo. `read` may use the message and what the view derives from it
 *  alone (text, thinking, role flags, its tool calls) — never its position or its analysis. */
export function fromMessage<T>(ctx: BuilderContext, sm: SpanMessage, name: string, read: (sm: SpanMessage) => T): T {
  return ctx.memo.readWith(sm.message, sm.memo, memoSlotWith<T>(name, ctx.c), read, sm);
}

/** 0 for the first message of the span, 1 for the last. */
export function recency(view: SpanView, pos: number): number {
  const n = view.messages.length;
  return n > 1 ? pos / (n - 1) : 1;
}

/** Overall importance of a span message (0.5 when it was not analyzed). */
export function importanceAt(view: SpanView, pos: number): number {
  return view.messages[pos]?.analysis?.importance.overall ?? 0.5;
}
