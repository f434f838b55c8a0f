// The compaction pipeline (seed 000's four stages, then assembly):
//   1 analyze + 2 prioritize  analyze/analyzeConversation.ts (importance metrics per message)
//   plan                      a strategy decides each message's fate (strategies/strategy.ts)
//   3 generate                the eight extractive sections of the summarized span (segments/),
//                             or an LLM summary held to them (Summarizer)
//   4 validate                information-loss detector, ratio controller, readability (validate/)
//   assemble                  header + summary + pinned + recent messages, valid for the chat APIs
//   archive                   the original, content-addressed, before anything is returned
//
// planCompaction is the synchronous dry run (no archive write, extractive only): the
// confirmation's "estimated after" and the inspector's plan. compactConversation runs the same
// computation, then the summarizer, then the archive write, and returns the result whole or
// rejects (cancel: AbortError) — no partial state. The input conversation is never mutated;
// kept messages are shared by reference with it.

import type { ConversationAnalysis, MessageAnalysis } from './analyze/analysis';
import { analyzeConversation } from './analyze/analyzeConversation';
import { isAnalyzeConstantName } from './analyze/constants';
import type { CompactionEventBus } from './events';
import { archiveConversation, readArchivedConversation } from './archive/conversationArchive';
import type { ArchiveStore } from './archive/archiveStore';
import { validateApiShape } from './conversation/apiShape';
import { isHeaderItem, messageText, thinkingText, type Conversation, type Message, type Role } from './conversation/model';
import { blockIndexByMessage, computeRounds, computeToolBlocks } from './conversation/views';
import type { PerformanceMonitor } from './performanceMonitor';
import type {
  CompactionEdits,
  CompactionResult,
  CompactionStats,
  Decision,
  Fact,
  LossReport,
  MessagePlan,
  SummarizerInfo,
} from './result';
import { SECTION_NAMES, emptySectionTexts, type SectionName, type SectionTexts, type Summary } from './sections';
import { formatCount } from './segments/formatNumber';
import { EXTRACTIVE_SUMMARIZER_NAME } from './segments/extractiveSummarizer';
import { buildSectionMaterial, fitSectionMaterial, type ExtractedSections, type SectionMaterial } from './segments/extractSections';
import { parseSummary } from './segments/parseSummary';
import { renderSections, renderSummaryMarkdown, type CompressionMetadata } from './segments/renderSummary';
import { getStrategy, type MessageDecision, type StrategyContext, type StrategyDecision } from './strategies/strategy';
import type { SummarizeRequest, Summarizer } from './summarizer';
import { hash64 } from './text/hash';
import type { CachedTokenCounter } from './tokens/messageCounter';
import { REPLY_PRIMING } from './tokens/messageCounter';
import { resolveValidateConstants, type ValidateConstants } from './validate/constants';
import { factPresent, normalizeForMatch } from './validate/factMatch';
import { spanFacts } from './validate/facts';
import { detectLoss } from './validate/lossDetector';
import { controlRatio } from './validate/ratioController';
import { checkReadability } from './validate/readability';

export type CompactionLevel = 'light' | 'normal' | 'heavy' | 'emergency';

export interface CompactionDefaults {
  keepRecentRounds: number;
  strategy: string;
  level: CompactionLevel;
  /** The summary's own token limit (the extension's setting summaryMaxLength). 3,000 tokens
   *  holds the eight sections of a long session with every user message and file named,
   *  while staying a small fraction of any current context window. */
  summaryMaxTokens: number;
  /** Target size of the result as a share of the original when neither budget nor ratio is
   *  given: 0.3 frees most of the window while leaving room for the recent rounds verbatim. */
  targetRatio: number;
}

/** One source of defaults for the CLI and the extension, so both give the same result. */
export const COMPACTION_DEFAULTS: CompactionDefaults = {
  keepRecentRounds: 2,
  strategy: 'adaptive',
  level: 'normal',
  summaryMaxTokens: 3000,
  targetRatio: 0.3,
};

/** Share of the room left after header and pinned messages that the summary is expected to
 *  take before the recent messages are chosen (the summary then takes whatever they leave). */
export const SUMMARY_RESERVE_SHARE = 0.5;
/** The summary's sections always get at least this many tokens. */
export const SUMMARY_MIN_TOKENS = 200;
/** After this many compactions a warning says quality may degrade (seed 004 §7.1). */
export const COMPACTION_WARN_AFTER = 5;

export interface CompactOptions {
  counter: CachedTokenCounter;
  archive: ArchiveStore;
  /** Target size of the whole result, in tokens. */
  budget?: number;
  /** Target size of the whole result as a share of the original (0 < ratio ≤ 1). */
  ratio?: number;
  keepRecentRounds?: number;
  strategy?: string;
  level?: CompactionLevel;
  focus?: string;
  /** Default: the extractive summarizer. */
  summarizer?: Summarizer;
  edits?: CompactionEdits;
  signal?: AbortSignal;
  onProgress?: (p: { phase: string; fraction?: number }) => void;
  /** ISO clock for stats.timestamp (CLI/extension pass real time; tests pass fixed). */
  now?: string;
  constants?: Record<string, number>;
  /** The summary's own token limit. Default: COMPACTION_DEFAULTS.summaryMaxTokens when no
   *  budget or ratio is given; with an explicit target, the target alone bounds it. */
  summaryMaxTokens?: number;
  /** Milliseconds clock for durationMs (e.g. () => performance.now()); without one durationMs is 0. */
  clock?: () => number;
  /** Records this compaction (seed 000 §9). */
  monitor?: PerformanceMonitor;
  /** Phase events with tokens before/after (seed 004 §6): selective_start/done (the strategy's
   *  in-place work: drops, masks, previews), summary_start/done, compaction_performed. */
  events?: CompactionEventBus;
}

export type PlanOptions = Omit<CompactOptions, 'archive' | 'summarizer' | 'signal' | 'monitor' | 'events'> & { archive?: ArchiveStore };

