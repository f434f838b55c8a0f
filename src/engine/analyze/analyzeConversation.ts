// The analyze and prioritize stages: one pass over the messages for per-message features, then the conversation-wide measures
// (cross-references, near-duplicates, recency, current work, focus), then the metrics.
// Content measures (classification, density, criticality, dependency, uniqueness,
// relevance) read everything a message carries, tool-call arguments included; the keyword
// signals (tier, role-score keywords, key events) read only the words the
// speaker chose (text and thinking): "must" inside a file being written is not a rule.
// Pure and deterministic: the same messages and options give deep-equal output. Linear in the
// size of the conversation (inverted index for references, LSH for near-duplicates). What a
// message alone gives is read once per message (AnalyzeOptions.memo keeps it for the next
// analysis of a grown conversation); the conversation-wide passes are cheap over those readings.

import { memoOrFresh, memoSlotWith, sameItems, TermNumbers, type MemoEntry } from '../conversation/messageMemo';
import { isToolResult, isUserAuthored, messageText, thinkingText, type Message } from '../conversation/model';
import type { Classification, TemporalCategory } from '../result';
import { shingleHashes, tokenHashes } from '../text/similarity';
import { contentTerms } from '../text/terms';
import type { AnalyzeOptions, ConversationAnalysis, KeyEventKind, MessageAnalysis, MessageRefs, ParsedFocus } from './analysis';
import { analysisText } from './analysisText';
import { classifyText, countCodeSnippets } from './classify';
import { AnalyzeOptionsError, resolveConstants, type AnalyzeConstants } from './constants';
import { scanContent } from './contentScan';
import { advanceCrossReferences, crossReferenceScan, referenceKeys, type CrossReferences } from './crossReferences';
import { actionabilityScore, criticality, dependency, overallImportance, uniquenessIndicators, uniquenessOf } from './importance';
import { userWords } from './injectedContext';
import { advanceEditResults, editResultScan, keyEventEvidence, evidenceBits, keyEventsOf, statesTask, type KeyEventEvidence } from './keyEvents';
import { classificationInterner, importanceInterner, Interner, sameImportance, zeroImportance } from './interner';
import { isAcknowledgementText, isPromptAnswer, keywordTier } from './keywords';
import { advanceNearDuplicates, lshBandKeys, nearDuplicateScan, type NearDuplicates } from './nearDuplicates';
import { readingKey, readingKeyHash } from './readingKey';
import { extractMessageRefs, type RefLimits } from './refs';
import { advanceTermFrequencies, combinedRelevance, currentRelevance, currentWindowStart, focusScore, parseFocus, termFrequencyScan } from './relevance';
import { roleScore } from './roleScore';
import { detectTaskType } from './taskType';
import { advanceTimestamps, parseNow, recencyFactors, temporalCategory, temporalScore } from './temporal';
import { toolCallKind } from './toolKinds';
import { TypedArena } from './typedArena';

/** What one message says, read once: everything the metrics need that depends on the message
 *  alone (and the constants), so that a conversation analyzed again reads only its new messages. */
