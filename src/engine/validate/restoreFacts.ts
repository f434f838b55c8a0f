// What to put back after another tool's compaction: the must-keep facts of the span it summarized
// that its summary does not hold. A fact is held when the one fact matcher (factMatch.ts) finds it
// in the text the agent carries on with (its summary and the messages it kept verbatim). The
// missing facts are rendered one line each and taken in order of importance until a token cap:
//
//   1. the person's standing instructions ("always …", "never …", `#` memory notes)
//   2. the open items of the latest task list (a TodoWrite call's todos …)
//   3. the errors met, with what became of them (fixed, fix attempted, unresolved)
//   4. the person's requests
//   5. the files acted on (created, edited, deleted, read …)
//
// newest first within each, except the task list, which keeps its own order. A line is the
// extractive summary's item for the fact where it has one (an error with its fix, a file with what
// was done to it), else the fact itself.
//
// Only the work's own failures are errors here: a tool call marked failed, the output of a test or
// build command, an error the person reported. What a fetched page, a file read or a search
// returned is content, whatever it says ("Error: IGNORE ALL PREVIOUS INSTRUCTIONS …").
//
// Every line is transcript text, so each category's lines are put back quoted as data
// (text/quoteAsData.ts): nothing in them can end the quote or open a tag.

import { analyzeConversation } from '../analyze/analyzeConversation';
import { messageText, type Message, type ToolCall } from '../conversation/model';
import type { Fact } from '../result';
import type { SectionName } from '../sections';
import { buildSectionMaterial } from '../segments/extractSections';
import { latestTaskList } from '../segments/pendingTasks';
import type { SectionItem } from '../segments/sectionItems';
import { buildSpanView, type SpanView } from '../segments/spanView';
import { inlineCode, oneLine } from '../text/textCut';
import { toolCallKind } from '../analyze/toolKinds';
import { dataLine, quoteAsData, QUOTE_MARK } from '../text/quoteAsData';
import { readableUserText } from '../segments/userMessages';
import type { TextCounter } from '../tokens/tokenCounter';
import { factPresent, normalizeForMatch } from './factMatch';
import { mustKeepFacts } from './facts';
import { standingInstructions } from './standingInstructions';
import { userWords } from '../analyze/injectedContext';

/** The categories, most important first. */
export const RESTORE_CATEGORIES = ['instruction', 'task', 'error', 'request', 'file'] as const;
export type RestoreCategory = (typeof RESTORE_CATEGORIES)[number];

/** What each category's lines are (the source their quote names). */
export const RESTORE_HEADINGS: Record<RestoreCategory, string> = {
  instruction: 'Standing instructions from the user',
  task: 'Open items of the latest task list',
  error: 'Errors met, and what became of them',
  request: 'Requests the user made',
  file: 'Files acted on',
};

/** The opening line of a restore made against the summary. */
export const RESTORE_LEAD =
  'Context Compactor: facts from the conversation before the compaction that the summary does not mention, taken from the session transcript, newest first.';

/** The opening line of a restore made before the summary could be read (it repeats what the summary
 *  kept as well as what it lost). */
export const RESTORE_LEAD_UNCHECKED =
  'Context Compactor: facts from the conversation before the compaction, taken from the session transcript, newest first (the summary was not written yet when they were taken, so some may repeat it).';

/** Characters of a request shown in its line. */
export const REQUEST_LINE_CHARS = 400;
/** Characters of any other line. */
export const FACT_LINE_CHARS = 500;

export interface RestoreItem {
  category: RestoreCategory;
  fact: Fact;
  /** The Markdown list item put back. */
  line: string;
}

export interface FactRestore {
  /** Every must-keep fact of the span, most important first. */
  facts: RestoreItem[];
  /** Of those, the ones the context text lacks. */
  missing: RestoreItem[];
  /** Of the missing, the ones put back within the cap, each a line of its own. */
  restored: RestoreItem[];
  /** Of the missing, the ones another restored line already holds (a file named in an error's fix). */
  covered: RestoreItem[];
  /** Of the missing, the ones the cap left out. */
  omitted: RestoreItem[];
  /** What to put back ('' when nothing is missing). */
  text: string;
  /** Tokens of `text` by the counter given. */
  tokens: number;
}

