// "Pending Tasks": what the person asked for that the conversation does not show done — the
// open items of the latest task list the agent kept (a TodoWrite call's todos, a Cline
// task_progress checklist, a Markdown checklist in the assistant's text), the person's
// explicit to-do sentences, and the latest request when nothing after it shows it done
// (segments/evidence.ts), also when it is kept verbatim after the summary. A session that ended in a submission or
// attempt_completion has none, unless the person asked for more after it. The assistant's own
// announcements ("I'll help you implement …", "Okay, I will make that change.") are never tasks.
// On re-compaction a newer task list replaces the earlier one; earlier TODO lines stay as
// optional items below the new ones (none after a completion).

import { compileKeywords } from '../text/keywordMatcher';
import { isRuleSentence } from '../analyze/standingRules';
import { isCodeSegment, splitSentences } from '../text/sentences';
import { lastCompletion, latestRequestOf } from './evidence';
import { previousItems } from './previousItems';
import type { BuilderContext } from './sectionBuilder';
import { fromMessage, recency } from './sectionBuilder';
import type { SegmentConstants } from './constants';
import type { SectionItem } from './sectionItems';
import { uniqueByKey } from './sectionItems';
import type { SpanMessage, SpanToolCall, SpanView } from './spanView';
import { memoSlot, NONE, orNone, type MessageMemo } from '../conversation/messageMemo';
import { collapseWhitespace, listItem, oneLine, withoutListMarkers } from '../text/textCut';
import { requestParts } from './userMessages';
import { requestWords } from '../analyze/pasted';

/** The user's own latest explicit to-do sentences are required items: an instruction the
 *  person gave must not vanish from Pending Tasks because the budget is tight (it would survive
 *  only inside "All user messages", where nothing marks it as still open). Three covers a
 *  request with a couple of follow-ups without letting a chatty user crowd the section. */
export const REQUIRED_USER_PENDING_MAX = 3;
/** Words that make a sentence an explicit to-do (PENDING_WORDS also takes softer ones such as
 *  "need to" or "later", which as often say what is not needed). */
const EXPLICIT_PENDING_WORDS = compileKeywords({
  en: ['todo', 'to-do', 'next step', 'next steps', 'still need', 'still needs', 'left to do', 'remaining', 'pending', 'not yet', 'outstanding', 'follow-up'],
  zh: ['待办', '下一步', '还需要', '未完成', '待处理', '尚未'],
});
/** "TODO:" / "To-do -" as a marker: a to-do item, whatever words follow. */
const TODO_MARKER = /(?:^|\s)(?:TODO|To-?do)\s*[:\-–]\s*\S/;
/** "todo list", "TODO app": the word names a thing, it does not mark a task. */
const TODO_NOUN = /\bto-?do(?:s)? (?:list|app|application|item|items|component|manager|tracker)s?\b/gi;

const TODO_TOOLS: ReadonlySet<string> = new Set(['todowrite', 'todo_write', 'update_todo_list', 'todo', 'todos', 'write_todos', 'update_plan', 'plan']);
const CHECKBOX_LINE = /^\s*(?:[-*]|\d+[.)])\s+\[( |x|X|~|-)\]\s+\S/;

export interface TaskList {
  lines: string[];
  source: string;
  pos: number;
  id: string;
}

function todoLines(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const lines: string[] = [];
  for (const t of value) {
    if (!t || typeof t !== 'object') continue;
    const o = t as Record<string, unknown>;
    const content =
      typeof o.content === 'string'
        ? o.content
        : typeof o.step === 'string'
          ? o.step
          : typeof o.title === 'string'
            ? o.title
            : typeof o.task === 'string'
              ? o.task
              : undefined;
    if (!content) continue;
    const status = typeof o.status === 'string' ? o.status.toLowerCase() : '';
    const box = status === 'completed' || status === 'done' ? '[x]' : status === 'cancelled' || status === 'canceled' ? '[-]' : '[ ]';
    const note = status === 'in_progress' ? ' (in progress)' : '';
    lines.push(`${box} ${oneLine(content, 300)}${note}`);
  }
  return lines.length > 0 ? lines : undefined;
}

