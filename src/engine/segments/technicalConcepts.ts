// "Key Technical Concepts": the terms the session
// is about — code identifiers (CamelCase, snake_case, dotted names), acronyms ([A-Z]{2,}, not
// capitals written for emphasis: text/emphasis.ts) and
// the libraries it imports or installs — ranked by how many messages use them, a person's
// mention counting CONCEPTS_USER_MENTION_WEIGHT times and a tool output's half. Listed as
// bullets of a few terms each, the most used first. On re-compaction the earlier terms join
// the ranking with the weight of a user mention, so the session's vocabulary is not forgotten.

import { firstInlineCode, splitBullets } from './parseSummary';
import { memoSlotWith, NONE, orNone } from '../conversation/messageMemo';
import { fromMessage, type BuilderContext } from './sectionBuilder';
import type { SectionItem } from './sectionItems';
import type { SpanMessage, SpanToolCall, SpanView } from './spanView';
import { inlineCode, listItem } from '../text/textCut';
import { FILE_EXTENSIONS } from '../analyze/refs';
import { isEmphasisWord, LETTERS_ONLY_CAPS } from '../text/emphasis';
import { detached } from '../tokens/pieceCounter';

/** Capitalised words that are labels or plain English, not concepts. */
const NOT_ACRONYMS: ReadonlySet<string> = new Set(
  (
    'OK OKAY I A TODO NOTE NOTES YES NO THE AND OR IF IT IS BE TO DO ON IN AT OF BY AS AN WE US MY ME SO UP NOT ALL ANY FOR BUT NOW NEW GET SET PUT ' +
    'THOUGHT THOUGHTS EOF END OUTPUT INPUT ERROR ERRORS WARNING WARN INFO DEBUG FAILED PASSED PASS FAIL SUCCESS DONE TRUE FALSE NULL NONE ' +
    'README LICENSE CHANGELOG IMPORTANT TLDR FYI ASAP ETA PS RE CC BCC AM PM UTC GMT ' +
    // aider's edit-block markers (<<<<<<< SEARCH / ======= / >>>>>>> REPLACE, and the older ORIGINAL / UPDATED)
    'SEARCH REPLACE ORIGINAL UPDATED'
  ).split(' '),
);
/** Words of agents' own bookkeeping (todo-list states), not of the subject. */
const NOT_CONCEPTS: ReadonlySet<string> = new Set(['in_progress', 'pending', 'completed', 'activeForm']);
const ACRONYM = /\b[A-Z][A-Z0-9]{1,}\b/g;
/** A capitals word right before a file extension is part of a file name ("CLAUDE.md"). */
const BEFORE_EXTENSION = new RegExp(`^\\.(?:${FILE_EXTENSIONS})\\b`, 'i');
/** A capitals word where code names something: after a member dot, "$", "#" or "::", or before
 *  an assignment, a call, an index or a member ("MAX_RETRIES" has an underscore and is an
 *  identifier anyway; this is for `TIMEOUT = 30`, `config.DEBUG`, `JSON.parse`). */
const IDENTIFIER_POSITION = /(?:(?<=[.$#]|::)([A-Z][A-Z0-9]+)\b|\b([A-Z][A-Z0-9]+)(?=\s*(?:=(?!=)|\(|\[)|\.[a-z]))/g;
const INLINE_CODE = /`([^`\n]+)`/g;
// Capitals written for emphasis (text/emphasis.ts) are not concepts unless code names them (a
// whole inline code span, or an identifier position in code or tool output: `TIMEOUT = 30`).
// Within a shouted compound ("PRE-CODE ANALYSIS"), a word hyphen-joined to emphasis is emphasis.
const FENCED = /^\s*(```|~~~)[^\n]*\n([\s\S]*?)^\s*\1/gm;

