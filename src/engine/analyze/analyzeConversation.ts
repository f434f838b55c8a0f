// The analyze and prioritize stages: one pass over the messages for per-message features, then the conversation-wide measures
// (cross-references, near-duplicates, recency, current work, focus), then the metrics.
// Content measures (classification, density, criticality, dependency, uniqueness,
// relevance) read everything a message carries, tool-call arguments included; the keyword
// signals (tier, role-score keywords, key events) read only the words the
// speaker chose (text and thinking): "must" inside a file being written is not a rule.
// Pure and deterministic: the same messages and options give deep-equal output. Linear in the
// size of the conversation (inverted index for references, LSH for near-duplicates).

import { isToolResult, isUserAuthored, messageText, thinkingText, type Message } from '../conversation/model';
import { shingleHashes, tokenHashes } from '../text/similarity';
import { contentTerms } from '../text/terms';
import type { AnalyzeOptions, ConversationAnalysis, MessageAnalysis, MessageRefs } from './analysis';
import { analysisText } from './analysisText';
import { classifyText, countCodeSnippets, type ClassifyDetail } from './classify';
import { AnalyzeOptionsError, resolveConstants, type AnalyzeConstants } from './constants';
import { scanContent, type ContentScan } from './contentScan';
import { findCrossReferences, referenceKeys } from './crossReferences';
import { actionabilityScore, criticality, dependency, overallImportance, uniqueness } from './importance';
import { detectKeyEvents, editResultFlags, statesTask } from './keyEvents';
import { isAcknowledgementText, isPromptAnswer, keywordTier } from './keywords';
import { findNearDuplicates } from './nearDuplicates';
import { extractMessageRefs, type RefLimits } from './refs';
import { combinedRelevance, currentRelevance, currentWindowStart, focusScore, parseFocus } from './relevance';
import { roleScore } from './roleScore';
import { detectTaskType } from './taskType';
import { parseNow, recencyFactors, temporalCategory, temporalScore } from './temporal';
import { toolCallKind } from './toolKinds';

/** Per-message facts gathered in the first pass. */
interface Features {
  /** Text, thinking and tool-call arguments (analysisText). */
  text: string;
  /** `text` lower-cased, markup tags removed: what the content measures read. */
  lower: string;
  /** Text and thinking only, lower-cased: the words the speaker chose. */
  speech: string;
  visible: string;
  refs: MessageRefs;
  keys: string[];
  terms: Set<string>;
  shingles: Uint32Array;
  isAck: boolean;
  scan: ContentScan;
  detail: ClassifyDetail;
}

/** Lower-case markup tags (<output>, </returncode>, <system-reminder>): wrappers that agents put
 *  around content. Their names are not content words ("output" would make every mini-swe-agent
 *  tool result look like user interaction). */
const MARKUP_TAG = /<\/?[a-z][\w-]*(?:\s[^<>\n]*)?>/g;

const PIN_MARKER = /<\/?pin>/;

function withoutMarkupTags(lower: string): string {
  return lower.includes('<') ? lower.replace(MARKUP_TAG, ' ') : lower;
}

/** Scores are rounded so that output is stable to read and compare (and JSON stays short). */
function r4(x: number): number {
  return Math.round(x * 10000) / 10000;
}

function checkMessages(messages: readonly Message[]): void {
  if (!Array.isArray(messages)) {
    throw new AnalyzeOptionsError(`analyzeConversation: expected an array of messages, got ${messages === null ? 'null' : typeof messages}`);
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Partial<Message> | null | undefined;
    if (m === null || typeof m !== 'object') throw new AnalyzeOptionsError(`analyzeConversation: messages[${i}]: expected a message object`);
    if (!Array.isArray(m.content)) throw new AnalyzeOptionsError(`analyzeConversation: messages[${i}] (id ${String(m.id)}): expected content to be an array of parts`);
    if (typeof m.role !== 'string') throw new AnalyzeOptionsError(`analyzeConversation: messages[${i}] (id ${String(m.id)}): expected a role`);
  }
}

function readCurrentRounds(value: number | undefined, c: AnalyzeConstants): number {
  if (value === undefined) return c.CURRENT_ROUNDS_DEFAULT;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new AnalyzeOptionsError(`AnalyzeOptions.currentRounds: expected a whole number ≥ 0, got ${String(value)}`);
  }
  return value;
}

function codeBlockCount(m: Message, text: string): number {
  let n = countCodeSnippets(text).fenced;
  for (const call of m.toolCalls ?? []) if (toolCallKind(call) === 'edit') n++;
  return n;
}