interface MessageReading {
  refs: MessageRefs;
  keys: readonly string[];
  /** Its subject terms, as numbers (ReadingContext.terms). */
  terms: Int32Array;
  shingles: Uint32Array;
  /** LSH buckets of the shingles (nearDuplicates.ts), kept when the reading is (else the scan
   *  makes them and lets them go). */
  bands: Int32Array | undefined;
  isAck: boolean;
  /** A person's message that can open the task (keyEvents.ts statesTask). */
  statesTask: boolean;
  /** What the dependency metric reads of the content scan. */
  scanCounts: { dependency: number; outbound: number };
  /** The classification as the analysis gives it (rounded): one object for every analysis, and
   *  for every message classified alike (Interner). */
  shownClassification: Classification;
  /** The key events it shows when it is not the task's first message, as the result of an edit
   *  or not: filled as the analyses ask. */
  shownEvents: readonly KeyEventKind[] | undefined;
  shownEditEvents: readonly KeyEventKind[] | undefined;
  actionableMatches: number;
  events: KeyEventEvidence;
  roleScore: number;
  criticality: number;
  uniquenessIndicators: number;
  actionability: number;
  temporalCategory: TemporalCategory;
  tier: number;
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
    if (!Array.isArray(m.content))
      throw new AnalyzeOptionsError(`analyzeConversation: messages[${i}] (id ${String(m.id)}): expected content to be an array of parts`);
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

/** Fenced code blocks (`fenced`, of the message's text) and file-editing tool calls. */
function codeBlockCount(m: Message, fenced: number): number {
  let n = fenced;
  for (const call of m.toolCalls ?? []) if (toolCallKind(call) === 'edit') n++;
  return n;
}

/** How well a message matches the focus (read again from the message: the reading keeps no text). */
function focusOf(m: Message, focus: ParsedFocus, c: AnalyzeConstants): number {
  const lower = lowerOf(analysisText(m));
  return focusScore(lower, scanContent(lower), contentTerms(lower, c.TERM_MIN_LENGTH), focus, c);
}

/** `text` lower-cased, markup tags removed: what the content measures read. */
function lowerOf(text: string): string {
  return withoutMarkupTags(text.toLowerCase());
}

/** The messages' readings, in order, with their memo entries (when the memo outlives the call:
 *  pass 3 reads each message's earlier analysis there) and the parts the conversation-wide
 *  scans read, one entry per message read. */
interface ReadingColumns {
  readings: MessageReading[];
  entries: MemoEntry[];
  keys: (readonly string[])[];
  terms: Int32Array[];
  shingles: Uint32Array[];
  /** Only when the readings keep their bands (ReadingContext.lasting). */
  bands: Int32Array[];
}

function readingColumns(): ReadingColumns {
  return { readings: [], entries: [], keys: [], terms: [], shingles: [], bands: [] };
}

/** What a reading is made with beside the message. */
interface ReadingContext {
  c: AnalyzeConstants;
  limits: RefLimits;
  /** Whether the reading is kept for later analyses (a memo that outlives the call). */
  lasting: boolean;
  /** Numbers for terms: the memo's when it keeps the readings, else this analysis' own, which go
   *  with it (a long conversation has many terms). */
  terms: TermNumbers;
  classifications: Interner<Classification>;
  evidences: Interner<KeyEventEvidence>;
  /** Where the reading's terms and shingles are kept. */
  arena: TypedArena;
}

function readMessage(m: Message, { c, limits, lasting, terms, classifications, evidences, arena }: ReadingContext): MessageReading {
  // Text, thinking and tool-call arguments (analysisText); the visible text; and the words the
  // speaker chose (text and thinking), lower-cased.
  // A person's message is read by their own words (analyze/injectedContext.ts).
  const user = isUserAuthored(m);
  const text = user ? userWords(analysisText(m)) : analysisText(m);
  const textLower = text.toLowerCase();
  const lower = withoutMarkupTags(textLower);
  const visible = user ? userWords(messageText(m)) : messageText(m);
  const thinking = thinkingText(m);
  const spoken = thinking ? (visible ? `${visible}\n${thinking}` : thinking) : visible;
  // Most messages say only what they show (no tool call): their text lower-cased once serves both.
  const speech = spoken === text ? textLower : spoken.toLowerCase();
  const refs = extractMessageRefs(m, limits);
  const speaker = user || (m.role === 'assistant' && !isToolResult(m));
  const isAck = speaker && (m.toolCalls?.length ?? 0) === 0 && (isAcknowledgementText(visible, c.ACK_MAX_CHARS) || (user && isPromptAnswer(visible)));
  const scan = scanContent(lower);
  const tokens = tokenHashes(lower);
  const shingles = arena.uint32(shingleHashes(tokens.ids));
  const snippets = countCodeSnippets(text);
  const detail = classifyText(
    text,
    tokens,
    scan,
    { errorSignatures: refs.errors.length, isErrorResult: m.toolResult?.isError === true, codeBlocks: codeBlockCount(m, snippets.fenced) },
    c,
  );
  const cls = detail.classification;
  const events = evidences.of(keyEventEvidence({ message: m, lower: speech, fullLower: lower, visibleText: visible, refs }, c));
  return {
    refs,
    keys: referenceKeys(refs),
    terms: arena.int32(Array.from(contentTerms(lower, c.TERM_MIN_LENGTH), (t) => terms.of(t))),
    shingles,
    bands: lasting ? lshBandKeys(shingles, c) : undefined,
    isAck,
    statesTask: user && statesTask(visible, isAck),
    scanCounts: { dependency: scan.counts.dependency, outbound: scan.counts.outbound },
    shownClassification: classifications.of({
      contentType: cls.contentType,
      confidence: r4(cls.confidence),
      keywords: cls.keywords,
      technicalLevel: cls.technicalLevel,
      actionability: cls.actionability,
      density: r4(cls.density),
    }),
    shownEvents: undefined,
    shownEditEvents: undefined,
    actionableMatches: detail.actionableMatches,
    events,
    // The role score reads the key events' signals, none of which depends on where the message stands.
    roleScore: roleScore(m, speech, keyEventsOf(events, false, false), c),
    criticality: criticality(scan, cls.contentType, c),
    uniquenessIndicators: uniquenessIndicators(text, c, snippets),
    actionability: actionabilityScore(cls.actionability, detail.actionableMatches, c),
    temporalCategory: temporalCategory(scan),
    tier: tierOf(m, speech, isAck, c),
  };
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
  const memo = memoOrFresh(opts.memo);
  const readingSlot = memoSlotWith<MessageReading>('analyze.reading', c);
  const shownSlot = memo.lasting ? memoSlotWith<MessageAnalysis>(`analyze.shown:${focus ? JSON.stringify(focus) : ''}`, c) : undefined;
  const focusSlot = focus ? memoSlotWith<number>(`analyze.focus:${JSON.stringify(focus)}`, c) : undefined;

  // Pass 1: what each message says. A memo that outlives this call keeps the readings (and the
  // near-duplicate scan) for the next analysis of the grown conversation; one for this call only
  // would just hold them longer.
  const lasting = memo.lasting;
  const context: ReadingContext = {
    c,
    limits,
    lasting,
    terms: lasting ? memo.terms : new TermNumbers(),
    classifications: classificationInterner(),
    evidences: new Interner(evidenceBits, (a, b) => evidenceBits(a) === evidenceBits(b)),
    arena: new TypedArena(),
  };
  // A message that says what one before it said (readingKey) shares that one's reading. The keys
  // are found by their hash (the first message with each is kept, not its key: a long
  // conversation of short messages would hold every key) and compared again on a match.
  const firstWithKey = new Map<number, number>();
  let columns = readingColumns();
  const readAt = (i: number): MessageReading => {
    const m = messages[i]!;
    const key = readingKey(m);
    if (key === undefined) return readMessage(m, context);
    const hash = readingKeyHash(key);
    const first = firstWithKey.get(hash);
    if (first !== undefined && readingKey(messages[first]!) === key) return columns.readings[first]!;
    if (first === undefined) firstWithKey.set(hash, i);
    return readMessage(m, context);
  };
  const readFrom = (cols: ReadingColumns, from: number) => {
    columns = cols;
    for (let i = from; i < messages.length; i++) {
      const entry = lasting ? memo.entry(messages[i]!) : undefined;
      const f = entry ? memo.getIn(entry, readingSlot, () => readAt(i)) : readAt(i);
      if (entry) cols.entries.push(entry);
      cols.readings.push(f);
      cols.keys.push(f.keys);
      cols.terms.push(f.terms);
      cols.shingles.push(f.shingles);
      if (lasting) cols.bands.push(f.bands!);
    }
  };
  // A kept memo grows the columns with the messages: a grown conversation looks up only its new
  // messages (a message's reading stays the same object while the memo lives).
  if (lasting) memo.resume(memoSlotWith<ReadingColumns>('analyze.readings', c), messages, readingColumns, readFrom);
  else readFrom(columns, 0);
  const { readings, entries } = columns;

  // Pass 2: conversation-wide measures. Each runs over the messages in order, so a conversation
  // that grew at its end resumes the scan of the one before (MessageMemo.resume) when the memo
  // outlives this call; the parts of a kept scan handed out are copies or never change after.
  const scanned = <S>(name: string, init: () => S, advance: (state: S, from: number) => void): S => {
    if (lasting) return memo.resume(memoSlotWith<S>(name, c), messages, init, advance);
    const state = init();
    advance(state, 0);
    return state;
  };
  const { keys, terms } = columns;
  // Its lists are never changed once handed out (advanceCrossReferences).
  const xref: CrossReferences = scanned('analyze.crossReferences', crossReferenceScan, (state, from) => advanceCrossReferences(state, keys, from));
  const scan = scanned(
    'analyze.nearDuplicates',
    () => nearDuplicateScan(c),
    (state, from) => advanceNearDuplicates(state, columns.shingles, c, from, lasting ? columns.bands : undefined),
  );
  const dups: NearDuplicates = lasting ? { similarCount: scan.similarCount.slice(), nearDuplicateOf: scan.nearDuplicateOf.slice() } : scan;
  const times = scanned(
    'analyze.timestamps',
    (): (number | undefined)[] => [],
    (state, from) => advanceTimestamps(state, messages, from),
  );
  const recency = recencyFactors(times, now, c);
  const currentStart = currentWindowStart(messages, currentRounds, c);
  const frequencies = scanned('analyze.termFrequencies', termFrequencyScan<number>, (state, from) => advanceTermFrequencies(state, terms, keys, from, c));
  const current = currentRelevance(terms, keys, currentStart, c, frequencies);
  const editResults = scanned('analyze.editResults', editResultScan, (state, from) => advanceEditResults(state, messages, from)).flags;
  const firstUser = readings.findIndex((f) => f.statesTask);

  // Pass 3: metrics per message.
  const importances = importanceInterner();
  const shown = zeroImportance();
  // What dependency() and overallImportance() read, likewise one object each for the pass.
  const scanOf = { counts: { dependency: 0, outbound: 0 } };
  const parts = { criticality: 0, dependency: 0, uniqueness: 0, actionability: 0 };
  const out: MessageAnalysis[] = messages.map((m, i) => {
    const f = readings[i]!;
    const edit = editResults[i]!;
    const events =
      i === firstUser
        ? keyEventsOf(f.events, true, edit).events
        : edit
          ? (f.shownEditEvents ??= keyEventsOf(f.events, false, true).events)
          : (f.shownEvents ??= keyEventsOf(f.events, false, false).events);
    const crit = f.criticality;
    scanOf.counts = f.scanCounts;
    const dep = dependency(scanOf, xref.referencedBy[i]!.length, xref.refersTo[i]!.length, c);
    const uniq = uniquenessOf(f.uniquenessIndicators, dups.similarCount[i]!, c);
    const act = f.actionability;
    parts.criticality = crit;
    parts.dependency = dep;
    parts.uniqueness = uniq;
    parts.actionability = act;
    const overall = overallImportance(parts, c);
    const category = f.temporalCategory;
    const focusValue = focus ? memo.get(m, focusSlot!, (x) => focusOf(x, focus, c)) : undefined;
    const relevance = combinedRelevance(current[i]!, focusValue, c);
    // The figures are written into one object for the whole pass, compared with the message's
    // earlier analysis, and copied only when they moved.
    shown.criticality = r4(crit);
    shown.dependency = r4(dep);
    shown.uniqueness = r4(uniq);
    shown.actionability = r4(act);
    shown.overall = r4(overall);
    shown.temporal = r4(temporalScore(recency[i]!, category, c));
    shown.temporalCategory = category;
    shown.relevance = r4(relevance);
    shown.roleScore = r4(f.roleScore);
    shown.tier = f.tier;
    const dup = dups.nearDuplicateOf[i];
    const referencedBy = xref.referencedBy[i]!;
    // A conversation analyzed again gives most messages the analysis they had: the same object
    // then (none is made), so that what was derived from it (the span view, the builders'
    // readings) still holds. The lists are compared by identity: the readings and the scans hand
    // out the same list while it stays the same.
    const before = shownSlot ? memo.peekIn(entries[i]!, shownSlot) : undefined;
    if (
      before !== undefined &&
      before.index === i &&
      before.id === m.id &&
      before.classification === f.shownClassification &&
      before.refs === f.refs &&
      before.isAcknowledgement === f.isAck &&
      before.referencedBy === referencedBy &&
      before.nearDuplicateOf === dup &&
      sameItems(before.keyEvents, events) &&
      sameImportance(before.importance, shown)
    )
      return before;
    const analysis: MessageAnalysis = {
      index: i,
      id: m.id,
      classification: f.shownClassification,
      importance: importances.of({ ...shown }),
      refs: f.refs,
      isAcknowledgement: f.isAck,
      keyEvents: events,
      referencedBy,
    };
    if (dup !== undefined) analysis.nearDuplicateOf = dup;
    if (shownSlot) memo.set(m, entries[i], shownSlot, analysis);
    return analysis;
  });

  const task = detectTaskType(messages, c, memo);
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
function tierOf(m: Message, speech: string, isAck: boolean, c: AnalyzeConstants): number {
  if (m.itemType === 'SYSTEM_PROMPT' || m.itemType === 'TOOL_DEFINITIONS' || m.itemType === 'MEMORY') return c.TIER_EXTREME;
  if (m.pinned || PIN_MARKER.test(speech)) return c.TIER_EXTREME;
  if (isToolResult(m)) return c.TIER_DEFAULT;
  return keywordTier(speech, isAck, c).tier;
}