function listFromCall(call: SpanToolCall): { lines: string[]; source: string } | undefined {
  let args: unknown;
  try {
    args = JSON.parse(call.call.arguments);
  } catch {
    return undefined;
  }
  if (!args || typeof args !== 'object') return undefined;
  const o = args as Record<string, unknown>;
  const name = call.name.toLowerCase();
  if (TODO_TOOLS.has(name) || Array.isArray(o.todos)) {
    const lines = todoLines(o.todos ?? o.plan ?? o.items ?? o.tasks);
    if (lines) return { lines, source: call.name };
  }
  if (typeof o.task_progress === 'string') {
    const lines = checklist(o.task_progress);
    if (lines.length > 0) return { lines, source: `${call.name} task_progress` };
  }
  return undefined;
}

function checklist(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => CHECKBOX_LINE.test(l))
    .map((l) =>
      l
        .trim()
        .replace(/^(?:[-*]|\d+[.)])\s+/, '')
        .replace(/^\[X\]/, '[x]'),
    );
}

/** The task list one message carries, if any: its last todo call, else a checklist in its text. */
function taskListIn(sm: SpanMessage, calls: readonly SpanToolCall[]): { lines: string[]; source: string } | undefined {
  for (const call of [...calls].reverse()) {
    const l = listFromCall(call);
    if (l) return l;
  }
  if (sm.assistant && sm.text.includes('[')) {
    const lines = checklist(sm.text);
    if (lines.length >= 2) return { lines, source: "checklist in the assistant's reply" };
  }
  return undefined;
}

const TASK_LIST = memoSlot<{ lines: string[]; source: string } | undefined>('pending.taskList');

/** The task list one message of `view` carries (its lines "[x] done", "[ ] open", "[ ] … (in
 *  progress)", "[-] cancelled"), if any. `memo` keeps each message's list. */
export function taskListAt(view: SpanView, pos: number, memo?: MessageMemo): { lines: string[]; source: string } | undefined {
  const sm = view.messages[pos]!;
  const calls = view.callsAt.get(pos) ?? [];
  return memo ? memo.read(sm.message, sm.memo, TASK_LIST, () => taskListIn(sm, calls)) : taskListIn(sm, calls);
}

/** The last task list in the span: a todo tool call, a task_progress checklist, or a Markdown
 *  checklist of two items or more in the assistant's reply. `memo` keeps each message's list. */
export function latestTaskList(view: SpanView, memo?: MessageMemo): TaskList | undefined {
  for (let pos = view.messages.length - 1; pos >= 0; pos--) {
    const l = taskListAt(view, pos, memo);
    if (l) return { ...l, pos, id: view.messages[pos]!.message.id };
  }
  return undefined;
}

/** An item of a task list that is no longer open: done ("[x]") or cancelled ("[-]"). */
export function isClosedTask(line: string): boolean {
  return line.startsWith('[x]') || line.startsWith('[-]');
}

/** Code pasted into a message ("export function f() { throw new Error('not yet implemented'); }"):
 *  braces, statement ends, arrows or calls with no prose around them. */
