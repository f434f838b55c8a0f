// The facts of a compacted span that a summary is checked against: what a
// person said (the start of every user message), the files acted on or named by the user, the
// error signatures met, the open items of the latest task list — the must-keep facts an LLM
// summary is held to — plus the span's technical terms, the important keywords (must,
// error, api, database …) and its numbers, which measure how much detail survived. Terms, keywords and numbers are read from
// the words people and the assistant chose (user text, assistant text and thinking), not from
// tool output: a 2,000-line file listing is not something a summary should repeat.

import type { ConversationAnalysis, MessageAnalysis } from '../analyze/analysis';
import { analyzeConversation } from '../analyze/analyzeConversation';
import { exactSize, memoSlot, memoSlotWith, orNone, sameItems, type MessageMemo } from '../conversation/messageMemo';
import type { Message } from '../conversation/model';
import type { Fact, FactKind } from '../result';
import { isClosedTask, latestTaskList } from '../segments/pendingTasks';
import { buildSpanView, type SpanView } from '../segments/spanView';
import { readableUserText } from '../segments/userMessages';
import { detached } from '../tokens/pieceCounter';
import { VALIDATE_CONSTANTS, type ValidateConstants } from './constants';
import { normalizeForMatch } from './factMatch';

/** Keywords whose presence says a summary kept the substance: obligations, outcomes, and the
 *  nouns of software (interface, service, database, query …). */
export const IMPORTANT_KEYWORDS: readonly string[] = [
  'must',
  'should',
  'required',
  'critical',
  'important',
  'error',
  'fail',
  'success',
  'complete',
  'api',
  'interface',
  'service',
  'component',
  'database',
  'query',
  'index',
  'schema',
];

/** Any keyword at the start of a word ("fail" in "failed"). None is a prefix of another, and a
 *  keyword is all word characters, so one pass finds every keyword a message has. */
const KEYWORD_START = new RegExp(`\\b(?:${IMPORTANT_KEYWORDS.join('|')})`, 'g');

const CAMEL = /\b[A-Z][a-z]+[A-Z][A-Za-z]*\b/g;
const ACRONYM = /\b[A-Z]{2,}\b/g;
const NUMBER = /(?<![\w.])\d+(?:\.\d+)?(?![\w])/g;
const GENERIC_ERROR = /^exit code -?\d+$/;
/** All-caps words that are labels, not terms. */
const NOT_TERMS: ReadonlySet<string> = new Set(
  'OK TODO NOTE THOUGHT EOF OUTPUT ERROR WARNING INFO DEBUG FAILED PASSED PASS FAIL DONE TRUE FALSE NULL NONE YES NO THE AND FOR IMPORTANT'.split(' '),
);

export interface FactOptions {
  /** The validator's numbers (default VALIDATE_CONSTANTS). */
  limits?: ValidateConstants;
  /** Keeps what each message alone gives, for the next call over the same messages. */
  memo?: MessageMemo;
  /** The span's view, when the caller has it (the section builders' view of the same messages
   *  and analyses): spared building it again. */
  view?: SpanView;
}

function aligned(
  span: readonly Message[],
  analysis: ConversationAnalysis | readonly (MessageAnalysis | undefined)[] | undefined,
): readonly (MessageAnalysis | undefined)[] {
  if (analysis === undefined) return analyzeConversation(span).messages;
  const list = Array.isArray(analysis) ? (analysis as readonly (MessageAnalysis | undefined)[]) : (analysis as ConversationAnalysis).messages;
  if (list.length !== span.length) throw new RangeError(`facts: expected one analysis per span message (${span.length}), got ${list.length}`);
  return list;
}

/** The opening of a person's message as its fact states it — a slash command as typed (`/init`),
 *  as the summary lists it, not Claude Code's markup around it —, whitespace collapsed, cut. */
function userFactOf(text: string, chars: number): string {
  // A copy of its own: a cut would keep the whole message's collapsed text alive with the memo.
  return detached(readableUserText(text).replace(/\s+/g, ' ').trim().slice(0, chars));
}