/** What planCompaction returns: the result as the extractive summary would make it, without
 *  the archive write. */
export interface CompactionPreview {
  conversation: Conversation;
  summary: Summary;
  plan: MessagePlan[];
  loss: LossReport;
  stats: CompactionStats;
  tokensBefore: number;
  /** Estimated tokens after (exact for the extractive summarizer). */
  tokensAfter: number;
  /** The target the budget/ratio resolved to. */
  target: number;
  /** The smallest result the invariants allow (below it the target cannot be met). */
  minimumTokens: number;
  strategy: string;
  level: string;
  compactionCount: number;
  warnings: string[];
  /** The extractive sections (also in summary), and what the span was. */
  sections: SectionTexts;
  summarizedIds: string[];
}

/** Input a caller got wrong (bad option, malformed conversation): the message says which and what was expected. */
export class CompactionInputError extends Error {
  override name = 'CompactionInputError';
}

/** Rejection of a cancelled compaction (signal aborted). Nothing was returned or half-written. */
export class CompactionAbortedError extends Error {
  override name = 'AbortError';
  constructor() {
    super('compaction cancelled');
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CompactionAbortedError();
}

// ── Input checks ──────────────────────────────────────────────────────────────────────────

const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant', 'tool']);

function checkConversation(conv: Conversation): void {
  if (conv === null || typeof conv !== 'object') throw new CompactionInputError('conversation: expected an object with a messages array');
  if (!Array.isArray(conv.messages)) throw new CompactionInputError('conversation.messages: expected an array of messages');
  const ids = new Set<string>();
  conv.messages.forEach((m, i) => {
    const at = `conversation.messages[${i}]`;
    if (m === null || typeof m !== 'object') throw new CompactionInputError(`${at}: expected a message object`);
    if (typeof m.id !== 'string' || !m.id) throw new CompactionInputError(`${at}: expected a non-empty string id`);
    if (ids.has(m.id)) throw new CompactionInputError(`${at}: id '${m.id}' is used twice; expected unique message ids`);
    ids.add(m.id);
    if (!ROLES.has(m.role)) throw new CompactionInputError(`${at} (id ${m.id}): expected role system|user|assistant|tool, got ${JSON.stringify(m.role)}`);
    if (!Array.isArray(m.content)) throw new CompactionInputError(`${at} (id ${m.id}): expected content to be an array of parts`);
    if (typeof m.itemType !== 'string') throw new CompactionInputError(`${at} (id ${m.id}): expected an itemType`);
  });
}

function positiveInt(name: string, v: number | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new CompactionInputError(`${name}: expected a positive number of tokens, got ${String(v)}`);
  return Math.floor(v);
}

function resolveTarget(opts: PlanOptions, tokensBefore: number): { target: number; explicit: boolean } {
  if (opts.budget !== undefined && opts.ratio !== undefined) throw new CompactionInputError('budget and ratio: expected one of them, not both');
  const budget = positiveInt('budget', opts.budget);
  if (budget !== undefined) return { target: budget, explicit: true };
  if (opts.ratio !== undefined) {
    if (typeof opts.ratio !== 'number' || !(opts.ratio > 0 && opts.ratio <= 1)) throw new CompactionInputError(`ratio: expected a number in (0, 1], got ${String(opts.ratio)}`);
    return { target: Math.max(1, Math.round(opts.ratio * tokensBefore)), explicit: true };
  }
  return { target: Math.max(1, Math.round(COMPACTION_DEFAULTS.targetRatio * tokensBefore)), explicit: false };
}

function pick(constants: Record<string, number> | undefined, accept: (k: string) => boolean): Record<string, number> | undefined {
  if (!constants) return undefined;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(constants)) if (accept(k)) out[k] = v;
  return out;
}

// ── Pins and edits ────────────────────────────────────────────────────────────────────────

const PIN_TAG = /<pin>[\s\S]*?<\/pin>/i;

/** Ids kept verbatim whatever the strategy says: pinned (flag, <pin>…</pin>, inspector pin)
 *  and restored in the inspector. */
function pinnedIds(messages: readonly Message[], edits: CompactionEdits | undefined): { pinned: Set<string>; restored: Set<string> } {
  const unpin = new Set(edits?.unpin ?? []);
  const pinned = new Set<string>();
  for (const m of messages) {
    if (unpin.has(m.id)) continue;
    if (m.pinned || PIN_TAG.test(messageText(m))) pinned.add(m.id);
  }
  for (const id of edits?.pin ?? []) pinned.add(id);
  const restored = new Set((edits?.restore ?? []).filter((id) => !pinned.has(id)));
  return { pinned, restored };
}

// ── Decisions ─────────────────────────────────────────────────────────────────────────────

const PRESENT: ReadonlySet<Decision> = new Set<Decision>(['kept', 'truncated', 'masked', 'offloaded']);

/** Enforces the invariants on a strategy's decisions: header items and pinned/restored messages
 *  are kept verbatim; a tool block is either present in the result as a whole or absent as a
 *  whole (a block with any member present keeps all its members). */
function normalizeDecisions(
  decisions: readonly MessageDecision[],
  messages: readonly Message[],
  header: ReadonlySet<number>,
  pinned: ReadonlySet<string>,
  restored: ReadonlySet<string>,
  blocks: ReturnType<typeof computeToolBlocks>,
): MessageDecision[] {
  if (decisions.length !== messages.length) throw new Error(`strategy returned ${decisions.length} decisions for ${messages.length} messages`);
  const out = decisions.map((d, i) => {
    const m = messages[i]!;
    if (header.has(i) && (d.decision !== 'kept' || d.replacement)) return { decision: 'kept' as Decision, reason: 'header item (always kept)' };
    if (pinned.has(m.id) && (d.decision !== 'kept' || d.replacement)) return { decision: 'kept' as Decision, reason: 'pinned' };
    if (restored.has(m.id)) return { decision: 'kept' as Decision, reason: 'restored in the inspector' };
    return { ...d };
  });
  // Pinned/restored members pull their whole block in.
  for (let bi = 0; bi < blocks.length; bi++) {
    const b = blocks[bi]!;
    const members = [b.assistantIndex, ...b.resultIndices];
    const present = members.filter((i) => PRESENT.has(out[i]!.decision));
    if (present.length > 0 && present.length < members.length) {
      for (const i of members) if (!PRESENT.has(out[i]!.decision)) out[i] = { decision: 'kept', reason: 'kept with its tool block' };
    }
  }
  return out;
}

