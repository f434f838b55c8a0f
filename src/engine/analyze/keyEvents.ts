// Key events: the messages a key-event strategy keeps whole.
//
// - user_input: every message a person wrote (a tool result sent with role 'user' is not one).
// - task_start: the first user message that states something (not "ok", not a bare slash
//   command such as /clear), and user messages announcing a new task.
// - task_complete: completion markers in the assistant's words or tool calls (!!!COMPLETE!!!,
//   !!!SUMMARY!!!, "task complete", 任务完成, "submitted", a line that is just "Done.",
//   COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT, a call to attempt_completion / finish / submit).
//   Only the assistant's: system prompts and task descriptions mention the markers as
//   instructions.
// - decision: decision words (决定 选择 方案 … / decide, approach, plan …) in a user or assistant
//   message longer than DECISION_MIN_CHARS.
// - error: a tool result flagged as an error or carrying an error signature; a user or
//   assistant message with an error signature or error words.
// - fix: fix words (修复 解决 / fix, resolved …) in a user or assistant message.
// - key_tool_result: a tool result with an error, a test outcome or a file write.
// - pinned: `pinned`, a <Pin> marker anywhere, or importance words (重要 关键 必须 注意 /
//   important, must …) in a message a person wrote.
// Header items (system prompt, tool definitions, memory) are never key events: they are kept anyway.

import { NONE } from '../conversation/messageMemo';
import { isHeaderItem, isToolResult, isUserAuthored, type Message } from '../conversation/model';
import { compileKeywords } from '../text/keywordMatcher';
import type { KeyEventKind, MessageRefs } from './analysis';
import type { AnalyzeConstants } from './constants';
import { COMPLETION_KEYWORDS, DECISION_KEYWORDS, ERROR_KEYWORDS, FIX_KEYWORDS, PIN_MARKERS, PIN_WORDS, TASK_START_KEYWORDS } from './keywords';
import { COMPLETION_TOOLS, normalizeToolName, toolCallKind } from './toolKinds';

const completion_ = compileKeywords(COMPLETION_KEYWORDS);
const taskStart = compileKeywords(TASK_START_KEYWORDS);
const decision = compileKeywords(DECISION_KEYWORDS);
const errorWords = compileKeywords(ERROR_KEYWORDS);
const fixWords = compileKeywords(FIX_KEYWORDS);
const pinMarkers = compileKeywords(PIN_MARKERS);
const pinWords = compileKeywords(PIN_WORDS);

/** A slash command alone ("/clear", Claude Code's <command-name>/init</command-name> wrapper):
 *  the user typed it, but it states no task. */
const COMMAND_ONLY = /^\s*(?:\/[\w:-]+(?:\s+\S+)?|(?:<(command-name|command-message|command-args)>[\s\S]*?<\/\1>\s*)+)\s*$/;

/** Whether a user message can open the task: not an acknowledgement, not a bare slash command. */
export function statesTask(visibleText: string, isAck: boolean): boolean {
  return !isAck && visibleText.trim() !== '' && !COMMAND_ONLY.test(visibleText);
}

/** "Done." / "All done!" / "完成。" on a line of its own. */
const DONE_LINE = /^[ \t]*(?:all )?(?:done|finished|完成|搞定)[.!。！]*[ \t]*$/im;