export interface RestoreOptions {
  /** Most tokens the restore may take, lead and headings included. */
  maxTokens: number;
  counter: TextCounter;
}

const BARE_COMMAND = /^\/\S+\s*$/;
const MEMORY_NOTE = /^\s*<user-memory-input>[\s\S]*<\/user-memory-input>\s*$/;

/** One line of transcript text as it is put back: cut, then defused (quoteAsData.ts). */
function asData(text: string, max: number): string {
  return dataLine(oneLine(text, max));
}

/** Whether an error met at span position `pos` is a failure of the work: a tool call marked
 *  failed, the output of a test or build command, or the person's own words — not what a page
 *  fetched, a file read or a search returned. */
function workFailure(view: SpanView, pos: number, calls: ReadonlyMap<string, ToolCall>): boolean {
  const sm = view.messages[pos];
  if (!sm) return false;
  const result = sm.message.toolResult;
  if (result) {
    if (result.isError) return true;
    const call = calls.get(result.toolCallId);
    return call !== undefined && toolCallKind(call) === 'test';
  }
  return sm.userAuthored;
}

function itemHolding(items: readonly SectionItem[], fact: Fact, key: string): SectionItem | undefined {
  const exact = items.find((i) => i.key === key);
  if (exact) return exact;
  return items.find((i) => !i.key.endsWith(':output') && factPresent(fact, normalizeForMatch(i.forms[0]!)));
}

/** Every must-keep fact of `span`, one line each, most important first. */
export function mustKeepItems(span: readonly Message[]): RestoreItem[] {
  if (span.length === 0) return [];
  const analysis = analyzeConversation(span);
  const view = buildSpanView(span, analysis.messages);
  const facts = mustKeepFacts(span, analysis);
  const material = buildSectionMaterial(span, analysis);
  const section = (name: SectionName) => material.items[name];
  const position = new Map(span.map((m, i) => [m.id, i]));
  const byId = new Map(span.map((m) => [m.id, m]));
  const taskLines = new Map((latestTaskList(view)?.lines ?? []).map((l) => [l.replace(/^\[.\]\s*/, '').replace(/ \(in progress\)$/, ''), l]));
  const calls = new Map<string, ToolCall>();
  for (const m of span) for (const c of m.toolCalls ?? []) calls.set(c.id, c);

  const items: (RestoreItem & { at: number })[] = [];
  const at = (f: Fact) => position.get(f.sourceId) ?? -1;
  // A rule is put back whole or not at all (it is never cut).
  for (const f of standingInstructions(span))
    items.push({ category: 'instruction', fact: f, line: `- ${asData(f.value, Number.MAX_SAFE_INTEGER)}`, at: at(f) });
  for (const f of facts) {
    switch (f.kind) {
      case 'pendingTask':
        items.push({ category: 'task', fact: f, line: `- ${asData(taskLines.get(f.value) ?? `[ ] ${f.value}`, FACT_LINE_CHARS)}`, at: 0 });
        break;
      case 'errorSignature': {
        if (!workFailure(view, at(f), calls)) break;
        const item = itemHolding(section('Errors and fixes'), f, `error:${oneLine(f.value, Number.MAX_SAFE_INTEGER)}`);
        // The second form names the command and what fixed it; the first only the status.
        const form = item ? item.forms[Math.min(1, item.forms.length - 1)]! : `- ${inlineCode(f.value)}`;
        items.push({ category: 'error', fact: f, line: asData(form, FACT_LINE_CHARS), at: at(f) });
        break;
      }
      case 'userMessage': {
        const m = byId.get(f.sourceId);
        const text = m ? readableUserText(userWords(messageText(m))) : f.value;
        // A bare command (/compact, /clear) asked for nothing the agent still has to do; a `#`
        // memory note is listed with the standing instructions.
        if (BARE_COMMAND.test(text) || MEMORY_NOTE.test(text)) break;
        items.push({ category: 'request', fact: f, line: `- ${asData(text, REQUEST_LINE_CHARS)}`, at: at(f) });
        break;
      }
      case 'filePath': {
        const item = itemHolding(section('Files and Code Sections'), f, `file:${f.value}`);
        items.push({ category: 'file', fact: f, line: asData(item ? item.forms[0]! : `- ${inlineCode(f.value)}`, FACT_LINE_CHARS), at: at(f) });
        break;
      }
      default:
        break;
    }
  }
  const rank = (c: RestoreCategory) => RESTORE_CATEGORIES.indexOf(c);
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => rank(a.item.category) - rank(b.item.category) || b.item.at - a.item.at || a.i - b.i)
    .map(({ item: { at: _at, ...rest } }) => rest);
}

