// "Errors and fixes": each error signature the span met (exception type and
// message, failing test, compiler error, non-zero exit), with the command that produced it and
// its state. "fixed" needs evidence after its last occurrence — in the span or in the messages
// kept after it: the same command (an identifying one: a shell line, or a tool call with
// arguments) ran clean, or a file the error names (its traceback, its compiler line) was edited
// and the error did not occur again, or the person said it works. The assistant saying it
// fixed something is not evidence. Without evidence an error is "seen, then not repeated" when
// the session went on without it, else "unresolved".
// Generic exit codes are listed only as optional items: the specific error says more.
// On re-compaction an error keeps its latest state (same signature → new entry wins).

import { compileKeywords } from '../text/keywordMatcher';
import { FIX_KEYWORDS } from '../analyze/keywords';
import { isCodeSegment, splitSentences } from '../text/sentences';
import { keyByInlineCode, previousItems, replaceByKey } from './mergeSections';
import type { BuilderContext } from './sectionBuilder';
import { recency } from './sectionBuilder';
import type { SectionItem } from './sectionItems';
import { distinctForms } from './sectionItems';
import { extractFilePaths } from '../analyze/refs';
import { userConfirmsAfter } from './evidence';
import { describeCall, type SpanMessage, type SpanToolCall } from './spanView';
import { collapseWhitespace, inlineCode, listItem, oneLine } from './textCut';

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
/** Claude Code's result when the person declines a tool call: a decision, not an error. */
const DECLINED = /^The user doesn't want to proceed with this tool use/;
/** Shorter first lines ("Error") say nothing about what went wrong. */
const FLAGGED_MIN_CHARS = 8;

/** The signature of a tool result the harness flagged as an error (toolResult.isError) when no
 *  known error pattern matched it ("String to replace not found in file.", "Command timed out
 *  after 2m", "mv: src/ is not a directory"): a line naming an error, else its first line. */
function flaggedSignature(raw: string): string | undefined {
  const text = raw.replace(ANSI_ESCAPE, '');
  const named = ERROR_NAMING_LINE.exec(text)?.[0];
  const first = text.split('\n').map((l) => l.trim()).find((l) => l !== '' && !WARNING_NOISE.test(l));
  const line = collapseWhitespace((named ?? first ?? '').replace(/<\/?tool_use_error>/g, '').replace(/\s*\(node:\d+\).*$/, ''));
  return line.length >= FLAGGED_MIN_CHARS && !DECLINED.test(line) ? line : undefined;
}

/** Arguments that say nothing about what a call did (aider's output runs are all `aider {}`). */
const NO_ARGUMENTS = /^\s*(?:\{\s*\}|\[\s*\]|null|"")?\s*$/;

/** The same command run again: the same shell line, or the same tool with the same arguments —
 *  when those arguments identify something (two argument-less calls are not "the same run"). */
function sameCommand(a: SpanToolCall | undefined, b: SpanToolCall): boolean {
  if (!a) return false;
  if (a.command !== undefined && b.command !== undefined) return collapseWhitespace(a.command) === collapseWhitespace(b.command);
  return a.name === b.name && a.call.arguments === b.call.arguments && !NO_ARGUMENTS.test(a.call.arguments);
}

/** Error signatures of one result (or user message): the analysis' patterns, else the line of a
 *  result the harness flagged as an error; a search that found nothing is not an error. */
function errorsOf(sm: SpanMessage, call: SpanToolCall | undefined): string[] {
  let errors = sm.analysis?.refs.errors ?? [];
  if (errors.length === 0 && sm.message.toolResult?.isError) {
    const flagged = flaggedSignature(sm.text);
    if (flagged) errors = [flagged];
  }
  // grep, find, diff: exit code 1 means "nothing found" or "they differ", not a failure.
  if (call?.kind === 'search') errors = errors.filter((e) => e !== NO_MATCH_EXIT);
  return errors;
}

/** Traceback frames (`File "x.py", line 3`) and compiler lines (`src/a.ts:4:5`, `a.rs --> …`). */
const NAMING_LINE = /^.*(?:File "[^"\n]+", line \d+|\S+\.\w+:\d+|-->\s*\S+:\d+).*$/gm;

/** Files an error names: in its signature, its traceback frames and its compiler lines. */
function filesNamed(signature: string, output: string): string[] {
  const lines = [signature, ...(output.slice(0, 20000).match(NAMING_LINE) ?? [])];
  return [...new Set(lines.flatMap((l) => extractFilePaths(l)))];
}