const IMPORT_FROM =
  /^\s*(?:import|export)\b[^;\n]*?\bfrom\s+['"]([@\w][\w@/.-]*)['"]|\brequire\(\s*['"]([@\w][\w@/.-]*)['"]\s*\)|^\s*(?:from\s+([a-zA-Z_][\w.]*)\s+import|import\s+([a-zA-Z_][\w.]*))/gm;
const INSTALL =
  /\b(?:npm\s+(?:install|i|add)|yarn\s+add|pnpm\s+(?:add|install)|pip3?\s+install|uv\s+(?:add|pip\s+install)|poetry\s+add|cargo\s+add|go\s+get|gem\s+install|composer\s+require)\s+((?:[-\w@/.=<>~^]+\s*)+)/g;

function libraryRoot(name: string): string | undefined {
  if (!name || name.startsWith('.') || name.startsWith('/')) return undefined;
  if (name.startsWith('@')) return name.split('/').slice(0, 2).join('/');
  const root = name.split(/[/.]/)[0]!;
  return root.length >= 2 ? root : undefined;
}

/** The libraries a text imports or installs, each once, in the order found. */
function librariesIn(text: string): string[] {
  if (!text) return [];
  const seen = new Set<string>();
  for (const m of text.matchAll(IMPORT_FROM)) {
    const lib = libraryRoot((m[1] ?? m[2] ?? m[3] ?? m[4])!);
    if (lib) seen.add(lib);
  }
  for (const m of text.matchAll(INSTALL)) {
    for (const raw of m[1]!.split(/\s+/)) {
      if (!raw || raw.startsWith('-')) continue;
      const lib = libraryRoot(raw.replace(/[=<>~^].*$/, '').replace(/@[\d^~].*$/, ''));
      if (lib) seen.add(lib);
    }
  }
  return [...seen];
}

/** What one message gives the section: the acronyms of its own words, and the libraries its
 *  words and its shell commands import or install (one list per command). */
interface ConceptReading {
  acronyms: readonly string[];
  libraries: readonly string[];
  commandLibraries: readonly (readonly string[])[];
  /** Capitals words code names (see isEmphasisWord): inline code, identifier positions. */
  inCode: readonly string[];
}

const NO_CONCEPTS: ConceptReading = { acronyms: NONE, libraries: NONE, commandLibraries: NONE, inCode: NONE };

function readConcepts(sm: SpanMessage, calls: readonly SpanToolCall[]): ConceptReading {
  const speaks = sm.userAuthored || sm.assistant;
  const speech = speaks ? `${sm.text}\n${sm.thinking}` : '';
  const read = {
    acronyms: orNone([...acronymsIn(speech)]),
    libraries: speaks ? orNone(librariesIn(speech)) : NONE,
    commandLibraries: orNone(calls.map((call) => (call.command ? orNone(librariesIn(call.command)) : NONE))),
    inCode: orNone([...capsInCode(speaks ? speech : '', speaks ? '' : sm.text, calls)]),
  };
  return read.acronyms === NONE && read.libraries === NONE && read.commandLibraries.every((l) => l === NONE) && read.inCode === NONE ? NO_CONCEPTS : read;
}

function acronymsIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(ACRONYM)) {
    const a = m[0];
    if (NOT_ACRONYMS.has(a) || !/[A-Z].*[A-Z]/.test(a) || /^\d/.test(a)) continue;
    if (BEFORE_EXTENSION.test(text.slice(m.index + a.length, m.index + a.length + 12))) continue;
    if (inShoutedCompound(text, m.index, a.length)) continue;
    // A copy of its own: a long one cut from the joined speech would keep all of it alive with the memo.
    out.add(detached(a));
  }
  return out;
}

const CAPS_BEFORE_HYPHEN = /([A-Z]+)-$/;
const CAPS_AFTER_HYPHEN = /^-([A-Z]+)\b/;

/** A capitals word hyphen-joined to a capitals word of emphasis ("PRE" in "PRE-CODE"). */
function inShoutedCompound(text: string, at: number, length: number): boolean {
  const before = CAPS_BEFORE_HYPHEN.exec(text.slice(Math.max(0, at - 20), at));
  if (before && isEmphasisWord(before[1]!)) return true;
  const after = CAPS_AFTER_HYPHEN.exec(text.slice(at + length, at + length + 21));
  return after !== null && isEmphasisWord(after[1]!);
}

/** Capitals words in identifier positions of `code`. */
function identifiersIn(code: string, out: Set<string>): void {
  for (const m of code.matchAll(IDENTIFIER_POSITION)) {
    const w = (m[1] ?? m[2])!;
    if (!BEFORE_EXTENSION.test(code.slice(m.index + m[0].length, m.index + m[0].length + 12))) out.add(w);
  }
}

/** Capitals words that code names in one message: the whole of an inline code span
 *  (`TIMEOUT`), identifier positions inside fenced code, tool-call arguments and tool output. */
function capsInCode(speech: string, output: string, calls: readonly SpanToolCall[]): Set<string> {
  const out = new Set<string>();
  if (speech.includes('`')) {
    for (const m of speech.matchAll(INLINE_CODE)) {
      const t = m[1]!.trim();
      if (LETTERS_ONLY_CAPS.test(t)) out.add(t);
      else identifiersIn(t, out);
    }
    for (const m of speech.matchAll(FENCED)) identifiersIn(m[2]!, out);
  }
  if (output) identifiersIn(output, out);
  for (const call of calls) identifiersIn(call.call.arguments, out);
  return out;
}

/** A term worth listing: not a number, not a one-letter name, not absurdly long. */
function plausible(term: string): boolean {
  return term.length >= 3 && term.length <= 60 && !/^[\d_.]+$/.test(term);
}

/** Weight of one mention in a tool's output (source files, logs): half a mention. */
const TOOL_OUTPUT_WEIGHT = 0.5;

/** What a scan of a span's messages in order has gathered: each term's score and first
 *  position, each library's weight, the words written in code. A longer span that starts with
 *  the same messages, read with the same references and onto the same earlier section (the
 *  ratio loop giving the kept tail less room, a grown conversation), continues the scan. */
interface ConceptScan {
  previous: string | undefined;
  /** Per message scanned: the references its identifiers were taken from. */
  refs: (object | undefined)[];
  score: Map<string, number>;
  firstSeen: Map<string, number>;
  libs: Map<string, number>;
  inCode: Set<string>;
}

