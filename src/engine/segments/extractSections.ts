// The extractive pass: eight builders turn the span into items, the budget is
// divided among the sections (allocateBudget.ts), and each section is filled within its share
// (sectionItems.ts). Pure and deterministic: the same span, analysis, budget and options give
// the same texts. Earlier summaries inside the span (COMPACTION_SUMMARY messages) are merged
// section by section (mergeSections.ts), so re-compaction never summarizes a summary.

import type { ConversationAnalysis, MessageAnalysis } from '../analyze/analysis';
import { analyzeConversation } from '../analyze/analyzeConversation';
import { memoOrFresh, memoSlot, memoSlotWith, sameItems, type MessageMemo } from '../conversation/messageMemo';
import type { Message } from '../conversation/model';
import type { DegradationStep } from '../result';
import { messageText } from '../conversation/model';
import { SECTION_NAMES, emptySectionTexts, type SectionName, type SectionTexts } from '../sections';
import { estimateCounter } from '../tokens/estimate';
import type { TextCounter } from '../tokens/tokenCounter';
import { allocateSectionBudgets, type SectionDemand } from './allocateBudget';
import { SEGMENT_CONSTANTS, type SegmentConstants } from './constants';
import { buildCurrentWork } from './currentWork';
import { DegradeMemo, degradeItems, leftOutLine } from './degrade';
import { buildErrorsAndFixes } from './errorsAndFixes';
import { buildFilesAndCode } from './filesAndCode';
import { mergeSectionTexts, previousSections } from './mergeSections';
import { buildPendingTasks } from './pendingTasks';
import { buildPrimaryRequest } from './primaryRequest';
import { buildProblemSolving } from './problemSolving';
import type { BuilderContext, SectionBuilder } from './sectionBuilder';
import { fitItems, formTokensOf, measuredFigures, measureItems, type FormTokens, type MeasuredItem, type SectionItem } from './sectionItems';
import { extendSpanView } from './grownView';
import { buildSpanView, viewPrefix, type SpanView } from './spanView';
import { buildTechnicalConcepts } from './technicalConcepts';
import { buildUserMessages } from './userMessages';

export const SECTION_BUILDERS: Record<SectionName, SectionBuilder> = {
  'Primary Request and Intent': buildPrimaryRequest,
  'Key Technical Concepts': buildTechnicalConcepts,
  'Files and Code Sections': buildFilesAndCode,
  'Errors and fixes': buildErrorsAndFixes,
  'Problem Solving': buildProblemSolving,
  'All user messages': buildUserMessages,
  'Pending Tasks': buildPendingTasks,
  'Current Work': buildCurrentWork,
};

function weightOf(name: SectionName, c: SegmentConstants): number {
  switch (name) {
    case 'Primary Request and Intent':
      return c.WEIGHT_PRIMARY_REQUEST;
    case 'Key Technical Concepts':
      return c.WEIGHT_TECHNICAL_CONCEPTS;
    case 'Files and Code Sections':
      return c.WEIGHT_FILES_AND_CODE;
    case 'Errors and fixes':
      return c.WEIGHT_ERRORS_AND_FIXES;
    case 'Problem Solving':
      return c.WEIGHT_PROBLEM_SOLVING;
    case 'All user messages':
      return c.WEIGHT_USER_MESSAGES;
    case 'Pending Tasks':
      return c.WEIGHT_PENDING_TASKS;
    case 'Current Work':
      return c.WEIGHT_CURRENT_WORK;
  }
}

