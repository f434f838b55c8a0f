// What the conversation shows about how things ended, read on the timeline (the span and the
// messages kept after it): the summary says "fixed" or "done" only when one of these shows it.
//   completion     an explicit completion after a position: a submission (mini-swe-agent's
//                  COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT, SWE-agent's submit), attempt_completion,
//                  "task complete" (the analysis' task_complete key event)
//   answered       in a chat without tools, an assistant reply after a question
//   final report   the conversation ends with the assistant reporting finished work ("I've
//                  created …", "… has been updated") after working on the request with tools
//   confirmation   the person's next message says it works ("that fixed it", "works now")

import { reportsDone } from '../analyze/narration';
import { compileKeywords } from '../text/keywordMatcher';
import type { BuilderContext } from './sectionBuilder';
import type { SpanMessage, SpanView } from './spanView';

/** Position of the first explicit completion after `pos`, or -1. */
export function completionAfter(timeline: SpanView, pos: number): number {
  for (let p = pos + 1; p < timeline.messages.length; p++) {
    if (timeline.messages[p]!.analysis?.keyEvents.includes('task_complete')) return p;
  }
  return -1;
}

/** Position of the last explicit completion in the timeline, or -1. */
export function lastCompletion(timeline: SpanView): number {
  for (let p = timeline.messages.length - 1; p >= 0; p--) {
    if (timeline.messages[p]!.analysis?.keyEvents.includes('task_complete')) return p;
  }
  return -1;
}

/** A slash command with nothing after it (Claude Code's markup or as typed): `/export`, `/clear`
 *  ask the agent for nothing, they run in the CLI; nor does the "(no content)" of `#` memory input. */
const BARE_COMMAND =
  /^\s*(?:\/[\w:-]+|\(no content\)|(?:<command-(?:name|message)>[^<]*<\/command-(?:name|message)>\s*)+(?:<command-args>\s*<\/command-args>)?)\s*$/;

/** A message a person wrote that asks for something: not an earlier summary, not an
 *  acknowledgement ("ok", "thanks"), not a bare slash command, not empty. */
export function isRequest(sm: SpanMessage): boolean {
  return sm.userAuthored && !sm.summary && sm.text.trim() !== '' && !sm.analysis?.isAcknowledgement && !BARE_COMMAND.test(sm.text);
}

/** Whether the request at `pos` is shown done: an explicit completion after it; in a chat with
 *  no tool calls, an assistant reply after it; or the conversation ends with the assistant
 *  reporting finished work after tool work on it. */
export function requestShownDone(timeline: SpanView, pos: number): boolean {
  if (completionAfter(timeline, pos) >= 0) return true;
  const later = timeline.messages.slice(pos + 1);
  if (timeline.calls.length === 0) return later.some((m) => m.assistant && m.text.trim() !== '');
  const last = timeline.messages[timeline.messages.length - 1];
  if (!last || last.pos <= pos || !last.assistant || (last.message.toolCalls?.length ?? 0) > 0) return false;
  const worked = timeline.calls.some((c) => c.pos > pos);
  return worked && reportsDone(last.text);
}

/** The latest request of the conversation as the builders see it: the last request of the
 *  timeline, or the one the result keeps verbatim between summarized messages when that is
 *  later. `kept`: the result keeps it verbatim (after the summary); `done`: something after it
 *  shows it done (requestShownDone). */
export function latestRequestOf(ctx: Pick<BuilderContext, 'timeline' | 'view' | 'keptRequest'>): { sm: SpanMessage; kept: boolean; done: boolean } | undefined {
  const { timeline, keptRequest } = ctx;
  const last = [...timeline.messages].reverse().find(isRequest);
  if (keptRequest && isRequest(keptRequest.sm) && (!last || last.pos < keptRequest.at))
    return { sm: keptRequest.sm, kept: true, done: requestShownDone(timeline, keptRequest.at - 1) };
  if (!last) return undefined;
  return { sm: last, kept: last.pos >= ctx.view.messages.length, done: requestShownDone(timeline, last.pos) };
}

const CONFIRM = compileKeywords({
  en: [
    'works now',
    'it works',
    'that works',
    'working now',
    'that fixed it',
    'fixed it',
    'that did it',
    'that did the trick',
    'is fixed',
    'are fixed',
    'problem solved',
    'solved it',
    'all good now',
    'passes now',
    'passing now',
    'no more error',
    'no more errors',
    'error is gone',
    'error went away',
  ],
  zh: ['好了', '可以了', '解决了', '修好了', '没问题了', '正常了'],
});
const NEGATION = compileKeywords({
  en: ['not', "doesn't", "don't", "isn't", "aren't", "didn't", "won't", 'still', 'no longer', 'never', 'but'],
  zh: ['不', '没有', '还是', '仍然'],
});

/** A message a person wrote with something in it (the person's next message is read for a
 *  confirmation: confirmsItWorks). */
export function isPersonsMessage(m: SpanMessage): boolean {
  return m.userAuthored && !m.summary && m.text.trim() !== '';
}

/** The message says the problem is gone (and does not say it is not). */
export function confirmsItWorks(m: SpanMessage): boolean {
  const lower = m.text.slice(0, 2000).toLowerCase();
  return CONFIRM.has(lower) && !NEGATION.has(lower);
}