export function analyzeConversation(messages: readonly Message[], opts: AnalyzeOptions = {}): ConversationAnalysis {
  checkMessages(messages);
  const c = resolveConstants(opts.constants);
  const currentRounds = readCurrentRounds(opts.currentRounds, c);
  const now = parseNow(opts.now);
  if (opts.focus !== undefined && typeof opts.focus !== 'string') {
    throw new AnalyzeOptionsError(`AnalyzeOptions.focus: expected a string, got ${typeof opts.focus}`);
  }
  const focus = parseFocus(opts.focus, c);
  const limits: RefLimits = {
    maxFiles: c.REFS_MAX_FILES,
    maxIdentifiers: c.REFS_MAX_IDENTIFIERS,
    maxErrors: c.REFS_MAX_ERRORS,
    maxErrorChars: c.ERROR_SIGNATURE_MAX_CHARS,
  };

  // Pass 1: what each message says.
  const features: Features[] = messages.map((m) => {
    const text = analysisText(m);
    const lower = withoutMarkupTags(text.toLowerCase());
    const visible = messageText(m);
    const thinking = thinkingText(m);
    const speech = (thinking ? (visible ? `${visible}\n${thinking}` : thinking) : visible).toLowerCase();
    const refs = extractMessageRefs(m, limits);
    const speaker = isUserAuthored(m) || (m.role === 'assistant' && !isToolResult(m));
    const isAck =
      speaker && (m.toolCalls?.length ?? 0) === 0 && (isAcknowledgementText(visible, c.ACK_MAX_CHARS) || (isUserAuthored(m) && isPromptAnswer(visible)));
    const scan = scanContent(lower);
    const tokens = tokenHashes(lower);
    const detail = classifyText(
      text,
      tokens,
      scan,
      { errorSignatures: refs.errors.length, isErrorResult: m.toolResult?.isError === true, codeBlocks: codeBlockCount(m, text) },
      c,
    );
    return {
      text,
      lower,
      speech,
      visible,
      refs,
      keys: referenceKeys(refs),
      terms: contentTerms(lower, c.TERM_MIN_LENGTH),
      shingles: shingleHashes(tokens.ids),
      isAck,
      scan,
      detail,
    };
  });

  // Pass 2: conversation-wide measures.
  const xref = findCrossReferences(features.map((f) => f.keys));
  const dups = findNearDuplicates(
    features.map((f) => f.shingles),
    c,
  );
  const recency = recencyFactors(messages, now, c);
  const currentStart = currentWindowStart(messages, currentRounds, c);
  const current = currentRelevance(
    features.map((f) => f.terms),
    features.map((f) => f.keys),
    currentStart,
    c,
  );
  const editResults = editResultFlags(messages);
  const firstUser = messages.findIndex((m, i) => isUserAuthored(m) && statesTask(features[i]!.visible, features[i]!.isAck));

  // Pass 3: metrics per message.
  const out: MessageAnalysis[] = messages.map((m, i) => {
    const f = features[i]!;
    const cls = f.detail.classification;
    const signals = detectKeyEvents(
      { message: m, lower: f.speech, fullLower: f.lower, visibleText: f.visible, refs: f.refs, isFirstUserMessage: i === firstUser, resultOfEdit: editResults[i]! },
      c,
    );
    const crit = criticality(f.scan, cls.contentType, c);
    const dep = dependency(f.scan, xref.referencedBy[i]!.length, xref.refersTo[i]!.length, c);
    const uniq = uniqueness(f.text, dups.similarCount[i]!, c);
    const act = actionabilityScore(cls.actionability, f.detail.actionableMatches, c);
    const overall = overallImportance({ criticality: crit, dependency: dep, uniqueness: uniq, actionability: act }, c);
    const category = temporalCategory(f.scan);
    const relevance = combinedRelevance(current[i]!, focus ? focusScore(f.lower, f.scan, f.terms, focus, c) : undefined, c);
    const tier = tierOf(m, f, c);
    const analysis: MessageAnalysis = {
      index: i,
      id: m.id,
      classification: {
        contentType: cls.contentType,
        confidence: r4(cls.confidence),
        keywords: cls.keywords,
        technicalLevel: cls.technicalLevel,
        actionability: cls.actionability,
        density: r4(cls.density),
      },
      importance: {
        criticality: r4(crit),
        dependency: r4(dep),
        uniqueness: r4(uniq),
        actionability: r4(act),
        overall: r4(overall),
        temporal: r4(temporalScore(recency[i]!, category, c)),
        temporalCategory: category,
        relevance: r4(relevance),
        roleScore: r4(roleScore(m, f.speech, signals, c)),
        tier,
      },
      refs: f.refs,
      isAcknowledgement: f.isAck,
      keyEvents: signals.events,
      referencedBy: xref.referencedBy[i]!,
    };
    const dup = dups.nearDuplicateOf[i];
    if (dup !== undefined) analysis.nearDuplicateOf = dup;
    return analysis;
  });

  const task = detectTaskType(messages, c);
  const result: ConversationAnalysis = {
    messages: out,
    taskType: task.taskType,
    taskTypeEvidence: { confidence: task.confidence, signals: task.signals },
    currentStart,
  };
  if (focus) result.focus = focus;
  return result;
}

/**
 * Keyword tier. Header items (system prompt, tool definitions, memory) and pinned messages
 * (`pinned`, a <Pin> marker) are kept verbatim, so they are extreme. Tool results keep the
 * default: tiers score the dialogue, and words inside a tool's output ("must" in a source file) are not the user's or
 * the assistant's rules.
 */
function tierOf(m: Message, f: Features, c: AnalyzeConstants): number {
  if (m.itemType === 'SYSTEM_PROMPT' || m.itemType === 'TOOL_DEFINITIONS' || m.itemType === 'MEMORY') return c.TIER_EXTREME;
  if (m.pinned || PIN_MARKER.test(f.speech)) return c.TIER_EXTREME;
  if (isToolResult(m)) return c.TIER_DEFAULT;
  return keywordTier(f.speech, f.isAck, c).tier;
}
