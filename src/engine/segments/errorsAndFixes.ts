// "Errors and fixes": each error signature the span met (exception type and
// message, failing test, compiler error, non-zero exit), with the command that produced it and
// its state. "fixed" needs evidence after its last occurrence — in the span or in the messages
// kept after it: the same command (an identifying one: a shell line, or a tool call with
// arguments) ran clean, or a file the error names (its traceback, its compiler line) was edited
// and the error did not occur again, or the person said it works. The assistant saying it
// fixed something is not evidence. Without evidence an error is "seen, then not repeated" when
// the session went on without it, else "unresolved".
// Generic exit codes are listed only as optional items: the specific error says more.
// A tool call the person declined is an event of its own, listed as such ("User rejected
// `Edit go.mod`"), never as an error nor as nothing.
// On re-compaction an error keeps its latest state (same signature → new entry wins).

import { compileKeywords } from '../text/keywordMatcher';
import { FIX_KEYWORDS } from '../analyze/keywords';
import { isCodeSegment, splitSentences } from '../text/sentences';
import { keyByInlineCode, previousItems, replaceByKey } from './previousItems';
import { fromMessage, recency, type BuilderContext } from './sectionBuilder';
import type { SectionItem } from './sectionItems';
import { distinctForms } from './sectionItems';
import { extractFilePaths } from '../analyze/refs';
import { isDeclinedResult } from '../analyze/toolKinds';
import { advanceLaterScan, firstAfter, laterEvidence, laterScan, type LaterScan } from './laterEvidence';
import { memoSlotWith } from '../conversation/messageMemo';
import type { SegmentConstants } from './constants';
import { describeCall, type SpanMessage, type SpanToolCall } from './spanView';
import type { Message } from '../conversation/model';
import { collapseWhitespace, inlineCode, listItem, oneLine } from '../text/textCut';

const fixWords = compileKeywords(FIX_KEYWORDS);
const GENERIC = /^exit code -?\d+$/;
/** What a search command returns when it finds nothing. */
const NO_MATCH_EXIT = 'exit code 1';

interface ErrorGroup {
  signature: string;
  firstPos: number;
  lastPos: number;
  count: number;
  command: string | undefined;
  call: SpanToolCall | undefined;
  /** The call of its last occurrence (in the span or after it). */
  lastCall: SpanToolCall | undefined;
  sourceIds: string[];
  fromUser: boolean;
  /** Files the error names (its signature, traceback frames, compiler lines). */
  files: string[];
}

type Status = { label: 'fixed' | 'seen, then not repeated' | 'unresolved'; detail: string; explanation: string | undefined };

/** Most error signatures listed as required items; beyond it they are optional. */
const REQUIRED_ERRORS_MAX = 80;
/** Assistant text read for a sentence about a fix, in characters. */
const FIX_SCAN_CHARS = 4000;

/** A line naming an error ("Error [ERR_MODULE_NOT_FOUND]: …", "npm error …", a logger's
 *  "error: …") in an output. */
