// "Current Work": what was happening just before the compacted span ends — the last thing the
// assistant said (its visible answer, not its reasoning), the last commands with their outcome (clean, or the error they hit) and the
// files they touched (a failure the conversation later ran clean says so), and the latest
// request — pointing past the summary when it is kept verbatim there. Read from the last
// CURRENT_TRAILING_MESSAGES messages of the span. It describes the moment of compaction, so on
// re-compaction the earlier Current Work is replaced (kept only if the new span says nothing).

import { previousItems } from './previousItems';
import type { BuilderContext } from './sectionBuilder';
import type { SectionItem } from './sectionItems';
import { distinctForms } from './sectionItems';
import { describeCall, type SpanMessage, type SpanToolCall, type SpanView } from './spanView';
import { latestRequestOf } from './evidence';
import { requestParts } from './userMessages';
import { requestWords } from '../analyze/pasted';
import { isPromptAnswer } from '../analyze/keywords';
import { cutText, inlineCode, listItem, oneLine } from '../text/textCut';

/** Tool output lines that say nothing (wrappers, blank, exit codes). */
const NOISE_LINE = /^\s*(?:<\/?[a-z_]+>|\s*)\s*$/;
/** A tool's report of its own usage ("Tokens: 7.4k sent, 1.2k received.", "Cost: $0.03 …"). */
const USAGE_LINE = /^(?:Tokens: [\d.,]+k? sent\b|Cost: \$)/;

/** The output's lines that say something about the work: not wrappers or exit codes, not the
 *  tool's usage report, not a yes/no prompt with its answer nor the line it asks about
 *  ("CLAUDE.md" before "Add file to the chat? (Y)es/(N)o … [Yes]: y"). */
function informativeLines(text: string, max: number): string[] {
  const lines = text.split('\n', 41).map((l) => l.replace(/<\/?(?:returncode|output|stdout|stderr)>/g, '').trim());
  const out: string[] = [];
  for (let i = 0; i < lines.length && out.length < max; i++) {
    const t = lines[i]!;
    if (!t || NOISE_LINE.test(t) || /^\d+$/.test(t) || USAGE_LINE.test(t) || isPromptAnswer(t)) continue;
    if (i + 1 < lines.length && isPromptAnswer(lines[i + 1]!)) continue;
    out.push(t);
  }
  return out;
}

/** The last assistant message of the window that says something to the reader: its visible
 *  answer (reasoning written inline is not part of it), or — when the window ends on reasoning
 *  with no answer and no action — that reasoning, reported as such. Reasoning before a tool
 *  call is skipped: the call says what was done. */
function lastSaid(view: SpanView, from: number): { sm: SpanMessage; reasoningOnly: boolean } | undefined {
  for (let pos = view.messages.length - 1; pos >= from; pos--) {
    const sm = view.messages[pos]!;
    if (!sm.assistant) continue;
    if (sm.text.trim()) return { sm, reasoningOnly: false };
    if (sm.thinking.trim() && (sm.message.toolCalls?.length ?? 0) === 0) return { sm, reasoningOnly: true };
  }
  return undefined;
}

/** Whether the same command as `call` (its shell line, or its tool and arguments) ran without an
 *  error later in the timeline. */
function ranCleanLater(timeline: SpanView, call: SpanToolCall): boolean {
  const same = (o: SpanToolCall) =>
    call.command !== undefined ? o.command?.trim() === call.command.trim() : o.name === call.name && o.call.arguments === call.call.arguments;
  for (const o of timeline.calls) {
    if (o.pos <= call.pos || o.resultPos === undefined || !same(o)) continue;
    const r = timeline.messages[o.resultPos]!;
    if (!r.message.toolResult?.isError && (r.analysis?.refs.errors.length ?? 0) === 0) return true;
  }
  return false;
}