/** A message's structural facts, each with the key that tells it from the others (kind and
 *  normal form): the same objects from one span to the next while what they are read from —
 *  the analysis' references, the files of the message's calls — is the same. */
interface MessageFacts {
  refs: object | undefined;
  callFiles: readonly (readonly { path: string }[])[];
  facts: readonly Fact[];
  keys: readonly string[];
}

function messageFacts(sm: SpanView['messages'][number], callFiles: readonly (readonly { path: string }[])[], userFact: () => string): MessageFacts {
  const facts: Fact[] = [];
  const keys: string[] = [];
  const id = sm.message.id;
  const add = (kind: FactKind, value: string) => {
    if (!value.trim()) return;
    keys.push(`${kind}\u0000${normalizeForMatch(value)}`);
    facts.push({ kind, value, sourceId: id });
  };
  if (sm.userAuthored) {
    const fact = userFact();
    if (fact) add('userMessage', fact);
    for (const p of sm.analysis?.refs.files ?? []) add('filePath', p);
  }
  for (const files of callFiles) for (const f of files) add('filePath', f.path);
  if (!sm.assistant) for (const e of sm.analysis?.refs.errors ?? []) if (!GENERIC_ERROR.test(e)) add('errorSignature', e);
  // Kept per message: no spare capacity, and the one empty list when it states none.
  return { refs: sm.analysis?.refs, callFiles, facts: orNone(exactSize(facts)), keys: orNone(exactSize(keys)) };
}

const NO_CALLS: readonly (readonly { path: string }[])[] = [];

/** What a scan of a span's messages in order has gathered: the structural facts, each once (by
 *  kind and normal form), and the counts of terms and numbers and the first message of each
 *  keyword. A longer span that starts with the same messages, read with the same references and
 *  call files (the ratio loop giving the kept tail less room, a grown conversation), continues
 *  the scan from where it stopped. */
interface FactScan {
  /** Per message scanned: the references and the call files it was read with. */
  refs: (object | undefined)[];
  callFiles: (readonly (readonly { path: string }[])[])[];
  structural: Fact[];
  seen: Set<string>;
  terms: Map<string, { n: number; id: string }>;
  numbers: Map<string, { n: number; id: string }>;
  keywords: Map<string, string>;
}

function newScan(): FactScan {
  return { refs: [], callFiles: [], structural: [], seen: new Set(), terms: new Map(), numbers: new Map(), keywords: new Map() };
}

function callFilesAt(view: SpanView, pos: number): readonly (readonly { path: string }[])[] {
  const calls = view.callsAt.get(pos);
  return calls ? calls.map((x) => x.files) : NO_CALLS;
}

/** Whether `scan` was made from the first messages of `view` read as they are read now. */
function scannedAlike(scan: FactScan, view: SpanView): boolean {
  for (let pos = 0; pos < scan.refs.length; pos++) {
    const sm = view.messages[pos]!;
    if (scan.refs[pos] !== sm.analysis?.refs || !sameItems(scan.callFiles[pos]!, callFilesAt(view, pos))) return false;
  }
  return true;
}

/** The structural facts of one message (memo: kept while its references and call files stay). */
function factsOfMessage(
  sm: SpanView['messages'][number],
  callFiles: readonly (readonly { path: string }[])[],
  c: ValidateConstants,
  memo: MessageMemo | undefined,
): MessageFacts {
  const userFact = () =>
    memo ? memo.read(sm.message, sm.memo, userSlotOf(c), () => userFactOf(sm.text, c.USER_FACT_CHARS)) : userFactOf(sm.text, c.USER_FACT_CHARS);
  if (!memo) return messageFacts(sm, callFiles, userFact);
  const slot = factsSlotOf(c);
  let mf = memo.read(sm.message, sm.memo, slot, () => messageFacts(sm, callFiles, userFact));
  if (mf.refs !== sm.analysis?.refs || !sameItems(mf.callFiles, callFiles)) {
    mf = messageFacts(sm, callFiles, userFact);
    memo.set(sm.message, sm.memo, slot, mf);
  }
  return mf;
}