function looksLikeCode(s: string): boolean {
  return /[{};]\s*$|^\s*(?:\*\/|\/\/|#include|import |export |def |class |function |const |let |var |return\b)|=>|\)\s*\{/.test(s);
}

/** A person's explicit to-do sentences in one message. */
function todoSentences(full: string, c: SegmentConstants): readonly { k: number; key: string; form: string }[] {
  const text = full.slice(0, 20000);
  if (!EXPLICIT_PENDING_WORDS.has(text.toLowerCase()) && !TODO_MARKER.test(text)) return NONE;
  const out: { k: number; key: string; form: string }[] = [];
  splitSentences(text).forEach((s, k) => {
    if (isCodeSegment(s) || s.length < 15 || CHECKBOX_LINE.test(s) || looksLikeCode(s) || isRuleSentence(s)) return;
    const lower = s.toLowerCase();
    if (!TODO_MARKER.test(s) && !EXPLICIT_PENDING_WORDS.has(lower.replace(TODO_NOUN, ''))) return;
    out.push({
      k,
      key: `pending:${collapseWhitespace(s).toLowerCase()}`,
      form: listItem(`User: ${oneLine(withoutListMarkers(s), c.PENDING_SENTENCE_MAX_CHARS)}`),
    });
  });
  return orNone(out);
}

export function buildPendingTasks(ctx: BuilderContext): SectionItem[] {
  const { view, timeline, c } = ctx;
  const spanEnd = view.messages.length;
  const items: SectionItem[] = [];
  // Work before an explicit completion (a submission, attempt_completion) is finished business:
  // only what the person asked for after it can be pending.
  const completedAt = lastCompletion(timeline);
  const list = latestTaskList(timeline, ctx.memo);
  // A newer list in the messages kept after the span is the current one; they show it verbatim.
  if (list && list.pos < spanEnd && list.pos > completedAt) {
    const open = list.lines.filter((l) => !isClosedTask(l));
    const done = list.lines.filter((l) => l.startsWith('[x]')).length;
    const full = `Task list (latest, ${list.source}):\n${list.lines.map((l) => `- ${l}`).join('\n')}`;
    const short = `Task list (latest, ${list.source}; ${done} of ${list.lines.length} done, open items):\n${open.map((l) => `- ${l}`).join('\n')}`;
    if (open.length > 0) {
      items.push({
        key: 'tasklist',
        forms: open.length < list.lines.length ? [listItem(short), listItem(full)] : [listItem(full)],
        required: true,
        priority: 1.5,
        order: -1,
        sourceIds: [list.id],
      });
    }
  }
  if (ctx.previous && completedAt < 0) {
    // An earlier "latest request" line described that moment: this span says what is latest now.
    const prev = previousItems(ctx.previous, { required: false, priority: 0.2 }).filter((p) => !p.forms[0]!.startsWith('- Latest request'));
    items.push(...(list ? prev.filter((p) => !p.forms[0]!.startsWith('- Task list')) : prev));
  }
  // The person's explicit to-dos ("TODO: …", "next step …", "still needs …"); the assistant's
  // sentences are not tasks (it announces its own steps, which are not what was asked).
  const fresh: SectionItem[] = [];
  for (const sm of view.messages) {
    if (sm.summary || !sm.userAuthored || !sm.text || sm.pos <= completedAt) continue;
    // The person's own words: the to-dos of a pasted prompt are its rules, not theirs.
    const own = requestParts(ctx, sm).own;
    for (const { k, key, form } of fromMessage(ctx, sm, 'pending.sentences', () => todoSentences(own, c))) {
      fresh.push({
        key,
        forms: [form],
        required: false,
        priority: 0.6 * recency(view, sm.pos) + 0.3,
        order: sm.pos * 1000 + k,
        sourceIds: [sm.message.id],
      });
    }
  }
  const chosen = uniqueByKey(fresh)
    .sort((a, b) => b.priority - a.priority || a.order - b.order)
    .slice(0, c.PENDING_MAX_ITEMS);
  const latestFromUser = [...chosen].sort((a, b) => b.order - a.order).slice(0, REQUIRED_USER_PENDING_MAX);
  items.push(...chosen.map((it) => (latestFromUser.includes(it) ? { ...it, required: true } : it)));
  // The latest request of the whole conversation, when nothing after it shows it done: it is
  // still being worked on, whether it is in the span or kept verbatim after the summary (then
  // the section says so, rather than "(none)").
  const latest = latestRequestOf(ctx);
  if (latest && !latest.done) {
    const { sm: lastUser, kept } = latest;
    const words = requestWords(requestParts(ctx, lastUser), 240);
    items.push({
      key: 'last-request',
      forms: [
        listItem(kept ? `Latest request (kept verbatim after this summary), still being worked on: ${words}` : `Latest request, not reported done: ${words}`),
      ],
      required: false,
      priority: 1,
      order: 1_000_000_000,
      sourceIds: [lastUser.message.id],
    });
  }
  return items;
}