export function buildCurrentWork(ctx: BuilderContext): SectionItem[] {
  const { view, c } = ctx;
  const n = view.messages.length;
  const from = Math.max(0, n - c.CURRENT_TRAILING_MESSAGES);
  const items: SectionItem[] = [];
  const last = lastSaid(view, from);
  const lastAssistant = last?.sm;
  if (last) {
    const forms = last.reasoningOnly
      ? [listItem('Last assistant message: reasoning only, no answer yet')]
      : distinctForms([
          listItem(`Last assistant message: ${oneLine(last.sm.text, 200)}`),
          listItem(`Last assistant message: ${cutText(last.sm.text, c.CURRENT_ASSISTANT_MAX_CHARS, c).text}`),
        ]);
    items.push({ key: 'last-assistant', forms, required: true, priority: 1, order: 2, sourceIds: [last.sm.message.id] });
  }
  // A call whose output is only the tool's own bookkeeping (usage, prompts) says nothing of
  // the work: it is left out.
  const said = (call: SpanToolCall) => {
    const result = call.resultPos !== undefined ? view.messages[call.resultPos] : undefined;
    return (
      !result ||
      !result.text.trim() ||
      (result.analysis?.refs.errors.length ?? 0) > 0 ||
      result.message.toolResult?.isError === true ||
      informativeLines(result.text, 1).length > 0
    );
  };
  const recentCalls = view.calls.filter((call) => call.pos >= from && said(call)).slice(-c.CURRENT_MAX_CALLS);
  recentCalls.forEach((call, k) => {
    const result = call.resultPos !== undefined ? view.messages[call.resultPos] : undefined;
    const errors = result?.analysis?.refs.errors ?? [];
    let outcome = 'no result recorded';
    if (result) {
      const line = informativeLines(result.text, 1)[0];
      // A failed step the conversation later ran again cleanly is not where the work stands.
      const later = errors.length > 0 || result.message.toolResult?.isError ? (ranCleanLater(ctx.timeline, call) ? ' (ran clean later)' : '') : '';
      if (errors.length > 0) outcome = `failed: ${inlineCode(oneLine(errors[0]!, 160))}${later}`;
      else if (result.message.toolResult?.isError) outcome = `failed: ${oneLine(line ?? 'error', c.CURRENT_RESULT_MAX_CHARS)}${later}`;
      else outcome = line ? `ok: ${oneLine(line, c.CURRENT_RESULT_MAX_CHARS)}` : 'ok';
    }
    const files = call.files.slice(0, 3).map((f) => `${inlineCode(f.path)} ${f.action}`);
    const head = `${inlineCode(oneLine(describeCall(call), 160))} → ${outcome}`;
    items.push({
      key: `call:${call.call.id}`,
      forms: distinctForms([listItem(head), listItem(files.length > 0 ? `${head} (${files.join(', ')})` : head)]),
      required: false,
      priority: 0.5 + (0.4 * (k + 1)) / recentCalls.length,
      order: 10 + k,
      sourceIds: [view.messages[call.pos]!.message.id],
    });
  });
  // The latest request of the whole conversation (not a prompt answer or an "ok"; the person's
  // words, a paste by its gist): when it is kept verbatim after the summary, the work on it
  // continues there, and the section says so rather than name an older request.
  const latest = latestRequestOf(ctx);
  if (latest) {
    const { sm: lastUser, kept } = latest;
    items.push({
      key: 'working-on',
      forms: [
        listItem(
          kept
            ? `Working on the latest request, kept verbatim after this summary with the latest work: ${requestWords(requestParts(ctx, lastUser), 100)}`
            : `Working on the request: ${requestWords(requestParts(ctx, lastUser), 240)}`,
        ),
      ],
      required: !lastAssistant || kept,
      priority: 0.9,
      order: 1,
      sourceIds: [lastUser.message.id],
    });
  }
  if (items.length === 0 && ctx.previous) return previousItems(ctx.previous, { required: false, priority: 0.5 });
  return items;
}