const userSlotOf = (c: ValidateConstants) => memoSlot<string>(`facts.user:${c.USER_FACT_CHARS}`);
const factsSlotOf = (c: ValidateConstants) => memoSlot<MessageFacts>(`facts.structural:${c.USER_FACT_CHARS}`);

/** Scans the messages of `view` from `from` on into `scan`. */
function advanceScan(scan: FactScan, view: SpanView, from: number, c: ValidateConstants, memo: MessageMemo | undefined, speechToo: boolean): void {
  for (let pos = from; pos < view.messages.length; pos++) {
    const sm = view.messages[pos]!;
    const callFiles = callFilesAt(view, pos);
    scan.refs.push(sm.analysis?.refs);
    scan.callFiles.push(callFiles);
    if (sm.summary) continue;
    const mf = factsOfMessage(sm, callFiles, c, memo);
    for (let k = 0; k < mf.facts.length; k++) {
      const key = mf.keys[k]!;
      if (scan.seen.has(key)) continue;
      scan.seen.add(key);
      scan.structural.push(mf.facts[k]!);
    }
    if (!speechToo || !(sm.userAuthored || sm.assistant)) continue;
    const speech = memo ? memo.read(sm.message, sm.memo, SPEECH_FACTS, () => speechFacts(sm)) : speechFacts(sm);
    if (!speech) continue;
    const id = sm.message.id;
    countAllIn(scan.terms, speech.terms, id);
    countAllIn(scan.numbers, speech.numbers, id);
    IMPORTANT_KEYWORDS.forEach((k, bit) => {
      if (speech.keywords & (1 << bit) && !scan.keywords.has(k)) scan.keywords.set(k, id);
    });
  }
}

function countAllIn(map: Map<string, { n: number; id: string }>, o: Occurrences, id: string): void {
  for (let k = 0; k < o.values.length; k++) {
    const v = o.values[k]!;
    const e = map.get(v);
    if (e) e.n += o.counts[k]!;
    else map.set(v, { n: o.counts[k]!, id });
  }
}

/** The structural facts of a scan, then the open items of the span's latest task list. */
function structuralOf(scan: FactScan, view: SpanView, memo: MessageMemo | undefined): Fact[] {
  const facts = scan.structural.slice();
  const list = latestTaskList(view, memo);
  if (list) {
    const tasks = new Set<string>();
    for (const line of list.lines) {
      if (isClosedTask(line)) continue;
      const value = line.replace(/^\[.\]\s*/, '').replace(/ \(in progress\)$/, '');
      const key = `pendingTask\u0000${normalizeForMatch(value)}`;
      if (!value.trim() || scan.seen.has(key) || tasks.has(key)) continue;
      tasks.add(key);
      facts.push({ kind: 'pendingTask', value, sourceId: list.id });
    }
  }
  return facts;
}

function structuralFacts(view: SpanView, c: ValidateConstants, memo: MessageMemo | undefined): Fact[] {
  const scan = newScan();
  advanceScan(scan, view, 0, c, memo, false);
  return structuralOf(scan, view, memo);
}

/** Must-keep facts of a span: user messages, files, errors, open tasks (what an LLM summary
 *  must not drop; the extractive pass keeps them all). */
export function mustKeepFacts(
  span: readonly Message[],
  analysis?: ConversationAnalysis | readonly (MessageAnalysis | undefined)[],
  opts: FactOptions = {},
): Fact[] {
  return structuralFacts(buildSpanView(span, aligned(span, analysis), opts.memo), opts.limits ?? VALIDATE_CONSTANTS, opts.memo);
}

/** What one message's own words give the detail facts: its terms and numbers, each once in the
 *  order they first occur, with how often it occurs, and which important keywords it has.
 *  Undefined when it has no words. */
interface SpeechFacts {
  terms: Occurrences;
  numbers: Occurrences;
  /** Bit k set: IMPORTANT_KEYWORDS[k] is there. */
  keywords: number;
}

/** Values once each, in the order they first occur, and how often each occurs (a long message
 *  names the same identifier hundreds of times: one string, not one a time). */