function bump(scan: ConceptScan, term: string, w: number, at: number): void {
  if (!plausible(term) || NOT_ACRONYMS.has(term) || NOT_CONCEPTS.has(term)) return;
  scan.score.set(term, (scan.score.get(term) ?? 0) + w);
  if (!scan.firstSeen.has(term)) scan.firstSeen.set(term, at);
}

function newScan(ctx: BuilderContext): ConceptScan {
  const scan: ConceptScan = { previous: ctx.previous, refs: [], score: new Map(), firstSeen: new Map(), libs: new Map(), inCode: new Set() };
  if (ctx.previous) {
    for (const b of splitBullets(ctx.previous)) {
      for (const m of b.matchAll(/``\s(.+?)\s``|`([^`\n]+)`/g)) bump(scan, (m[1] ?? m[2])!, ctx.c.CONCEPTS_USER_MENTION_WEIGHT, -1);
    }
  }
  return scan;
}

function advanceScan(scan: ConceptScan, ctx: BuilderContext, from: number): void {
  const { view, c } = ctx;
  const addLibraries = (list: readonly string[], w: number) => {
    for (const lib of list) scan.libs.set(lib, (scan.libs.get(lib) ?? 0) + w);
  };
  for (let pos = from; pos < view.messages.length; pos++) {
    const sm = view.messages[pos]!;
    scan.refs.push(sm.analysis?.refs);
    if (sm.summary) continue;
    const w = sm.userAuthored ? c.CONCEPTS_USER_MENTION_WEIGHT : sm.assistant ? 1 : TOOL_OUTPUT_WEIGHT;
    const calls = view.callsAt.get(sm.pos) ?? [];
    const read = fromMessage(ctx, sm, 'concepts', (x) => readConcepts(x, calls));
    const terms = new Set<string>(sm.analysis?.refs.identifiers ?? []);
    for (const a of read.acronyms) terms.add(a);
    // For the emphasis rule: the capitals words code names.
    for (const w of read.inCode) scan.inCode.add(w);
    for (const t of terms) bump(scan, t, w, sm.pos);
    addLibraries(read.libraries, w);
    for (const list of read.commandLibraries) addLibraries(list, w);
  }
}

/** Whether `scan` was made from the first messages of `view` as they are read now. */
function scannedAlike(scan: ConceptScan, view: SpanView, previous: string | undefined): boolean {
  if (scan.previous !== previous) return false;
  for (let pos = 0; pos < scan.refs.length; pos++) if (scan.refs[pos] !== view.messages[pos]!.analysis?.refs) return false;
  return true;
}

export function buildTechnicalConcepts(ctx: BuilderContext): SectionItem[] {
  const { view, c } = ctx;
  const { score, firstSeen, libs, inCode } = ctx.memo.resume(
    memoSlotWith<ConceptScan>('concepts.scan', c),
    view.messages.map((sm) => sm.message),
    () => newScan(ctx),
    (state, from) => advanceScan(state, ctx, from),
    (state) => scannedAlike(state, view, ctx.previous),
  );
  const items: SectionItem[] = [];
  const libList = [...libs.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, c.CONCEPTS_TERMS_PER_LINE * 2);
  if (libList.length > 0) {
    items.push({
      key: 'libraries',
      forms: [listItem(`Libraries and tools: ${libList.map(([l]) => inlineCode(l)).join(', ')}`)],
      required: false,
      priority: 1,
      order: -1,
      sourceIds: [],
    });
  }
  const libNames = new Set(libList.map(([l]) => l));
  const shouted = (t: string) => !inCode.has(t) && isEmphasisWord(t);
  const ranked = [...score.entries()]
    .filter(([t, s]) => !libNames.has(t) && !shouted(t) && (s >= 1.5 || score.size <= c.CONCEPTS_MAX_TERMS))
    .sort((a, b) => b[1] - a[1] || firstSeen.get(a[0])! - firstSeen.get(b[0])! || (a[0] < b[0] ? -1 : 1))
    .slice(0, c.CONCEPTS_MAX_TERMS)
    .map(([t]) => t);
  const per = Math.max(1, c.CONCEPTS_TERMS_PER_LINE);
  const chunks = Math.ceil(ranked.length / per);
  for (let k = 0; k < chunks; k++) {
    const terms = ranked.slice(k * per, (k + 1) * per);
    items.push({
      key: `terms:${k}`,
      forms: [listItem(terms.map(inlineCode).join(', '))],
      // The most used terms cost a line and say what the session is about: kept at any budget.
      required: k === 0,
      priority: 1 - k / Math.max(1, chunks),
      order: k,
      sourceIds: [],
    });
  }
  return items;
}

/** The terms a concepts section lists (for tests and the loss detector). */
export function listedTerms(body: string): string[] {
  const out: string[] = [];
  for (const b of splitBullets(body)) {
    for (const m of b.matchAll(/``\s(.+?)\s``|`([^`\n]+)`/g)) out.push((m[1] ?? m[2])!);
  }
  return out.length > 0 ? out : firstInlineCode(body) ? [firstInlineCode(body)!] : [];
}