export interface ExtractOptions {
  /** Counts item tokens; default the CJK-aware estimate (pass the model's counter for exact budgets). */
  counter?: TextCounter;
  /** Sections of an earlier summary to merge (in addition to summaries found in the span). */
  previous?: SectionTexts;
  /** Free-text focus of this compaction. */
  focus?: string;
  /** The section builders' numbers (default SEGMENT_CONSTANTS). */
  limits?: SegmentConstants;
  /** The emergency level: when the required content does not fit, it may be cut (degrade.ts). */
  emergency?: boolean;
  /** The messages after the span that the result keeps (the verbatim tail), with their analyses:
   *  evidence for what the summary claims (an error fixed later, a task submitted), never content. */
  after?: { messages: readonly Message[]; analyses: readonly (MessageAnalysis | undefined)[] };
  /** Keeps what each message alone gives the builders, for the next extraction over the same
   *  messages (the ratio loop, a later compaction of the conversation). */
  memo?: MessageMemo;
  /** An archive that outlives the compaction holds the original (default true): only then does
   *  the summary point to it. */
  archived?: boolean;
  /** The latest request when the result keeps it verbatim between summarized messages (the work
   *  after it in its round summarized): it is in neither the span nor `after`, yet it is what the
   *  work is on. `at`: how many span messages come before it. */
  keptRequest?: { message: Message; analysis: MessageAnalysis | undefined; at: number };
}

export interface SectionStats {
  tokens: number;
  budget: number;
  floor: number;
  need: number;
  shown: number;
  offered: number;
  shortened: number;
}

export interface ExtractedSections {
  sections: SectionTexts;
  /** Per section: tokens used, budget given, floor, need, items shown/offered/shortened. */
  stats: Record<SectionName, SectionStats>;
  /** Tokens of all section bodies together. */
  tokens: number;
  /** Sum of the section floors (after any degradation): when above the budget, the required
   *  content did not fit even in its reduced forms. */
  floor: number;
  /** The steps taken because the required content did not fit the budget (degrade.ts). */
  degradation: DegradationStep[];
  /** Tokens every item in its fullest form would take. */
  need: number;
  /** How many compactions the merged earlier summaries record (0 when none). */
  previousCompactions: number;
  /** Messages the earlier summaries stood for. */
  previousSummarized: number;
}

/** Items of every section for a span: the builders' output before any budget is applied. */
export interface SectionMaterial {
  items: Record<SectionName, SectionItem[]>;
  previousCompactions: number;
  previousSummarized: number;
}

function alignedAnalyses(
  span: readonly Message[],
  analysis: ConversationAnalysis | readonly (MessageAnalysis | undefined)[] | undefined,
): readonly (MessageAnalysis | undefined)[] {
  if (analysis === undefined) return analyzeConversation(span).messages;
  const list = Array.isArray(analysis) ? (analysis as readonly (MessageAnalysis | undefined)[]) : (analysis as ConversationAnalysis).messages;
  if (list.length !== span.length) {
    throw new RangeError(`extractSections: expected one analysis per span message (${span.length}), got ${list.length}`);
  }
  return list;
}

const TIMELINE = memoSlot<{ analyses: readonly (MessageAnalysis | undefined)[]; view: SpanView | undefined }>('segments.timeline');

/** The view of the span and the messages after it. The ratio loop gives the kept tail less room
 *  and extracts again: the span grows into the tail, and span and tail together are the same
 *  messages with the same analyses, so the last such view is the view. A conversation that grew
 *  extends the last view (extendSpanView). */
function timelineView(messages: readonly Message[], analyses: readonly (MessageAnalysis | undefined)[], memo: MessageMemo): SpanView {
  const kept = memo.resume(
    TIMELINE,
    messages,
    () => ({ analyses: [], view: undefined }),
    (state, from) => {
      if (state.view && from === messages.length && sameItems(state.analyses, analyses)) return;
      state.view = state.view && from > 0 ? extendSpanView(state.view, messages, analyses, memo) : buildSpanView(messages, analyses, memo);
      state.analyses = analyses;
    },
  );
  return kept.view!;
}

/** The view of `span` the builders read (the span followed by `after` when given, cut to the
 *  span): the last one made when the same messages were viewed just before. */
export function spanViewOf(
  span: readonly Message[],
  analyses: readonly (MessageAnalysis | undefined)[],
  after: ExtractOptions['after'],
  memo: MessageMemo,
): SpanView {
  const later = after && after.messages.length > 0 ? after : undefined;
  const timeline = later ? timelineView([...span, ...later.messages], [...analyses, ...later.analyses], memo) : timelineView(span, analyses, memo);
  return viewPrefix(timeline, span.length);
}