interface Occurrences {
  values: readonly string[];
  counts: readonly number[];
}

const NO_OCCURRENCES: Occurrences = { values: [], counts: [] };

/** Tallies values as they occur; each kept value a string of its own (detached), as a cut would
 *  keep the whole joined speech alive with the memo. */
class Tally {
  private readonly at = new Map<string, number>();
  private readonly values: string[] = [];
  private readonly counts: number[] = [];

  add(v: string): void {
    const k = this.at.get(v);
    if (k !== undefined) {
      this.counts[k]!++;
      return;
    }
    this.at.set(v, this.values.length);
    this.values.push(detached(v));
    this.counts.push(1);
  }

  done(): Occurrences {
    return this.values.length === 0 ? NO_OCCURRENCES : { values: this.values.slice(), counts: this.counts.slice() };
  }
}

const SPEECH_FACTS = memoSlot<SpeechFacts | undefined>('facts.speech');

function speechFacts(sm: SpanView['messages'][number]): SpeechFacts | undefined {
  const speech = sm.thinking ? `${sm.text}\n${sm.thinking}` : sm.text;
  if (!speech) return undefined;
  const terms = new Tally();
  // CamelCase words, then acronyms, as the loss detector has always counted them.
  for (const m of speech.matchAll(CAMEL)) terms.add(m[0]);
  for (const m of speech.matchAll(ACRONYM)) if (!NOT_TERMS.has(m[0])) terms.add(m[0]);
  const numbers = new Tally();
  for (const m of speech.matchAll(NUMBER)) if (m[0].length >= 2) numbers.add(m[0]);
  let keywords = 0;
  for (const m of speech.toLowerCase().matchAll(KEYWORD_START)) keywords |= 1 << IMPORTANT_KEYWORDS.indexOf(m[0]);
  return { terms: terms.done(), numbers: numbers.done(), keywords };
}

function topByCount(counts: Map<string, { n: number; id: string }>, max: number): [string, string][] {
  return [...counts.entries()]
    .sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, max)
    .map(([v, e]) => [v, e.id]);
}

/** Every fact the loss detector checks: must-keep facts plus terms, keywords and numbers. With a
 *  memo, the facts last found for the same messages with the same references are given again
 *  (all a fact reads of an analysis is its references: a span whose messages were only
 *  re-scored states the same facts). Callers read the list, never change it. */
export function spanFacts(
  span: readonly Message[],
  analysis?: ConversationAnalysis | readonly (MessageAnalysis | undefined)[],
  opts: FactOptions = {},
): Fact[] {
  const c = opts.limits ?? VALIDATE_CONSTANTS;
  const view = opts.view ?? buildSpanView(span, aligned(span, analysis), opts.memo);
  const memo = opts.memo;
  if (!memo) return factsOf(view, c, undefined);
  const refs = view.messages.map((sm) => sm.analysis?.refs);
  return memo.same(
    memoSlotWith<Fact[]>('facts.span', c),
    view.messages.map((sm) => sm.message),
    refs,
    () => factsOf(view, c, memo),
  );
}

function factsOf(view: SpanView, c: ValidateConstants, memo: MessageMemo | undefined): Fact[] {
  const scan = memo
    ? memo.resume(
        memoSlotWith<FactScan>('facts.scan', c),
        view.messages.map((sm) => sm.message),
        newScan,
        (state, from) => advanceScan(state, view, from, c, memo, true),
        (state) => scannedAlike(state, view),
      )
    : newScan();
  if (!memo) advanceScan(scan, view, 0, c, undefined, true);
  const facts = structuralOf(scan, view, memo);
  for (const [v, id] of topByCount(scan.terms, c.TERM_FACTS_MAX)) facts.push({ kind: 'technicalTerm', value: v, sourceId: id });
  for (const [k, id] of scan.keywords) facts.push({ kind: 'keyword', value: k, sourceId: id });
  for (const [v, id] of topByCount(scan.numbers, c.NUMBER_FACTS_MAX)) facts.push({ kind: 'number', value: v, sourceId: id });
  return facts;
}