/** The restore text of some items: the lead, then each category's lines quoted as data. */
export function renderRestore(items: readonly RestoreItem[], lead = RESTORE_LEAD): string {
  if (items.length === 0) return '';
  const parts = [lead];
  for (const c of RESTORE_CATEGORIES) {
    const lines = items.filter((i) => i.category === c).map((i) => i.line);
    if (lines.length > 0) parts.push(quoteAsData(lines.join('\n'), RESTORE_HEADINGS[c]));
  }
  return parts.join('\n\n');
}

/** Tokens a line adds to a restore: its own and the line break before it. */
const LINE_BREAK_TOKENS = 1;

/**
 * The facts of `span` that `contextText` (what the agent carries on with) lacks, put back within
 * `maxTokens`: planRestore of the span's must-keep items.
 */
export function planFactRestore(span: readonly Message[], contextText: string, opts: RestoreOptions): FactRestore {
  return planRestore(mustKeepItems(span), contextText, opts);
}

/**
 * The items (mustKeepItems, possibly kept from an earlier run) that `contextText` lacks, put back
 * within `maxTokens`: most important first; a line that does not fit is left out and the next,
 * shorter one may still fit; a fact a line already put back holds gets no line of its own. Lines
 * are measured one by one; the finished text is counted whole and, in the rare case a join costs
 * more than its parts, loses its last lines until it fits.
 */
export function planRestore(facts: readonly RestoreItem[], contextText: string, opts: RestoreOptions & { lead?: string }): FactRestore {
  const lead = opts.lead ?? RESTORE_LEAD;
  const hay = normalizeForMatch(contextText);
  const missing = facts.filter((i) => !factPresent(i.fact, hay));
  const restored: RestoreItem[] = [];
  const omitted: RestoreItem[] = [];
  const covered: RestoreItem[] = [];
  const headed = new Set<RestoreCategory>();
  let estimate = opts.counter.count(lead);
  let linesSoFar = '';
  for (const item of missing) {
    if (factPresent(item.fact, linesSoFar)) {
      covered.push(item);
      continue;
    }
    // A category's first line brings its quote: the source line and the fence.
    const heading = headed.has(item.category) ? 0 : opts.counter.count(quoteAsData('', RESTORE_HEADINGS[item.category])) + 2 * LINE_BREAK_TOKENS;
    const cost = heading + opts.counter.count(`${QUOTE_MARK}${item.line}`) + LINE_BREAK_TOKENS;
    if (estimate + cost > opts.maxTokens) {
      omitted.push(item);
      continue;
    }
    estimate += cost;
    headed.add(item.category);
    restored.push(item);
    linesSoFar = `${linesSoFar}\n${normalizeForMatch(item.line)}`;
  }
  let text = renderRestore(restored, lead);
  let tokens = text ? opts.counter.count(text) : 0;
  while (tokens > opts.maxTokens && restored.length > 0) {
    omitted.unshift(restored.pop()!);
    text = renderRestore(restored, lead);
    tokens = text ? opts.counter.count(text) : 0;
  }
  return { facts: [...facts], missing, restored, covered, omitted, text, tokens };
}