const ERROR_NAMING_LINE = /^[ \t]*(?:\w*Error\b[^\n]*?:|npm (?:error|ERR!)|error:)[ \t]*\S[^\n]*/im;
/** Runtime warnings printed before the error proper ("(node:123) ExperimentalWarning: …"). */
const WARNING_NOISE = /^\(node:\d+\)|^\(Use `node /;
/** Terminal colour codes around words such as "error". */
const ANSI_ESCAPE = /\u001b\[[0-9;]*m/g;
/** Shorter first lines ("Error") say nothing about what went wrong. */
const FLAGGED_MIN_CHARS = 8;

/** The signature of a tool result the harness flagged as an error (toolResult.isError) when no
 *  known error pattern matched it ("String to replace not found in file.", "Command timed out
 *  after 2m", "mv: src/ is not a directory"): a line naming an error, else its first line. */
function flaggedSignature(raw: string): string | undefined {
  const text = raw.replace(ANSI_ESCAPE, '');
  const named = ERROR_NAMING_LINE.exec(text)?.[0];
  const first = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !WARNING_NOISE.test(l));
  const line = collapseWhitespace((named ?? first ?? '').replace(/<\/?tool_use_error>/g, '').replace(/\s*\(node:\d+\).*$/, ''));
  return line.length >= FLAGGED_MIN_CHARS ? line : undefined;
}

/** Error signatures of one result (or user message): the analysis' patterns, else the line of a
 *  result the harness flagged as an error; a search that found nothing is not an error. */
function errorsOf(ctx: BuilderContext, sm: SpanMessage, call: SpanToolCall | undefined): readonly string[] {
  // The person declining a call is listed as what it is (rejectionItems).
  if (sm.message.toolResult && declined(ctx, sm)) return [];
  let errors = sm.analysis?.refs.errors ?? [];
  if (errors.length === 0 && sm.message.toolResult?.isError) {
    const flagged = fromMessage(ctx, sm, 'errors.flagged', (x) => flaggedSignature(x.text));
    if (flagged) errors = [flagged];
  }
  // grep, find, diff: exit code 1 means "nothing found" or "they differ", not a failure.
  if (call?.kind === 'search') errors = errors.filter((e) => e !== NO_MATCH_EXIT);
  return errors;
}

/** Whether a tool result is the person declining its call (once per message). */
export function declined(ctx: BuilderContext, sm: SpanMessage): boolean {
  return fromMessage(ctx, sm, 'errors.declined', (x) => isDeclinedResult(x.text));
}

/** The calls of the span the person declined, each an event: what was declined and, when the
 *  person said why right after, their words. */
function rejectionItems(ctx: BuilderContext, declinedCalls: readonly SpanToolCall[]): SectionItem[] {
  const { view, timeline } = ctx;
  const items: SectionItem[] = [];
  for (const call of declinedCalls) {
    const resultPos = call.resultPos!;
    const next = timeline.messages.slice(resultPos + 1, resultPos + 4).find((m) => m.userAuthored && m.text.trim());
    const what = `User rejected ${inlineCode(oneLine(describeCall(call), 160))} — not applied`;
    const forms = [listItem(what)];
    if (next) forms.push(listItem(`${what}; the user then said: “${oneLine(next.text, 200)}”`));
    items.push({
      key: `rejected:${call.call.id}`,
      forms,
      required: true,
      priority: 0.8 + 0.3 * recency(view, call.pos),
      order: call.pos,
      sourceIds: [view.messages[resultPos]!.message.id],
    });
  }
  return items;
}

/** The calls of the span whose result is the person declining them, in order. */
function declinedCalls(ctx: BuilderContext): SpanToolCall[] {
  const { view } = ctx;
  return view.calls.filter((call) => call.resultPos !== undefined && declined(ctx, view.messages[call.resultPos]!));
}

/** Traceback frames (`File "x.py", line 3`) and compiler lines (`src/a.ts:4:5`, `a.rs --> …`). */
const NAMING_LINE = /^.*(?:File "[^"\n]+", line \d+|\S+\.\w+:\d+|-->\s*\S+:\d+).*$/gm;

/** The assistant's first sentence about a fix in a message, on one line. */
function fixSentenceOf(text: string): string | undefined {
  const head = text.slice(0, FIX_SCAN_CHARS);
  if (!fixWords.has(head.toLowerCase())) return undefined;
  const s = splitSentences(head).find((x) => !isCodeSegment(x) && x.length >= 20 && fixWords.has(x.toLowerCase()));
  return s ? oneLine(s, 240) : undefined;
}

/** Paths on the lines of an output that name files for an error: traceback frames and
 *  compiler lines (read once per output, whatever number of errors it carries). */
function namingLinePaths(output: string): string[] {
  return (output.slice(0, 20000).match(NAMING_LINE) ?? []).flatMap((l) => extractFilePaths(l));
}

/** Files an error names: in its signature, then on its output's naming lines (namingLinePaths). */
function filesNamed(signature: string, linePaths: readonly string[]): string[] {
  return [...new Set([...extractFilePaths(signature), ...linePaths])];
}

type Group = ErrorGroup & { fileSet: Set<string>; sourceSet: Set<string> };

/** The errors of a stretch of the timeline, read in order. */
interface ErrorScan {
  groups: Map<string, Group>;
  /** Timeline positions of results that carried at least one error signature. */
  failed: Set<number>;
}

/** Reads timeline.messages[from, to) into `scan`. Past the span (`spanEnd`) an error only
 *  recurs: its last occurrence and the files it names change, on a copy of its group when
 *  `copyOnWrite` (the groups scanned before are kept for the next plan). */
function scanErrors(ctx: BuilderContext, scan: ErrorScan, from: number, to: number, copyOnWrite: boolean): void {
  const { view, timeline } = ctx;
  const spanEnd = view.messages.length;
  const { groups, failed } = scan;
  const copied = new Set<Group>();
  for (let p = from; p < to; p++) {
    const sm = timeline.messages[p]!;
    if (sm.summary || sm.assistant) continue;
    const call = timeline.callOfResult.get(sm.pos);
    const errors = errorsOf(ctx, sm, call);
    if (errors.length === 0) continue;
    if (sm.message.toolResult) failed.add(sm.pos);
    const specific = errors.filter((e) => !GENERIC.test(e));
    let linePaths: string[] | undefined;
    for (const sig of errors) {
      // An exit code beside a specific error in the same output adds nothing.
      if (GENERIC.test(sig) && specific.length > 0) continue;
      const key = collapseWhitespace(sig);
      let g = groups.get(key);
      if (g) {
        if (copyOnWrite && sm.pos >= spanEnd && !copied.has(g)) {
          g = { ...g, files: g.files.slice(), fileSet: new Set(g.fileSet) };
          copied.add(g);
          groups.set(key, g);
        }
        // A recurrence after the span counts for the status; the entry describes the span.
        g.lastPos = sm.pos;
        // Its last occurrence's call is what must run clean after it (also one kept after the span).
        g.lastCall = call;
        for (const f of filesNamed(sig, (linePaths ??= fromMessage(ctx, sm, 'errors.namingLines', (x) => namingLinePaths(x.text))))) {
          if (g.fileSet.has(f)) continue;
          g.fileSet.add(f);
          g.files.push(f);
        }
        if (sm.pos >= spanEnd) continue;
        g.count++;
        if (call) {
          g.call = call;
          g.command = describeCall(call);
        }
        if (!g.sourceSet.has(sm.message.id)) {
          g.sourceSet.add(sm.message.id);
          g.sourceIds.push(sm.message.id);
        }
      } else if (sm.pos < spanEnd) {
        const files = filesNamed(sig, (linePaths ??= fromMessage(ctx, sm, 'errors.namingLines', (x) => namingLinePaths(x.text))));
        groups.set(key, {
          signature: key,
          firstPos: sm.pos,
          lastPos: sm.pos,
          count: 1,
          command: call ? describeCall(call) : undefined,
          call,
          lastCall: call,
          sourceIds: [sm.message.id],
          sourceSet: new Set([sm.message.id]),
          fromUser: sm.userAuthored,
          files,
          fileSet: new Set(files),
        });
      }
    }
  }
}

/** The errors of the span and the assistant's sentences about a fix in it. */
interface SpanErrors extends ErrorScan {
  /** The assistant's first sentence about a fix in each message after the first error. */
  fixSentences: { pos: number; sentence: string }[];
  /** The calls the person declined (declinedCalls): their results are in the span, so the
   *  calls are among the results' calls the kept reading depends on. */
  declinedCalls: SpanToolCall[];
}

function spanErrors(ctx: BuilderContext): SpanErrors {
  const { view } = ctx;
  const scan: ErrorScan = { groups: new Map(), failed: new Set() };
  scanErrors(ctx, scan, 0, view.messages.length, false);
  let firstError = Number.POSITIVE_INFINITY;
  for (const g of scan.groups.values()) firstError = Math.min(firstError, g.firstPos);
  const fixSentences: { pos: number; sentence: string }[] = [];
  for (const sm of view.messages) {
    if (sm.pos <= firstError || !sm.assistant || !sm.text) continue;
    const sentence = fromMessage(ctx, sm, 'errors.fixSentence', (x) => fixSentenceOf(x.text));
    if (sentence !== undefined) fixSentences.push({ pos: sm.pos, sentence });
  }
  return { ...scan, fixSentences, declinedCalls: declinedCalls(ctx) };
}

/** The span's errors (spanErrors) last read for these very messages, references and result calls:
 *  a re-plan of a grown conversation that summarizes the same messages reads only those after
 *  them again. Kept unchanged (the messages after the span are read onto copies). */
function keptSpanErrors(ctx: BuilderContext): SpanErrors {
  const { view, timeline, memo, c } = ctx;
  const deps: unknown[] = [];
  for (const sm of view.messages) deps.push(sm.analysis?.refs, timeline.callOfResult.get(sm.pos));
  return memo.same(
    memoSlotWith<SpanErrors>('errors.span', c),
    view.messages.map((sm) => sm.message),
    deps,
    () => spanErrors(ctx),
  );
}

/** The timeline scanned for what comes after each error (advanceLaterScan), resumed from the
 *  last scan when the timeline starts with the same messages read with the same references (a
 *  result's errors, in `failed`, come from those). */
function keptLaterScan(ctx: BuilderContext, messages: readonly Message[], failed: ReadonlySet<number>): LaterScan {
  const { timeline, memo, c } = ctx;
  const refsAt = (p: number) => timeline.messages[p]!.analysis?.refs;
  const kept = memo.resume(
    memoSlotWith<{ scan: LaterScan; refs: unknown[] }>('errors.later', c),
    messages,
    () => ({ scan: laterScan(), refs: [] }),
    (state, from) => {
      advanceLaterScan(state.scan, timeline, from, (pos) => failed.has(pos));
      for (let p = from; p < timeline.messages.length; p++) state.refs.push(refsAt(p));
    },
    (state) => state.refs.every((r, p) => r === refsAt(p)),
  );
  return kept.scan;
}

/** The span's errors with the messages after it read onto them (scanErrors, copy-on-write),
 *  resumed from the last scan when the timeline starts with the same messages, after the same
 *  span's errors, read with the same references and result calls: a re-plan of a grown
 *  conversation that summarizes the same messages reads only the new ones. Each resumption
 *  copies a group before it changes it, so a group handed out never changes (groupForms). */
function keptErrorScan(ctx: BuilderContext, messages: readonly Message[], span: SpanErrors): ErrorScan {
  const { view, timeline, memo, c } = ctx;
  const spanEnd = view.messages.length;
  const kept = memo.resume(
    memoSlotWith<{ span: SpanErrors; scan: ErrorScan; read: unknown[] }>('errors.after', c),
    messages,
    () => ({ span, scan: { groups: new Map(span.groups), failed: new Set(span.failed) }, read: [] }),
    (state, from) => {
      const start = Math.max(from, spanEnd);
      scanErrors(ctx, state.scan, start, timeline.messages.length, true);
      for (let p = start; p < timeline.messages.length; p++) state.read.push(timeline.messages[p]!.analysis?.refs, timeline.callOfResult.get(p));
    },
    (state) => {
      if (state.span !== span) return false;
      for (let k = 0; k < state.read.length; k += 2) {
        const p = spanEnd + k / 2;
        if (state.read[k] !== timeline.messages[p]!.analysis?.refs || state.read[k + 1] !== timeline.callOfResult.get(p)) return false;
      }
      return true;
    },
  );
  return kept.scan;
}

/** The key and forms last written for each group, with the status and constants they were
 *  written from: a group is never changed once its scan is done (the span's groups are kept for
 *  the next plan, and a recurrence after the span changes a copy), so a re-plan whose group has
 *  the same status writes nothing again. */
const FORMS = new WeakMap<ErrorGroup, { st: Status; c: SegmentConstants; key: string; forms: string[] }>();

function groupForms(g: ErrorGroup, st: Status, c: SegmentConstants): { key: string; forms: string[] } {
  const kept = FORMS.get(g);
  if (kept && kept.c === c && kept.st.label === st.label && kept.st.detail === st.detail && kept.st.explanation === st.explanation) return kept;
  const sig = inlineCode(oneLine(g.signature, c.ERROR_SIGNATURE_MAX_CHARS));
  const times = g.count > 1 ? ` (×${g.count})` : '';
  const from = g.fromUser ? ' reported by the user' : g.command ? ` from ${inlineCode(oneLine(g.command, c.ERROR_COMMAND_MAX_CHARS))}` : '';
  const short = `${sig} — ${st.label}`;
  const long = `${sig}${times}${from} — ${st.label}${st.detail ? `: ${st.detail}` : ''}`;
  const forms = [listItem(short), listItem(long)];
  // The assistant's words about a fix only beside evidence of one.
  if (st.explanation && st.label === 'fixed') forms.push(listItem(`${long}\n${st.explanation}`));
  const made = { st, c, key: `error:${oneLine(g.signature, c.ERROR_SIGNATURE_MAX_CHARS)}`, forms: distinctForms(forms) };
  FORMS.set(g, made);
  return made;
}

export function buildErrorsAndFixes(ctx: BuilderContext): SectionItem[] {
  const { view, timeline, c } = ctx;
  const span = keptSpanErrors(ctx);
  // The timeline's messages, for the kept scans (one list: the memo keeps one copy of it).
  const messages = timeline.messages.map((sm) => sm.message);
  const { groups, failed } = keptErrorScan(ctx, messages, span);
  const fixSentences = span.fixSentences;
  const fixPositions = fixSentences.map((f) => f.pos);
  const later = groups.size > 0 ? laterEvidence(keptLaterScan(ctx, messages, failed)) : undefined;

  const status = (g: ErrorGroup): Status => {
    const edited = later!.editedAfter(g.lastPos);
    const namedEdit = later!.namedEditAfter(g.lastPos, g.files);
    const editedText = edited.length > 0 ? `edited ${edited.map(inlineCode).join(', ')}` : '';
    const cmd = g.command ? inlineCode(oneLine(g.command, c.ERROR_COMMAND_MAX_CHARS)) : 'the command';
    const explanation = fixSentences[firstAfter(fixPositions, g.lastPos)]?.sentence;
    if (later!.cleanRunAfter(g.lastPos, g.lastCall))
      return { label: 'fixed', detail: `${editedText ? `${editedText}; ` : ''}${cmd} ran clean afterwards`, explanation };
    if (namedEdit !== undefined)
      return { label: 'fixed', detail: `edited ${inlineCode(namedEdit)}, which the error names; it did not occur again`, explanation };
    if (later!.confirmedAfter(g.lastPos)) return { label: 'fixed', detail: 'the user said it works', explanation };
    if (later!.activityAfter(g.lastPos))
      return { label: 'seen, then not repeated', detail: editedText ? `${editedText} afterwards, no re-run shown` : '', explanation: undefined };
    return { label: 'unresolved', detail: '', explanation: undefined };
  };

  const items: SectionItem[] = [];
  let required = 0;
  for (const g of groups.values()) {
    const generic = GENERIC.test(g.signature);
    const st = status(g);
    const { key, forms } = groupForms(g, st, c);
    const isRequired = !generic && required < REQUIRED_ERRORS_MAX;
    if (isRequired) required++;
    items.push({
      key,
      forms,
      required: isRequired,
      priority: (0.5 + 0.5 * recency(view, g.lastPos) + (st.label === 'unresolved' ? 0.3 : 0)) * (generic ? c.GENERIC_ERROR_PRIORITY : 1),
      order: g.firstPos,
      sourceIds: g.sourceIds.slice(),
    });
  }
  items.push(...rejectionItems(ctx, span.declinedCalls));
  // An error keeps its latest state: an entry from this span replaces the earlier summary's.
  return ctx.previous ? replaceByKey(previousItems(ctx.previous, { required: true, priority: 0.3, keyOf: keyByInlineCode('error') }), items) : items;
}
