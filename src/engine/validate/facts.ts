// The facts of a compacted span that a summary is checked against: what a
// person said (the start of every user message), the files acted on or named by the user, the
// error signatures met, the open items of the latest task list — the must-keep facts an LLM
// summary is held to — plus the span's technical terms, the important keywords (must,
// error, api, database …) and its numbers, which measure how much detail survived. Terms, keywords and numbers are read from
// the words people and the assistant chose (user text, assistant text and thinking), not from
// tool output: a 2,000-line file listing is not something a summary should repeat.

import type { ConversationAnalysis, MessageAnalysis } from '../analyze/analysis';
import { analyzeConversation } from '../analyze/analyzeConversation';
import type { Message } from '../conversation/model';
import type { Fact, FactKind } from '../result';
import { latestTaskList } from '../segments/pendingTasks';
import { buildSpanView, type SpanView } from '../segments/spanView';
import { VALIDATE_CONSTANTS, type ValidateConstants } from './constants';
import { normalizeForMatch } from './factMatch';

/** Keywords whose presence says a summary kept the substance: obligations, outcomes, and the
 *  nouns of software (interface, service, database, query …). */
export const IMPORTANT_KEYWORDS: readonly string[] = [
  'must', 'should', 'required', 'critical', 'important', 'error', 'fail', 'success', 'complete',
  'api', 'interface', 'service', 'component', 'database', 'query', 'index', 'schema',
];

const CAMEL = /\b[A-Z][a-z]+[A-Z][A-Za-z]*\b/g;
const ACRONYM = /\b[A-Z]{2,}\b/g;
const NUMBER = /(?<![\w.])\d+(?:\.\d+)?(?![\w])/g;
const GENERIC_ERROR = /^exit code -?\d+$/;
/** All-caps words that are labels, not terms. */
const NOT_TERMS: ReadonlySet<string> = new Set('OK TODO NOTE THOUGHT EOF OUTPUT ERROR WARNING INFO DEBUG FAILED PASSED PASS FAIL DONE TRUE FALSE NULL NONE YES NO THE AND FOR IMPORTANT'.split(' '));

export interface FactOptions {
  /** The validator's numbers (default VALIDATE_CONSTANTS). */
  limits?: ValidateConstants;
}

function aligned(span: readonly Message[], analysis: ConversationAnalysis | readonly (MessageAnalysis | undefined)[] | undefined): readonly (MessageAnalysis | undefined)[] {
  if (analysis === undefined) return analyzeConversation(span).messages;
  const list = Array.isArray(analysis) ? (analysis as readonly (MessageAnalysis | undefined)[]) : (analysis as ConversationAnalysis).messages;
  if (list.length !== span.length) throw new RangeError(`facts: expected one analysis per span message (${span.length}), got ${list.length}`);
  return list;
}

function structuralFacts(view: SpanView, c: ValidateConstants): Fact[] {
  const facts: Fact[] = [];
  const seen = new Set<string>();
  const add = (kind: FactKind, value: string, sourceId: string) => {
    const key = `${kind}\u0000${normalizeForMatch(value)}`;
    if (!value.trim() || seen.has(key)) return;
    seen.add(key);
    facts.push({ kind, value, sourceId });
  };
  for (const sm of view.messages) {
    if (sm.summary) continue;
    const id = sm.message.id;
    if (sm.userAuthored) {
      const flat = sm.text.replace(/\s+/g, ' ').trim();
      if (flat) add('userMessage', flat.slice(0, c.USER_FACT_CHARS), id);
      for (const p of sm.analysis?.refs.files ?? []) add('filePath', p, id);
    }
    for (const call of view.callsAt.get(sm.pos) ?? []) for (const f of call.files) add('filePath', f.path, id);
    if (!sm.assistant) for (const e of sm.analysis?.refs.errors ?? []) if (!GENERIC_ERROR.test(e)) add('errorSignature', e, id);
  }
  const list = latestTaskList(view);
  if (list) for (const line of list.lines) if (!line.startsWith('[x]')) add('pendingTask', line.replace(/^\[.\]\s*/, '').replace(/ \(in progress\)$/, ''), list.id);
  return facts;
}

/** Must-keep facts of a span: user messages, files, errors, open tasks (what an LLM summary
 *  must not drop; the extractive pass keeps them all). */
export function mustKeepFacts(
  span: readonly Message[],
  analysis?: ConversationAnalysis | readonly (MessageAnalysis | undefined)[],
  opts: FactOptions = {},
): Fact[] {
  return structuralFacts(buildSpanView(span, aligned(span, analysis)), opts.limits ?? VALIDATE_CONSTANTS);
}

function topByCount(counts: Map<string, { n: number; id: string }>, max: number): [string, string][] {
  return [...counts.entries()]
    .sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, max)
    .map(([v, e]) => [v, e.id]);
}

/** Every fact the loss detector checks: must-keep facts plus terms, keywords and numbers. */
export function spanFacts(
  span: readonly Message[],
  analysis?: ConversationAnalysis | readonly (MessageAnalysis | undefined)[],
  opts: FactOptions = {},
): Fact[] {
  const c = opts.limits ?? VALIDATE_CONSTANTS;
  const view = buildSpanView(span, aligned(span, analysis));
  const facts = structuralFacts(view, c);
  const terms = new Map<string, { n: number; id: string }>();
  const numbers = new Map<string, { n: number; id: string }>();
  const keywords = new Map<string, string>();
  const count = (map: Map<string, { n: number; id: string }>, v: string, id: string) => {
    const e = map.get(v);
    if (e) e.n++;
    else map.set(v, { n: 1, id });
  };
  for (const sm of view.messages) {
    if (sm.summary || !(sm.userAuthored || sm.assistant)) continue;
    const speech = sm.thinking ? `${sm.text}\n${sm.thinking}` : sm.text;
    if (!speech) continue;
    const id = sm.message.id;
    for (const m of speech.matchAll(CAMEL)) count(terms, m[0], id);
    for (const m of speech.matchAll(ACRONYM)) if (!NOT_TERMS.has(m[0])) count(terms, m[0], id);
    for (const m of speech.matchAll(NUMBER)) if (m[0].length >= 2) count(numbers, m[0], id);
    const lower = speech.toLowerCase();
    for (const k of IMPORTANT_KEYWORDS) if (!keywords.has(k) && new RegExp(`\\b${k}`).test(lower)) keywords.set(k, id);
  }
  for (const [v, id] of topByCount(terms, c.TERM_FACTS_MAX)) facts.push({ kind: 'technicalTerm', value: v, sourceId: id });
  for (const [k, id] of keywords) facts.push({ kind: 'keyword', value: k, sourceId: id });
  for (const [v, id] of topByCount(numbers, c.NUMBER_FACTS_MAX)) facts.push({ kind: 'number', value: v, sourceId: id });
  return facts;
}