/** Test runner outcomes: pytest, unittest, jest/vitest, cargo, go test, mocha. */
export const TEST_OUTCOME =
  /\b\d+ (?:passed|failed|errors?|skipped)\b|\bRan \d+ tests? in\b|^OK(?: \(|\s*$)|^FAILED \(|^\s*Tests?:\s+\d+|\btest result: (?:ok|FAILED)\b|^(?:ok|FAIL|PASS)\s+\S+|\ball tests pass(?:ed)?\b|\b\d+ (?:passing|failing)\b/m;

/** File writes reported by tools and agents. */
export const FILE_WRITE =
  /\bApplied edit to\b|\bFile created successfully\b|\bhas been (?:updated|created|written|modified|edited)\b|\bSuccessfully (?:wrote|created|updated|edited|modified|replaced)\b|\bThe file \S+ has been\b|\bWrote \d+ (?:bytes|lines)\b|\bCreated file\b|\bnew file mode\b/;

export interface KeyEventInput {
  message: Message;
  /** What the message says in words (text + thinking), lower-cased: errors, fixes, decisions,
   *  pins. Code inside tool-call arguments ("throw new Error") is not the speaker reporting one. */
  lower: string;
  /** Words plus tool-call arguments, lower-cased: completion markers are often commands
   *  ("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"). */
  fullLower: string;
  /** Visible text (text parts only), for length rules and line markers. */
  visibleText: string;
  refs: MessageRefs;
  isFirstUserMessage: boolean;
  /** Kinds of the tool calls that produced this tool result (for key tool results). */
  resultOfEdit: boolean;
}

export interface KeyEventSignals {
  events: readonly KeyEventKind[];
  /** Task completion seen (role score +1.5). */
  completion: boolean;
  /** Errors or fixes seen (role score +2.0). */
  errorOrFix: boolean;
  /** Pinned or user-marked important (role score +3.0). */
  pinned: boolean;
}

/** What a message alone says about its key events: everything detectKeyEvents reads except
 *  where the message stands (the first request, the result of an edit). */
export interface KeyEventEvidence {
  header: boolean;
  user: boolean;
  result: boolean;
  /** Pinned by its flag (all a header item reports). */
  pinnedFlag: boolean;
  /** Task-start words in a person's message. */
  taskStartWords: boolean;
  completion: boolean;
  decision: boolean;
  error: boolean;
  fix: boolean;
  /** A tool result with an error, a test outcome or a file write. */
  keyResult: boolean;
  pinned: boolean;
}

/** The evidence as a number (one bit per field): equal evidences, equal numbers. There are 2¹¹ at
 *  most, so a conversation's readings can share one object for each (Interner). */
export function evidenceBits(e: KeyEventEvidence): number {
  return (
    (e.header ? 1 : 0) |
    (e.user ? 2 : 0) |
    (e.result ? 4 : 0) |
    (e.pinnedFlag ? 8 : 0) |
    (e.taskStartWords ? 16 : 0) |
    (e.completion ? 32 : 0) |
    (e.decision ? 64 : 0) |
    (e.error ? 128 : 0) |
    (e.fix ? 256 : 0) |
    (e.keyResult ? 512 : 0) |
    (e.pinned ? 1024 : 0)
  );
}

export function keyEventEvidence(input: Omit<KeyEventInput, 'isFirstUserMessage' | 'resultOfEdit'>, c: AnalyzeConstants): KeyEventEvidence {
  const { message: m, lower, visibleText, refs } = input;
  const header = isHeaderItem(m);
  const user = isUserAuthored(m);
  const result = isToolResult(m);
  const assistant = m.role === 'assistant' && !result;
  const speaker = user || assistant; // words a person or the model chose
  const none = {
    header,
    user,
    result,
    pinnedFlag: !!m.pinned,
    taskStartWords: false,
    completion: false,
    decision: false,
    error: false,
    fix: false,
    keyResult: false,
    pinned: false,
  };
  if (header) return none;
  const completion =
    assistant &&
    (completion_.has(input.fullLower) || DONE_LINE.test(visibleText) || (m.toolCalls ?? []).some((call) => COMPLETION_TOOLS.has(normalizeToolName(call.name))));
  const error = result ? m.toolResult!.isError || refs.errors.length > 0 : speaker && (refs.errors.length > 0 || errorWords.has(lower));
  return {
    ...none,
    taskStartWords: user && taskStart.has(lower),
    completion,
    decision: speaker && visibleText.length > c.DECISION_MIN_CHARS && decision.has(lower),
    error,
    fix: speaker && fixWords.has(lower),
    keyResult: result && (error || TEST_OUTCOME.test(visibleText) || FILE_WRITE.test(visibleText)),
    pinned: !!m.pinned || pinMarkers.has(lower) || (user && pinWords.has(lower)),
  };
}

/** The lists of key events given so far, by their kinds: there are at most 2⁸ (each kind once, in
 *  one order), so every message with the same events gets the same frozen list. */
const EVENT_LISTS = new Map<string, readonly KeyEventKind[]>();

function sharedList(events: KeyEventKind[]): readonly KeyEventKind[] {
  if (events.length === 0) return NONE;
  const key = events.join(' ');
  let list = EVENT_LISTS.get(key);
  if (!list) EVENT_LISTS.set(key, (list = Object.freeze(events.slice())));
  return list;
}

/** The key events of a message from its evidence and where it stands. */
export function keyEventsOf(e: KeyEventEvidence, isFirstUserMessage: boolean, resultOfEdit: boolean): KeyEventSignals {
  const events: KeyEventKind[] = [];
  if (e.header) return { events: NONE, completion: false, errorOrFix: false, pinned: e.pinnedFlag };
  if (e.user && (isFirstUserMessage || e.taskStartWords)) events.push('task_start');
  if (e.completion) events.push('task_complete');
  if (e.decision) events.push('decision');
  if (e.error) events.push('error');
  if (e.fix) events.push('fix');
  if (e.result && (e.keyResult || resultOfEdit)) events.push('key_tool_result');
  if (e.pinned) events.push('pinned');
  if (e.user) events.push('user_input');
  return { events: sharedList(events), completion: e.completion, errorOrFix: e.error || e.fix, pinned: e.pinned };
}

export function detectKeyEvents(input: KeyEventInput, c: AnalyzeConstants): KeyEventSignals {
  return keyEventsOf(keyEventEvidence(input, c), input.isFirstUserMessage, input.resultOfEdit);
}

/** Where a scan for results of file-editing tool calls stands: the edit calls seen so far, and
 *  for each message scanned whether it is the result of one (a message's flag reads only the
 *  messages before it, so a grown conversation keeps the flags it had). */
export interface EditResultScan {
  editCalls: Set<string>;
  flags: boolean[];
}

export function editResultScan(): EditResultScan {
  return { editCalls: new Set(), flags: [] };
}

/** Scans messages[from…] into `scan` (the messages before `from` were scanned into it already). */
export function advanceEditResults(scan: EditResultScan, messages: readonly Message[], from: number): void {
  const { editCalls, flags } = scan;
  for (let i = from; i < messages.length; i++) {
    const m = messages[i]!;
    for (const call of m.toolCalls ?? []) if (toolCallKind(call) === 'edit') editCalls.add(call.id);
    flags.push(m.toolResult ? editCalls.has(m.toolResult.toolCallId) : false);
  }
}
