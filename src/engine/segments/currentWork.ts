// "Current Work": what was happening just before the compacted span ends — the last thing the
// assistant said, the last commands with their outcome (clean, or the error they hit) and the
// files they touched, and the request being worked on. Read from the last
// CURRENT_TRAILING_MESSAGES messages of the span. It describes the moment of compaction, so on
// re-compaction the earlier Current Work is replaced (kept only if the new span says nothing).

import { previousItems } from './mergeSections';
import type { BuilderContext } from './sectionBuilder';
import type { SectionItem } from './sectionItems';
import { distinctForms } from './sectionItems';
import { describeCall } from './spanView';
import { cutText, inlineCode, listItem, oneLine } from './textCut';

/** Tool output lines that say nothing (wrappers, blank, exit codes). */
const NOISE_LINE = /^\s*(?:<\/?[a-z_]+>|\s*)\s*$/;

function firstOutputLine(text: string): string | undefined {
  for (const line of text.split('\n').slice(0, 40)) {
    const t = line.replace(/<\/?(?:returncode|output|stdout|stderr)>/g, '').trim();
    if (t && !NOISE_LINE.test(t) && !/^\d+$/.test(t)) return t;
  }
  return undefined;
}

export function buildCurrentWork(ctx: BuilderContext): SectionItem[] {
  const { view, c } = ctx;
  const n = view.messages.length;
  const from = Math.max(0, n - c.CURRENT_TRAILING_MESSAGES);
  const items: SectionItem[] = [];
  const lastAssistant = [...view.messages].reverse().find((m) => m.pos >= from && m.assistant && m.text.trim());
  if (lastAssistant) {
    items.push({
      key: 'last-assistant',
      forms: distinctForms([
        listItem(`Last assistant message: ${oneLine(lastAssistant.text, 200)}`),
        listItem(`Last assistant message: ${cutText(lastAssistant.text, c.CURRENT_ASSISTANT_MAX_CHARS, c).text}`),
      ]),
      required: true,
      priority: 1,
      order: 2,
      sourceIds: [lastAssistant.message.id],
    });
  }
  const recentCalls = view.calls.filter((call) => call.pos >= from).slice(-c.CURRENT_MAX_CALLS);
  recentCalls.forEach((call, k) => {
    const result = call.resultPos !== undefined ? view.messages[call.resultPos] : undefined;
    const errors = result?.analysis?.refs.errors ?? [];
    let outcome = 'no result recorded';
    if (result) {
      if (errors.length > 0) outcome = `failed: ${inlineCode(oneLine(errors[0]!, 160))}`;
      else if (result.message.toolResult?.isError) outcome = `failed: ${oneLine(firstOutputLine(result.text) ?? 'error', c.CURRENT_RESULT_MAX_CHARS)}`;
      else {
        const line = firstOutputLine(result.text);
        outcome = line ? `ok: ${oneLine(line, c.CURRENT_RESULT_MAX_CHARS)}` : 'ok';
      }
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
  const lastUser = [...view.messages].reverse().find((m) => m.userAuthored && !m.summary && m.text.trim());
  if (lastUser) {
    items.push({
      key: 'working-on',
      forms: [listItem(`Working on the request: ${oneLine(lastUser.text, 240)}`)],
      required: !lastAssistant,
      priority: 0.9,
      order: 1,
      sourceIds: [lastUser.message.id],
    });
  }
  if (items.length === 0 && ctx.previous) return previousItems(ctx.previous, { required: false, priority: 0.5 });
  return items;
}