/** Sections whose builder reads the span's messages, their references (analysis.refs) and the
 *  section of the summary it continues — nothing after the span, no importance, focus or kept
 *  request: the same span read again gives the same items (a re-plan of a grown conversation
 *  that summarizes the same messages, the floor estimate of the same span). */
const SPAN_ONLY: ReadonlySet<SectionName> = new Set<SectionName>(['Key Technical Concepts', 'Files and Code Sections']);

/** The items of the SPAN_ONLY sections last built for these very messages, references and
 *  previous sections (an empty record to fill when anything differs). */
function spanOnlyItems(
  view: SpanView,
  memo: MessageMemo,
  c: SegmentConstants,
  previous: SectionTexts | undefined,
): Partial<Record<SectionName, SectionItem[]>> {
  const deps = [...view.messages.map((sm) => sm.analysis?.refs), ...[...SPAN_ONLY].map((name) => previous?.[name] || undefined)];
  return memo.same(
    memoSlotWith<Partial<Record<SectionName, SectionItem[]>>>('segments.spanOnlyItems', c),
    view.messages.map((sm) => sm.message),
    deps,
    () => ({}),
  );
}

/** Runs the eight builders over the span (no budget yet). */
export function buildSectionMaterial(
  span: readonly Message[],
  analysis: ConversationAnalysis | readonly (MessageAnalysis | undefined)[] | undefined,
  opts: ExtractOptions = {},
): SectionMaterial {
  const c = opts.limits ?? SEGMENT_CONSTANTS;
  const analyses = alignedAnalyses(span, analysis);
  const after = opts.after && opts.after.messages.length > 0 ? opts.after : undefined;
  if (after && after.analyses.length !== after.messages.length) {
    throw new RangeError(`extractSections: expected one analysis per later message (${after.messages.length}), got ${after.analyses.length}`);
  }
  const memo = memoOrFresh(opts.memo);
  const timeline = after ? timelineView([...span, ...after.messages], [...analyses, ...after.analyses], memo) : timelineView(span, analyses, memo);
  const view = viewPrefix(timeline, span.length);
  const summaries = view.messages.filter((m) => m.summary).map((m) => messageText(m.message));
  const fromSpan = previousSections(summaries);
  let previous = fromSpan?.sections;
  if (opts.previous) {
    previous = previous ? mergeSectionTexts([opts.previous, previous]) : opts.previous;
  }
  const kept = opts.keptRequest;
  const keptRequest = kept ? { sm: buildSpanView([kept.message], [kept.analysis], memo).messages[0]!, at: kept.at } : undefined;
  const items = {} as Record<SectionName, SectionItem[]>;
  const spanOnly = spanOnlyItems(view, memo, c, previous);
  for (const name of SECTION_NAMES) {
    const ctx: BuilderContext = {
      view,
      memo,
      timeline,
      c,
      previous: previous?.[name] || undefined,
      continues: previous !== undefined,
      focus: opts.focus,
      ...(keptRequest ? { keptRequest } : {}),
    };
    items[name] = SPAN_ONLY.has(name) ? (spanOnly[name] ??= SECTION_BUILDERS[name](ctx)) : SECTION_BUILDERS[name](ctx);
  }
  return { items, previousCompactions: fromSpan?.compactions ?? 0, previousSummarized: fromSpan?.summarizedMessages ?? 0 };
}

/** What fitting a material reads again at each budget, per counter, while the material lives:
 *  every fit of it — the degradation's floor, the measuring, each budget the ratio loop tries —
 *  degrades a list once and measures a list once (the forms' counts are kept by formTokensOf). */
interface MaterialFit {
  tokensOf: FormTokens;
  degrade: DegradeMemo;
  measured: WeakMap<readonly SectionItem[], MeasuredItem[]>;
}

