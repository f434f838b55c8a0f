// The one attempt builder: given the decisions, the span and the eight section texts — the
// extractive sections fitted to a budget, or an LLM's sections merged back — it builds the
// summary message, assembles the result and measures what was lost. Both paths and every run of
// the ratio loop go through buildAttempt, so they cannot drift apart.

import { memoSlot } from '../conversation/messageMemo';
import type { Message } from '../conversation/model';
import type { CompactionEdits, DegradationStep, LossReport } from '../result';
import { fitSectionMaterial } from '../segments/extractSections';
import { renderSections, type CompressionMetadata } from '../segments/renderSummary';
import { SECTION_NAMES, type SectionTexts } from '../sections';
import { joinNormalized, normalizeForMatch } from '../validate/factMatch';
import { tokenizeNormalized, type TokenizedText } from '../validate/factTokens';
import { detectLoss } from '../validate/lossDetector';
import { checkReadability } from '../validate/readability';
import { assemble } from './assemble';
import type { Decided } from './decisions';
import type { CompactionInput } from './input';
import type { ResolvedOptions } from './options';
import type { SpanContent } from './spanContent';
import { extractOptions } from './spanContent';
import { buildSummaryMessage, messageAsText, round2, summaryStyleOf } from './summaryMessage';

/** How the extractive sections fitted their budget (the ratio controller reads these). */
export interface FitFigures {
  /** Tokens of the section bodies. */
  tokens: number;
  /** Tokens the required content (every user message, file, error) needs. */
  floor: number;
  /** Tokens every item in its fullest form would take. */
  need: number;
  /** The steps the required content took to fit (segments/degrade.ts). */
  degradation: DegradationStep[];
}

export interface Attempt {
  decided: Decided;
  content: SpanContent;
  sections: SectionTexts;
  /** The extractive fit this attempt was built on. */
  fit: FitFigures;
  summaryBudget: number;
  summaryMessage: Message | undefined;
  /** The result's messages, in order. */
  messages: Message[];
  tokensAfter: number;
  loss: LossReport;
  /** What gave way to meet the target: the sections' required content, the kept messages. */
  degradation: DegradationStep[];
}

/** What every attempt of one compaction shares. */
export interface AttemptContext {
  input: CompactionInput;
  options: ResolvedOptions;
  /** How many compactions the summary stands for, this one included. */
  compactions: number;
}

export function hasEditedSections(edits: CompactionEdits | undefined): boolean {
  return !!edits?.sections && Object.keys(edits.sections).length > 0;
}

/** The sections with the inspector's edits applied (an edited section replaces the computed one). */
export function applySectionEdits(sections: SectionTexts, edits: CompactionEdits | undefined): SectionTexts {
  if (!hasEditedSections(edits)) return sections;
  const out = { ...sections };
  for (const name of SECTION_NAMES) {
    const v = edits!.sections![name];
    if (typeof v === 'string') out[name] = v.trim();
  }
  return out;
}

/** A summary's text cut before each section heading: normalized apart, the parts join to the
 *  normal form of the whole (joinNormalized; the cuts fall on the blank lines between sections). */
function summaryParts(text: string): string[] {
  const parts = text.split(SECTION_CUT);
  for (let k = 1; k < parts.length; k++) parts[k] = `## ${parts[k]}`;
  return parts;
}

const SECTION_CUT = '\n\n## ';

const TEXT_LENGTH = memoSlot<number>('attempt.textLength');
/** What TEXT_LENGTH holds for a message (one function, not one per message read). */
const textLength = (m: Message): number => messageAsText(m).length;
const NORMALIZED = memoSlot<TokenizedText>('attempt.normalizedTokens');

/** The result around `sections`: summary message, assembled messages, loss. */
export function buildAttempt(
  ctx: AttemptContext,
  decided: Decided,
  content: SpanContent,
  sections: SectionTexts,
  fit: FitFigures,
  summaryBudget: number,
): Attempt {
  const { input, options } = ctx;
  const { messages, counter, header } = input;
  const limits = options.limits.validate;
  const readability = checkReadability(sections, limits);
  const style = summaryStyleOf(options);
  const summaryBefore = decided.strategy.summaryBefore;
  let summaryMessage: Message | undefined;
  let loss: LossReport;
  if (decided.span.length > 0) {
    const originalChars = decided.span.reduce((s, i) => s + options.cache.messages.get(messages[i]!, TEXT_LENGTH, textLength), 0);
    // Rendered once: its length, the draft and the final message.
    const body = renderSections(sections);
    const compressedChars = body.length;
    let summarized = 0;
    for (const i of decided.span) if (messages[i]!.itemType !== 'COMPACTION_SUMMARY') summarized++;
    const provisional: CompressionMetadata = {
      originalChars,
      compressedChars,
      ratio: originalChars > 0 ? round2(compressedChars / originalChars) : 0,
      qualityScore: 0,
      compactions: ctx.compactions,
      summarizedMessages: content.material.previousSummarized + summarized,
    };
    const draftSummary = buildSummaryMessage(sections, provisional, style, body, true);
    const draft = assemble(messages, decided.decisions, header, draftSummary, summaryBefore);
    // Each kept message is normalized and tokenized once per compaction (or conversation); the
    // summary by its sections, each once while the attempts repeat it.
    const normalize = (m: Message) => tokenizeNormalized(normalizeForMatch(messageAsText(m)));
    const normalizedParts: TokenizedText[] = [];
    for (const m of draft) {
      if (m !== draftSummary) normalizedParts.push(options.cache.messages.get(m, NORMALIZED, normalize));
      else for (const part of summaryParts(messageAsText(m))) normalizedParts.push(options.cache.normalized(part));
    }
    const normalizedText = joinNormalized(normalizedParts.map((p) => p.text));
    loss = detectLoss({ facts: content.facts, resultText: '', normalizedText, normalizedParts, importance: content.importance, readability }, limits);
    summaryMessage = buildSummaryMessage(sections, { ...provisional, qualityScore: round2(loss.overallRetention) }, style, body);
  } else {
    loss = detectLoss({ facts: [], resultText: '', importance: content.importance, readability }, limits);
  }
  const result = assemble(messages, decided.decisions, header, summaryMessage, summaryBefore);
  // The summary shares most of its lines with the other attempts' summaries: counted by its lines.
  if (summaryMessage) counter.countMessageWith(summaryMessage, options.cache.textCounter(counter));
  // The kept messages may have been shortened even when nothing was summarized (a last round
  // over its room).
  const degradation = [...(decided.span.length > 0 ? fit.degradation : []), ...(decided.strategy.degradation ?? [])];
  return { decided, content, sections, fit, summaryBudget, summaryMessage, messages: result, tokensAfter: counter.countMessages(result), loss, degradation };
}

/** The extractive sections of the span fitted to `summaryBudget`, edits applied, as an attempt. */
export function extractiveAttempt(ctx: AttemptContext, decided: Decided, content: SpanContent, summaryBudget: number): Attempt {
  const extracted = fitSectionMaterial(content.material, summaryBudget, extractOptions(ctx.input, ctx.options));
  const sections = applySectionEdits(extracted.sections, ctx.options.edits);
  return buildAttempt(
    ctx,
    decided,
    content,
    sections,
    { tokens: extracted.tokens, floor: extracted.floor, need: extracted.need, degradation: extracted.degradation },
    summaryBudget,
  );
}