// ── Rendering helpers ─────────────────────────────────────────────────────────────────────

/** A message as plain text for fact matching and the stats: text, thinking, tool calls. */
function messageAsText(m: Message): string {
  let out = messageText(m);
  const th = thinkingText(m);
  if (th) out += `\n${th}`;
  for (const c of m.toolCalls ?? []) out += `\n[tool call ${c.name}] ${c.arguments}`;
  return out;
}

function statsContent(m: Message): string {
  let out = messageText(m);
  for (const c of m.toolCalls ?? []) out += `${out ? '\n' : ''}[tool call ${c.name}(${c.arguments})]`;
  return out;
}

function ratioText(before: number, after: number): string {
  if (after <= 0) return '∞x';
  return `${(before / after).toFixed(1)}x`;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

// ── The synchronous core ──────────────────────────────────────────────────────────────────

interface Attempt {
  extracted: ExtractedSections;
  sections: SectionTexts;
  summaryMessage: Message | undefined;
  messages: Message[];
  tokensAfter: number;
  loss: LossReport;
  summaryBudget: number;
  keepRoom: number;
  decisions: MessageDecision[];
  span: number[];
  summaryBefore: number | undefined;
  warnings: string[];
}

interface CoreState {
  conv: Conversation;
  messages: readonly Message[];
  counter: CachedTokenCounter;
  tokens: number[];
  tokensBefore: number;
  analysis: ConversationAnalysis;
  target: number;
  explicit: boolean;
  summaryCap: number;
  strategyName: string;
  level: CompactionLevel;
  keepRecentRounds: number;
  vc: ValidateConstants;
  segmentConstants: Record<string, number> | undefined;
  opts: PlanOptions;
}

interface CoreResult {
  state: CoreState;
  attempt: Attempt;
  /** Facts of the span (for the LLM path's must-keep list and merge-back). */
  mustKeep: Fact[];
  spanMessages: Message[];
  spanAnalyses: (MessageAnalysis | undefined)[];
  compactionCount: number;
  previousSummarized: number;
  warnings: string[];
  importance: number;
  minimumTokens: number;
}

function summaryId(count: number, text: string): string {
  return `compaction-${count}-${hash64(text).slice(0, 12)}`;
}

function buildSummaryMessage(sections: SectionTexts, meta: CompressionMetadata, archiveId: string | undefined): Message {
  const text = renderSummaryMarkdown(sections, meta);
  const extra: Record<string, string | number | boolean> = { compactions: meta.compactions, summarizedMessages: meta.summarizedMessages };
  if (archiveId) extra.archiveId = archiveId;
  return {
    id: summaryId(meta.compactions, text),
    role: 'user',
    itemType: 'COMPACTION_SUMMARY',
    content: [{ type: 'text', text }],
    source: { format: 'compacted', extra },
  };
}

/** Assembles the result list: header items from the compacted region hoisted to the top, then
 *  the summary where the strategy put it, then everything present in original order. If that
 *  would open the conversation with an assistant turn, the summary moves up to follow the header. */
function assemble(messages: readonly Message[], decisions: readonly MessageDecision[], header: ReadonlySet<number>, summary: Message | undefined, summaryBefore: number | undefined): Message[] {
  const summarized = decisions.map((d, i) => (d.decision === 'summarized' ? i : -1)).filter((i) => i >= 0);
  const last = summarized.length > 0 ? summarized[summarized.length - 1]! : -1;
  const hoisted: Message[] = [];
  const rest: Message[] = [];
  const at = summary ? (summaryBefore ?? summarized[0] ?? messages.length) : -1;
  let placed = false;
  for (let i = 0; i < messages.length; i++) {
    const d = decisions[i]!;
    if (i === at && summary) {
      rest.push(summary);
      placed = true;
    }
    if (!PRESENT.has(d.decision)) continue;
    const m = d.replacement ?? messages[i]!;
    if (header.has(i) && i < last) hoisted.push(m);
    else rest.push(m);
  }
  if (summary && !placed) rest.push(summary);
  if (summary) {
    const firstOther = rest.findIndex((m) => m.role !== 'system');
    if (firstOther >= 0 && rest[firstOther] !== summary && rest[firstOther]!.role !== 'user') {
      rest.splice(rest.indexOf(summary), 1);
      rest.unshift(summary);
    }
  }
  return [...hoisted, ...rest];
}

function meanImportance(analyses: readonly (MessageAnalysis | undefined)[]): number {
  const xs = analyses.filter((a): a is MessageAnalysis => a !== undefined).map((a) => a.importance.overall);
  return xs.length === 0 ? 0.5 : xs.reduce((s, x) => s + x, 0) / xs.length;
}

function prepare(conv: Conversation, opts: PlanOptions): CoreState {
  checkConversation(conv);
  if (!opts || typeof opts !== 'object' || !opts.counter || typeof opts.counter.countMessage !== 'function') {
    throw new CompactionInputError('options.counter: expected a token counter (createTokenCounter(model))');
  }
  const messages = conv.messages;
  const counter = opts.counter;
  const tokens = messages.map((m) => counter.countMessage(m));
  const tokensBefore = counter.countMessages(messages);
  const { target, explicit } = resolveTarget(opts, tokensBefore);
  const keepRecentRounds = opts.keepRecentRounds ?? COMPACTION_DEFAULTS.keepRecentRounds;
  if (!Number.isInteger(keepRecentRounds) || keepRecentRounds < 0) throw new CompactionInputError(`keepRecentRounds: expected a whole number ≥ 0, got ${String(keepRecentRounds)}`);
  const capOpt = positiveInt('summaryMaxTokens', opts.summaryMaxTokens);
  const summaryCap = capOpt ?? (explicit ? Number.POSITIVE_INFINITY : COMPACTION_DEFAULTS.summaryMaxTokens);
  const level = opts.level ?? COMPACTION_DEFAULTS.level;
  const strategyName = opts.strategy ?? COMPACTION_DEFAULTS.strategy;
  const analysis = analyzeConversation(messages, {
    ...(opts.focus !== undefined ? { focus: opts.focus } : {}),
    ...(opts.constants ? { constants: pick(opts.constants, isAnalyzeConstantName) } : {}),
  });
  return {
    conv,
    messages,
    counter,
    tokens,
    tokensBefore,
    analysis,
    target,
    explicit,
    summaryCap,
    strategyName,
    level,
    keepRecentRounds,
    vc: resolveValidateConstants(opts.constants),
    segmentConstants: opts.constants,
    opts,
  };
}

function runCore(state: CoreState): CoreResult {
  const { messages, counter, tokens, opts, vc } = state;
  const strategy = getStrategy(state.strategyName);
  const rounds = computeRounds(messages);
  const blocks = computeToolBlocks(messages);
  const blockOf = blockIndexByMessage(messages, blocks);
  const header = new Set<number>();
  messages.forEach((m, i) => {
    if (isHeaderItem(m)) header.add(i);
  });
  const { pinned, restored } = pinnedIds(messages, opts.edits);
  const keptAlways = new Set<string>([...pinned, ...restored]);
  let fixedTokens = REPLY_PRIMING;
  messages.forEach((m, i) => {
    if (header.has(i) || keptAlways.has(m.id)) fixedTokens += tokens[i]!;
  });

  // The skeleton of a summary message (title, lead, headings, metadata) costs this much.
  const skeletonMeta: CompressionMetadata = { originalChars: 1_000_000, compressedChars: 100_000, ratio: 0.1, qualityScore: 0.9, compactions: 1, summarizedMessages: 1000 };
  const skeleton = counter.countMessage(buildSummaryMessage(emptySectionTexts(), skeletonMeta, undefined));
  const available = state.target - fixedTokens - skeleton;
  const bodyCap = Math.max(SUMMARY_MIN_TOKENS, state.summaryCap - skeleton);
  const reserve = Math.min(bodyCap, Math.max(SUMMARY_MIN_TOKENS, Math.floor(available * SUMMARY_RESERVE_SHARE)));
  const warnings: string[] = [];
  if (available < SUMMARY_MIN_TOKENS) {
    warnings.push(`the target of ${formatCount(state.target)} tokens leaves no room: system prompt, tool definitions and pinned messages alone take ${formatCount(fixedTokens)}`);
  }

  const decide = (keepRoom: number): StrategyDecision => {
    const ctx: StrategyContext = {
      messages,
      analysis: state.analysis,
      counter,
      tokens,
      budget: { target: state.target, keep: keepRoom, summary: reserve },
      keepRecentRounds: state.keepRecentRounds,
      rounds,
      toolBlocks: blocks,
      blockOf,
      pinned: keptAlways,
      header,
      level: state.level,
      focus: opts.focus,
      constants: opts.constants ?? {},
    };
    return strategy.decide(ctx);
  };

  const analyses = state.analysis.messages;
  let keepRoom = Math.max(0, available - reserve);
  let decision = decide(keepRoom);
  let decisions = normalizeDecisions(decision.decisions, messages, header, pinned, restored, blocks);
  const spanOf = (ds: readonly MessageDecision[]) => ds.map((d, i) => (d.decision === 'summarized' ? i : -1)).filter((i) => i >= 0);
  let span = spanOf(decisions);

  const makeMaterial = (idx: readonly number[], chunks: number[][] | undefined): SectionMaterial => {
    const ex = { focus: opts.focus, constants: state.segmentConstants, counter };
    if (!chunks || chunks.length <= 1) {
      return buildSectionMaterial(idx.map((i) => messages[i]!), idx.map((i) => analyses[i]), ex);
    }
    // Incremental: each chunk is summarized onto the sections of the chunks before it.
    let previous: SectionTexts | undefined;
    let material: SectionMaterial | undefined;
    let prevCompactions = 0;
    for (const chunk of chunks) {
      const chunkIdx = chunk.filter((i) => decisions[i]?.decision === 'summarized');
      if (chunkIdx.length === 0) continue;
      material = buildSectionMaterial(chunkIdx.map((i) => messages[i]!), chunkIdx.map((i) => analyses[i]), { ...ex, ...(previous ? { previous } : {}) });
      prevCompactions = Math.max(prevCompactions, material.previousCompactions);
      previous = fitSectionMaterial(material, Number.POSITIVE_INFINITY, ex).sections;
    }
    return material ? { ...material, previousCompactions: prevCompactions } : buildSectionMaterial([], [], ex);
  };
  let material = makeMaterial(span, decision.chunks);
  const priorCompactions = Math.max(material.previousCompactions, state.conv.meta?.compactions ?? 0);
  let compactionCount = span.length > 0 ? priorCompactions + 1 : priorCompactions;

  const spanMsgs = () => span.map((i) => messages[i]!);
  const spanAnalyses = () => span.map((i) => analyses[i]);
  let facts = spanFacts(spanMsgs(), spanAnalyses(), { constants: state.segmentConstants });
  let importance = meanImportance(spanAnalyses());

  const keptTokensOf = (ds: readonly MessageDecision[]) => {
    let t = 0;
    ds.forEach((d, i) => {
      if (header.has(i) || keptAlways.has(messages[i]!.id) || !PRESENT.has(d.decision)) return;
      t += d.replacement ? counter.countMessage(d.replacement) : tokens[i]!;
    });
    return t;
  };

  const attemptWith = (summaryBudget: number, ds: MessageDecision[], strategyDecision: StrategyDecision, mat: SectionMaterial): Attempt => {
    const extracted = fitSectionMaterial(mat, summaryBudget, { constants: state.segmentConstants, counter });
    const sections = applySectionEdits(extracted.sections, opts.edits);
    return finish(sections, extracted, summaryBudget, ds, strategyDecision);
  };

  const finish = (sections: SectionTexts, extracted: ExtractedSections, summaryBudget: number, ds: MessageDecision[], strategyDecision: StrategyDecision): Attempt => {
    const idx = spanOf(ds);
    let summaryMessage: Message | undefined;
    let loss: LossReport;
    const readability = checkReadability(sections, vc);
    if (idx.length > 0) {
      const originalChars = idx.reduce((s, i) => s + messageAsText(messages[i]!).length, 0);
      const compressedChars = renderSections(sections).length;
      const provisional: CompressionMetadata = {
        originalChars,
        compressedChars,
        ratio: originalChars > 0 ? round2(compressedChars / originalChars) : 0,
        qualityScore: 0,
        compactions: compactionCount,
        summarizedMessages: material.previousSummarized + idx.filter((i) => messages[i]!.itemType !== 'COMPACTION_SUMMARY').length,
      };
      const draft = assemble(messages, ds, header, buildSummaryMessage(sections, provisional, undefined), strategyDecision.summaryBefore);
      loss = detectLoss({ facts, resultText: draft.map(messageAsText).join('\n'), importance, readability }, vc);
      summaryMessage = buildSummaryMessage(sections, { ...provisional, qualityScore: round2(loss.overallRetention) }, undefined);
    } else {
      loss = detectLoss({ facts: [], resultText: '', importance, readability }, vc);
    }
    const result = assemble(messages, ds, header, summaryMessage, strategyDecision.summaryBefore);
    return {
      extracted,
      sections,
      summaryMessage,
      messages: result,
      tokensAfter: counter.countMessages(result),
      loss,
      summaryBudget,
      keepRoom,
      decisions: ds,
      span: idx,
      summaryBefore: strategyDecision.summaryBefore,
      warnings: strategyDecision.warnings,
    };
  };

  /** The smallest result the invariants allow: header and pinned messages, the strategy's tail
   *  when it is given no room, and a summary holding only its required content. Exact when the
   *  attempt is over the target (the minimal span is summarized for it); otherwise estimated
   *  from the attempt's own span. */
  const minimumResult = (a: Attempt): number => {
    const minimal = normalizeDecisions(decide(0).decisions, messages, header, pinned, restored, blocks);
    const minSpan = spanOf(minimal);
    const over = a.tokensAfter > state.target * (1 + vc.RATIO_OVERSHOOT_TOLERANCE);
    const mat = over && minSpan.length !== a.span.length ? makeMaterial(minSpan, undefined) : material;
    const floorSections = fitSectionMaterial(mat, 0, { constants: state.segmentConstants, counter }).sections;
    const meta: CompressionMetadata = { originalChars: 1_000_000, compressedChars: 100_000, ratio: 0.1, qualityScore: 0.9, compactions: compactionCount, summarizedMessages: minSpan.length };
    const summaryTokens = minSpan.length > 0 ? counter.countMessage(buildSummaryMessage(floorSections, meta, undefined)) : 0;
    return fixedTokens + keptTokensOf(minimal) + summaryTokens;
  };

  const initialBudget = Math.max(SUMMARY_MIN_TOKENS, Math.min(bodyCap, available - keptTokensOf(decisions)));
  let attempt = attemptWith(initialBudget, decisions, decision, material);
  let best = attempt;
  const better = (a: Attempt, b: Attempt) => {
    const tol = state.target * (1 + vc.RATIO_OVERSHOOT_TOLERANCE);
    const aIn = a.tokensAfter <= tol;
    const bIn = b.tokensAfter <= tol;
    if (aIn !== bIn) return aIn;
    if (aIn) return a.loss.overallRetention > b.loss.overallRetention || (a.loss.overallRetention === b.loss.overallRetention && a.tokensAfter > b.tokensAfter);
    return a.tokensAfter < b.tokensAfter;
  };
  if (span.length > 0 && !hasEditedSections(opts.edits)) {
    for (let k = 1; k < vc.RATIO_MAX_ATTEMPTS; k++) {
      const step = controlRatio(
        {
          target: state.target,
          tokensAfter: attempt.tokensAfter,
          summaryBudget: attempt.summaryBudget,
          summaryTokens: attempt.extracted.tokens,
          summaryFloor: attempt.extracted.floor,
          summaryNeed: attempt.extracted.need,
          summaryCap: bodyCap,
          initialSummaryBudget: initialBudget,
          tailBudget: keepRoom,
          loss: attempt.loss,
          importance,
        },
        vc,
      );
      if (step.action === 'accept') break;
      if (step.action === 'shrink-tail') {
        keepRoom = step.tailBudget;
        decision = decide(keepRoom);
        decisions = normalizeDecisions(decision.decisions, messages, header, pinned, restored, blocks);
        const nextSpan = spanOf(decisions);
        if (nextSpan.length === span.length) break; // the tail cannot shrink further
        span = nextSpan;
        material = makeMaterial(span, decision.chunks);
        facts = spanFacts(spanMsgs(), spanAnalyses(), { constants: state.segmentConstants });
        importance = meanImportance(spanAnalyses());
        const budget = Math.max(SUMMARY_MIN_TOKENS, Math.min(bodyCap, available - keptTokensOf(decisions)));
        attempt = attemptWith(budget, decisions, decision, material);
      } else {
        attempt = attemptWith(step.summaryBudget, decisions, decision, material);
      }
      if (better(attempt, best)) best = attempt;
    }
  }
  attempt = best;
  // The smallest result the invariants allow: everything fixed, the summary's floor, the
  // strategy's tail when given no room at all.
  const minimumTokens = minimumResult(attempt);
  const allWarnings = [...warnings, ...attempt.warnings];
  if (attempt.span.length > 0 && attempt.tokensAfter >= state.tokensBefore) {
    // Summarizing would not make it smaller (a short conversation, a tight target): keep it as it is.
    const keepAll: MessageDecision[] = messages.map(() => ({ decision: 'kept', reason: 'compaction would not make the conversation smaller' }));
    const message = `compacting would not make this conversation smaller (${formatCount(attempt.tokensAfter)} ≥ ${formatCount(state.tokensBefore)} tokens); it is left as it is`;
    attempt = finish(emptySectionTexts(), fitSectionMaterial(buildSectionMaterial([], []), 0), 0, keepAll, { decisions: keepAll, warnings: [] });
    compactionCount = priorCompactions;
    allWarnings.length = 0;
    allWarnings.push(message);
  }
  const finalSpan = attempt.span;
  if (attempt.extracted.floor > attempt.summaryBudget && finalSpan.length > 0) {
    allWarnings.push(
      `the summary's required content (every user message, file and error) needs ${formatCount(attempt.extracted.floor)} tokens, more than the ${formatCount(attempt.summaryBudget)} the target leaves for it; it is kept whole`,
    );
  }
  if (attempt.tokensAfter > state.target * (1 + vc.RATIO_OVERSHOOT_TOLERANCE) && finalSpan.length > 0) {
    allWarnings.push(`the result (${formatCount(attempt.tokensAfter)} tokens) is over the target of ${formatCount(state.target)}`);
  }
  if (finalSpan.length === 0 && attempt.decisions.every((d) => d.decision === 'kept')) allWarnings.push('nothing to compact: every message is kept (header, pinned or within the recent rounds)');
  if (compactionCount > COMPACTION_WARN_AFTER) {
    allWarnings.push(`this conversation has been compacted ${compactionCount} times; summary quality may degrade — consider starting a new session with the summary`);
  }
  const shape = validateApiShape(attempt.messages);
  if (!shape.ok) {
    const original = validateApiShape(messages);
    const before = new Set(original.problems.map((p) => `${p.kind}:${p.id}`));
    const fresh = shape.problems.filter((p) => !before.has(`${p.kind}:${p.id}`));
    for (const p of shape.problems.slice(0, 5)) allWarnings.push(`API shape (${p.api}): message ${p.id}: ${p.message}${before.has(`${p.kind}:${p.id}`) ? ' (already in the original)' : ''}`);
    if (fresh.length > 0) throw new Error(`compaction produced a conversation the chat APIs reject: ${fresh[0]!.message}`);
  }
  const spanMessages = finalSpan.map((i) => messages[i]!);
  const spanAnalysesFinal = finalSpan.map((i) => analyses[i]);
  return {
    state,
    attempt,
    mustKeep: facts.filter((f) => f.kind === 'userMessage' || f.kind === 'filePath' || f.kind === 'errorSignature' || f.kind === 'pendingTask'),
    spanMessages,
    spanAnalyses: spanAnalysesFinal,
    compactionCount,
    previousSummarized: material.previousSummarized,
    warnings: allWarnings,
    importance,
    minimumTokens,
  };
}

function hasEditedSections(edits: CompactionEdits | undefined): boolean {
  return !!edits?.sections && Object.keys(edits.sections).length > 0;
}

function applySectionEdits(sections: SectionTexts, edits: CompactionEdits | undefined): SectionTexts {
  if (!hasEditedSections(edits)) return sections;
  const out = { ...sections };
  for (const name of SECTION_NAMES) {
    const v = edits!.sections![name];
    if (typeof v === 'string') out[name] = v.trim();
  }
  return out;
}

// ── Result objects ────────────────────────────────────────────────────────────────────────

function summaryOf(sections: SectionTexts, summaryMessage: Message | undefined, counter: CachedTokenCounter): Summary {
  return {
    sections: SECTION_NAMES.map((name: SectionName) => ({ name, text: sections[name], tokens: sections[name] ? counter.count(sections[name]) : 0 })),
    tokens: summaryMessage ? counter.countMessage(summaryMessage) : 0,
  };
}

function planOf(core: CoreResult): MessagePlan[] {
  const { state, attempt } = core;
  return state.messages.map((m, i) => {
    const d = attempt.decisions[i]!;
    const a = state.analysis.messages[i]!;
    const present = PRESENT.has(d.decision);
    return {
      id: m.id,
      index: i,
      role: m.role,
      itemType: m.itemType,
      tokens: state.tokens[i]!,
      decision: d.decision,
      reason: d.reason,
      classification: a.classification,
      importance: a.importance,
      tokensAfter: present ? (d.replacement ? state.counter.countMessage(d.replacement) : state.tokens[i]!) : 0,
    };
  });
}

function statsOf(core: CoreResult, tokensAfter: number, resultMessages: readonly Message[], now: string | undefined): CompactionStats {
  const { state, attempt } = core;
  let kept = 0;
  let summarized = 0;
  let dropped = 0;
  for (const d of attempt.decisions) {
    if (d.decision === 'summarized') summarized++;
    else if (d.decision === 'dropped') dropped++;
    else kept++;
  }
  const systemIdx = state.messages.findIndex((m) => m.itemType === 'SYSTEM_PROMPT');
  const lastTs = [...state.messages].reverse().find((m) => m.timestamp)?.timestamp;
  return {
    original_tokens: state.tokensBefore,
    compressed_tokens: tokensAfter,
    ratio: ratioText(state.tokensBefore, tokensAfter),
    kept_messages: kept,
    summarized_count: summarized,
    dropped_count: dropped,
    compression_level: state.level,
    system_prompt_preserved: systemIdx >= 0 && resultMessages.includes(state.messages[systemIdx]!),
    timestamp: now ?? lastTs ?? '',
    messages: resultMessages.map((m) => ({ role: m.role as Role, content: statsContent(m), tokens: state.counter.countMessage(m) })),
  };
}

function newConversation(conv: Conversation, messages: Message[], compactions: number): Conversation {
  return { ...conv, messages, meta: { ...conv.meta, compactions } };
}

// ── Public API ────────────────────────────────────────────────────────────────────────────

/** The dry run: what compactConversation would produce with the extractive summarizer, without
 *  writing the archive. Synchronous. */
export function planCompaction(conv: Conversation, opts: PlanOptions): CompactionPreview {
  const core = runCore(prepare(conv, opts));
  return previewOf(core, opts.now);
}

function previewOf(core: CoreResult, now: string | undefined): CompactionPreview {
  const { state, attempt } = core;
  const conversation = newConversation(state.conv, attempt.messages, core.compactionCount);
  return {
    conversation,
    summary: summaryOf(attempt.sections, attempt.summaryMessage, state.counter),
    plan: planOf(core),
    loss: attempt.loss,
    stats: statsOf(core, attempt.tokensAfter, attempt.messages, now),
    tokensBefore: state.tokensBefore,
    tokensAfter: attempt.tokensAfter,
    target: state.target,
    minimumTokens: core.minimumTokens,
    strategy: state.strategyName,
    level: state.level,
    compactionCount: core.compactionCount,
    warnings: core.warnings,
    sections: attempt.sections,
    summarizedIds: attempt.span.map((i) => state.messages[i]!.id),
  };
}

/** Where each kind of must-keep fact belongs in the summary. */
const HOME_SECTION: Partial<Record<Fact['kind'], SectionName>> = {
  userMessage: 'All user messages',
  filePath: 'Files and Code Sections',
  errorSignature: 'Errors and fixes',
  pendingTask: 'Pending Tasks',
};

/** Merges must-keep facts an LLM summary dropped back from the extractive sections: when a
 *  fact is missing from its home section (user messages, files, errors, pending tasks), the
 *  extractive bullet holding it is appended there. */
function mergeBack(llm: SectionTexts, extractive: SectionTexts, mustKeep: readonly Fact[]): { sections: SectionTexts; mergedBack: Fact[] } {
  const out = { ...llm };
  const mergedBack: Fact[] = [];
  const targets = new Map<SectionName, string>();
  for (const fact of mustKeep) {
    const home = HOME_SECTION[fact.kind];
    if (!home) continue;
    let target = targets.get(home);
    if (target === undefined) {
      target = normalizeForMatch(out[home]);
      targets.set(home, target);
    }
    if (factPresent(fact, target)) continue;
    const value = normalizeForMatch(fact.value);
    const hit = extractive[home].split(/\n(?=- )/).find((b) => normalizeForMatch(b).includes(value));
    if (!hit) continue;
    out[home] = out[home] ? `${out[home]}\n${hit}` : hit;
    targets.delete(home);
    mergedBack.push(fact);
  }
  return { sections: out, mergedBack };
}

export async function compactConversation(conv: Conversation, opts: CompactOptions): Promise<CompactionResult> {
  const started = opts.clock?.();
  const progress = (phase: string, fraction?: number) => opts.onProgress?.(fraction === undefined ? { phase } : { phase, fraction });
  if (!opts || typeof opts !== 'object' || !opts.archive || typeof opts.archive.put !== 'function') {
    throw new CompactionInputError('options.archive: expected an ArchiveStore (e.g. new MemoryArchive())');
  }
  throwIfAborted(opts.signal);
  progress('analyze', 0);
  const state = prepare(conv, opts);
  throwIfAborted(opts.signal);
  progress('plan', 0.3);
  const emit = (phase: Parameters<CompactionEventBus['emit']>[0]['phase'], tokensBefore: number, tokensAfter: number) =>
    opts.events?.emit({ phase, tokensBefore, tokensAfter, strategy: state.strategyName, level: state.level });
  emit('selective_start', state.tokensBefore, state.tokensBefore);
  const core = runCore(state);
  throwIfAborted(opts.signal);
  let { attempt } = core;
  // After the in-place work, before the summary: summarized messages still count whole.
  const afterSelective =
    REPLY_PRIMING + attempt.decisions.reduce((s, d, i) => s + (d.decision === 'summarized' ? state.tokens[i]! : d.decision === 'dropped' ? 0 : d.replacement ? state.counter.countMessage(d.replacement) : state.tokens[i]!), 0);
  emit('selective_done', state.tokensBefore, afterSelective);
  emit('summary_start', afterSelective, afterSelective);
  const warnings = [...core.warnings];
  let summarizerInfo: SummarizerInfo = { name: EXTRACTIVE_SUMMARIZER_NAME };
  let loss = attempt.loss;

  const summarizer = opts.summarizer;
  if (summarizer && summarizer.name !== EXTRACTIVE_SUMMARIZER_NAME && attempt.span.length > 0) {
    progress('summarize', 0.5);
    const previousText = core.spanMessages.filter((m) => m.itemType === 'COMPACTION_SUMMARY').map((m) => messageText(m));
    const previous = previousText.length > 0 ? parseSummary(previousText.join('\n\n')) : undefined;
    const req: SummarizeRequest = {
      messages: core.spanMessages,
      extractive: attempt.sections,
      mustKeep: core.mustKeep,
      maxTokens: attempt.summaryBudget,
      ...(previous ? { previous: { sections: SECTION_NAMES.map((name) => ({ name, text: previous.sections[name], tokens: 0 })), tokens: 0 } } : {}),
      ...(opts.focus !== undefined ? { focus: opts.focus } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      onProgress: (p) => progress('summarize', 0.5 + 0.3 * (p.fraction ?? 0)),
    };
    try {
      const res = await summarizer.summarize(req);
      throwIfAborted(opts.signal);
      const merged = mergeBack(res.sections, attempt.sections, core.mustKeep);
      const sections = applySectionEdits(merged.sections, opts.edits);
      const rerun = rebuildWithSections(core, sections);
      attempt = rerun.attempt;
      loss = { ...rerun.attempt.loss, mergedBack: [...(res.mergedBack ?? []), ...merged.mergedBack] };
      summarizerInfo = {
        name: summarizer.name,
        ...(res.model ?? summarizer.model ? { model: res.model ?? summarizer.model } : {}),
        ...(res.usage ? { inputTokens: res.usage.inputTokens, outputTokens: res.usage.outputTokens } : {}),
        durationMs: res.durationMs,
        ...(res.retries !== undefined ? { retries: res.retries } : {}),
        ...(res.fallbackReason ? { fallbackReason: res.fallbackReason } : {}),
      };
      if (res.fallbackReason) warnings.push(`the ${summarizer.name} summary was not used (${res.fallbackReason}); the extractive summary was used`);
    } catch (e) {
      if (opts.signal?.aborted || (e instanceof Error && e.name === 'AbortError')) throw new CompactionAbortedError();
      const reason = e instanceof Error ? e.message : String(e);
      summarizerInfo = { name: EXTRACTIVE_SUMMARIZER_NAME, fallbackReason: `${summarizer.name} failed: ${reason}` };
      warnings.push(`the ${summarizer.name} summarizer failed (${reason}); the extractive summary was used`);
    }
  }
  throwIfAborted(opts.signal);
  progress('archive', 0.85);
  const archiveId = await archiveConversation(conv, opts.archive);
  throwIfAborted(opts.signal);
  progress('assemble', 0.95);
  // The summary message names the archive entry it can be restored from.
  if (attempt.summaryMessage) {
    const withId: Message = {
      ...attempt.summaryMessage,
      source: { format: 'compacted', extra: { ...(attempt.summaryMessage.source?.extra ?? {}), archiveId } },
    };
    attempt = { ...attempt, summaryMessage: withId, messages: attempt.messages.map((m) => (m === attempt.summaryMessage ? withId : m)) };
  }
  const conversation = newConversation(conv, attempt.messages, core.compactionCount);
  const durationMs = started !== undefined && opts.clock ? Math.max(0, opts.clock() - started) : 0;
  const coreFinal: CoreResult = { ...core, attempt };
  const result: CompactionResult = {
    conversation,
    summary: summaryOf(attempt.sections, attempt.summaryMessage, state.counter),
    plan: planOf(coreFinal),
    loss,
    stats: statsOf(coreFinal, attempt.tokensAfter, attempt.messages, opts.now),
    archiveId,
    tokensBefore: state.tokensBefore,
    tokensAfter: attempt.tokensAfter,
    strategy: state.strategyName,
    level: state.level,
    summarizer: summarizerInfo,
    compactionCount: core.compactionCount,
    warnings,
    durationMs,
    target: state.target,
    minimumTokens: core.minimumTokens,
  };
  opts.monitor?.record({
    durationMs,
    ratio: state.tokensBefore > 0 ? attempt.tokensAfter / state.tokensBefore : 1,
    qualityScore: loss.overallRetention,
    success: loss.acceptable,
  });
  emit('summary_done', afterSelective, attempt.tokensAfter);
  emit('compaction_performed', state.tokensBefore, attempt.tokensAfter);
  progress('done', 1);
  return result;
}

/** Re-assembles the result around given section texts (an LLM summary, merged back). */
function rebuildWithSections(core: CoreResult, sections: SectionTexts): { attempt: Attempt } {
  const { state, attempt } = core;
  const { messages, counter, vc } = state;
  const readability = checkReadability(sections, vc);
  const header = new Set<number>();
  messages.forEach((m, i) => {
    if (isHeaderItem(m)) header.add(i);
  });
  const idx = attempt.span;
  const originalChars = idx.reduce((s, i) => s + messageAsText(messages[i]!).length, 0);
  const compressedChars = renderSections(sections).length;
  const prior = attempt.summaryMessage?.source?.extra;
  const meta: CompressionMetadata = {
    originalChars,
    compressedChars,
    ratio: originalChars > 0 ? round2(compressedChars / originalChars) : 0,
    qualityScore: 0,
    compactions: core.compactionCount,
    summarizedMessages: typeof prior?.summarizedMessages === 'number' ? prior.summarizedMessages : idx.length,
  };
  const facts = spanFacts(core.spanMessages, core.spanAnalyses, { constants: state.segmentConstants });
  const draft = assemble(messages, attempt.decisions, header, buildSummaryMessage(sections, meta, undefined), attempt.summaryBefore);
  const loss = detectLoss({ facts, resultText: draft.map(messageAsText).join('\n'), importance: core.importance, readability }, vc);
  const summaryMessage = buildSummaryMessage(sections, { ...meta, qualityScore: round2(loss.overallRetention) }, undefined);
  const result = assemble(messages, attempt.decisions, header, summaryMessage, attempt.summaryBefore);
  return {
    attempt: { ...attempt, sections, summaryMessage, messages: result, tokensAfter: counter.countMessages(result), loss },
  };
}

/** The original conversation a compaction replaced, exactly (deep-equal, JSON-identical). */
export async function undoCompaction(archiveId: string, archive: ArchiveStore): Promise<Conversation> {
  return readArchivedConversation(archiveId, archive);
}

/** The Markdown of a conversation's compaction summary (the last one), if it has one. */
export function summaryTextOf(conversation: Conversation): string | undefined {
  const m = [...conversation.messages].reverse().find((x) => x.itemType === 'COMPACTION_SUMMARY');
  return m ? messageText(m) : undefined;
}