/** Two paths for the same file: equal, or one is the other with leading folders. */
function samePath(a: string, b: string): boolean {
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

export function buildErrorsAndFixes(ctx: BuilderContext): SectionItem[] {
  const { view, timeline, c } = ctx;
  const spanEnd = view.messages.length;
  const groups = new Map<string, ErrorGroup>();
  /** Timeline positions of results that carried at least one error signature. */
  const failed = new Set<number>();
  for (const sm of timeline.messages) {
    if (sm.summary || sm.assistant) continue;
    const call = timeline.callOfResult.get(sm.pos);
    const errors = errorsOf(sm, call);
    if (errors.length === 0) continue;
    if (sm.message.toolResult) failed.add(sm.pos);
    const specific = errors.filter((e) => !GENERIC.test(e));
    for (const sig of errors) {
      // An exit code beside a specific error in the same output adds nothing.
      if (GENERIC.test(sig) && specific.length > 0) continue;
      const key = collapseWhitespace(sig);
      const g = groups.get(key);
      if (g) {
        // A recurrence after the span counts for the status; the entry describes the span.
        g.lastPos = sm.pos;
        for (const f of filesNamed(sig, sm.text)) if (!g.files.includes(f)) g.files.push(f);
        if (sm.pos >= spanEnd) continue;
        g.count++;
        if (call) {
          g.call = call;
          g.command = describeCall(call);
        }
        if (!g.sourceIds.includes(sm.message.id)) g.sourceIds.push(sm.message.id);
      } else if (sm.pos < spanEnd) {
        groups.set(key, {
          signature: key,
          firstPos: sm.pos,
          lastPos: sm.pos,
          count: 1,
          command: call ? describeCall(call) : undefined,
          call,
          sourceIds: [sm.message.id],
          fromUser: sm.userAuthored,
          files: filesNamed(sig, sm.text),
        });
      }
    }
  }

  // The assistant's first sentence about a fix in each message after the first error (computed once).
  const firstError = Math.min(...[...groups.values()].map((g) => g.firstPos));
  const fixSentences: { pos: number; sentence: string }[] = [];
  for (const sm of view.messages) {
    if (sm.pos <= firstError || !sm.assistant || !sm.text || !fixWords.has(sm.text.slice(0, FIX_SCAN_CHARS).toLowerCase())) continue;
    const s = splitSentences(sm.text.slice(0, FIX_SCAN_CHARS)).find((x) => !isCodeSegment(x) && x.length >= 20 && fixWords.has(x.toLowerCase()));
    if (s) fixSentences.push({ pos: sm.pos, sentence: oneLine(s, 240) });
  }

  const status = (g: ErrorGroup): Status => {
    const edited: string[] = [];
    let namedEdit: string | undefined;
    for (const call of timeline.calls) {
      if (call.pos <= g.lastPos) continue;
      for (const f of call.files) {
        if (f.action !== 'edited' && f.action !== 'created') continue;
        if (!edited.includes(f.path) && edited.length < 3) edited.push(f.path);
        if (namedEdit === undefined && g.files.some((n) => samePath(n, f.path))) namedEdit = f.path;
      }
    }
    const editedText = edited.length > 0 ? `edited ${edited.map(inlineCode).join(', ')}` : '';
    const cmd = g.command ? inlineCode(oneLine(g.command, c.ERROR_COMMAND_MAX_CHARS)) : 'the command';
    const explanation = fixSentences.find((f) => f.pos > g.lastPos)?.sentence;
    let cleanRun = false;
    for (const call of timeline.calls) {
      if (call.pos <= g.lastPos || call.resultPos === undefined || failed.has(call.resultPos)) continue;
      if (timeline.messages[call.resultPos]!.message.toolResult?.isError) continue;
      if (sameCommand(g.call, call)) {
        cleanRun = true;
        break;
      }
    }
    if (cleanRun) return { label: 'fixed', detail: `${editedText ? `${editedText}; ` : ''}${cmd} ran clean afterwards`, explanation };
    if (namedEdit !== undefined) return { label: 'fixed', detail: `edited ${inlineCode(namedEdit)}, which the error names; it did not occur again`, explanation };
    if (userConfirmsAfter(timeline, g.lastPos)) return { label: 'fixed', detail: 'the user said it works', explanation };
    const laterActivity = timeline.messages.some((m) => m.pos > g.lastPos && (m.message.toolResult !== undefined || m.userAuthored));
    if (laterActivity) return { label: 'seen, then not repeated', detail: editedText ? `${editedText} afterwards, no re-run shown` : '', explanation: undefined };
    return { label: 'unresolved', detail: '', explanation: undefined };
  };

  const items: SectionItem[] = [];
  let required = 0;
  for (const g of groups.values()) {
    const generic = GENERIC.test(g.signature);
    const st = status(g);
    const sig = inlineCode(oneLine(g.signature, c.ERROR_SIGNATURE_MAX_CHARS));
    const times = g.count > 1 ? ` (×${g.count})` : '';
    const from = g.fromUser ? ' reported by the user' : g.command ? ` from ${inlineCode(oneLine(g.command, c.ERROR_COMMAND_MAX_CHARS))}` : '';
    const short = `${sig} — ${st.label}`;
    const long = `${sig}${times}${from} — ${st.label}${st.detail ? `: ${st.detail}` : ''}`;
    const forms = [listItem(short), listItem(long)];
    // The assistant's words about a fix only beside evidence of one.
    if (st.explanation && st.label === 'fixed') forms.push(listItem(`${long}\n${st.explanation}`));
    const isRequired = !generic && required < REQUIRED_ERRORS_MAX;
    if (isRequired) required++;
    items.push({
      key: `error:${oneLine(g.signature, c.ERROR_SIGNATURE_MAX_CHARS)}`,
      forms: distinctForms(forms),
      required: isRequired,
      priority: (0.5 + 0.5 * recency(view, g.lastPos) + (st.label === 'unresolved' ? 0.3 : 0)) * (generic ? c.GENERIC_ERROR_PRIORITY : 1),
      order: g.firstPos,
      sourceIds: g.sourceIds,
    });
  }
  // An error keeps its latest state: an entry from this span replaces the earlier summary's.
  return ctx.previous ? replaceByKey(previousItems(ctx.previous, { required: true, priority: 0.3, keyOf: keyByInlineCode('error') }), items) : items;
}