const MATERIAL_FITS = new WeakMap<SectionMaterial, WeakMap<TextCounter, MaterialFit>>();

function materialFit(material: SectionMaterial, counter: TextCounter): MaterialFit {
  let byCounter = MATERIAL_FITS.get(material);
  if (!byCounter) MATERIAL_FITS.set(material, (byCounter = new WeakMap()));
  let fit = byCounter.get(counter);
  if (!fit) {
    fit = { tokensOf: formTokensOf(counter), degrade: new DegradeMemo(), measured: new WeakMap() };
    byCounter.set(counter, fit);
  }
  return fit;
}

/** Fits prepared material into `budget` tokens (section bodies only). When the required content
 *  alone is over the budget, it is reduced first, in the steps degrade.ts describes. */
export function fitSectionMaterial(material: SectionMaterial, budget: number, opts: ExtractOptions = {}): ExtractedSections {
  const c = opts.limits ?? SEGMENT_CONSTANTS;
  const counter = opts.counter ?? estimateCounter;
  const fit = materialFit(material, counter);
  const degraded = degradeItems(material.items, {
    budget: Math.max(0, budget),
    emergency: opts.emergency === true,
    tokensOf: fit.tokensOf,
    c,
    memo: fit.degrade,
  });
  const measured = {} as Record<SectionName, MeasuredItem[]>;
  const demands: SectionDemand[] = [];
  for (const name of SECTION_NAMES) {
    const list = degraded.items[name];
    let m = fit.measured.get(list);
    if (!m) fit.measured.set(list, (m = measureItems(list, fit.tokensOf)));
    measured[name] = m;
    const meanPriority = m.length > 0 ? m.reduce((s, x) => s + Math.min(1.5, x.item.priority), 0) / m.length : 0;
    const { floor, need } = measuredFigures(m);
    demands.push({ name, floor, need, weight: weightOf(name, c) * (c.IMPORTANCE_WEIGHT_BASE + meanPriority) });
  }
  // The lines saying what the emergency cut left out are set aside first (at most this long).
  let notes = 0;
  for (const [name, set] of degraded.released) notes += counter.count(leftOutLine(set.size, opts.archived !== false, name)) + 1;
  const alloc = allocateSectionBudgets(demands, Math.max(0, budget - notes));
  const sections = emptySectionTexts();
  const stats = {} as Record<SectionName, SectionStats>;
  let tokens = 0;
  for (const name of SECTION_NAMES) {
    const fitted = fitItems(measured[name], alloc.budgets[name]);
    const released = degraded.released.get(name);
    const leftOut = released ? released.size - fitted.shownOf(released) : 0;
    const note = leftOut > 0 ? leftOutLine(leftOut, opts.archived !== false, name) : '';
    sections[name] = note ? [fitted.text, note].filter(Boolean).join('\n') : fitted.text;
    const noteTokens = note ? counter.count(note) + 1 : 0;
    tokens += fitted.tokens + noteTokens;
    stats[name] = {
      tokens: fitted.tokens + noteTokens,
      budget: alloc.budgets[name],
      floor: fitted.floor,
      need: fitted.need,
      shown: fitted.shown,
      offered: fitted.offered,
      shortened: fitted.shortened,
    };
  }
  return {
    sections,
    stats,
    tokens,
    floor: alloc.floor,
    need: alloc.need,
    degradation: degraded.steps,
    previousCompactions: material.previousCompactions,
    previousSummarized: material.previousSummarized,
  };
}

/**
 * The eight sections for `span` within `budget` tokens (section bodies; headings and metadata
 * are the caller's). `analysis` is aligned with `span` (one per message) or omitted (then the
 * span is analyzed on its own).
 */
export function extractSections(
  span: readonly Message[],
  analysis: ConversationAnalysis | readonly (MessageAnalysis | undefined)[] | undefined,
  budget: number,
  opts: ExtractOptions = {},
): ExtractedSections {
  return fitSectionMaterial(buildSectionMaterial(span, analysis, opts), budget, opts);
}
