// The biggest items of a conversation, for the inspector: its tool results (files read apart) and
// tool calls, biggest first, each named by its tool and what it acted on. A tool result can be
// offloaded with one click where the conversation's compactions are kept here (a transcript, a
// chat); an agent session's compaction is written as a new session, which needs a summary.

import { extractToolCallPaths } from '../../engine/analyze/refs';
import type { Message, ToolCall } from '../../engine/conversation/model';
import { clip } from '../../engine/text/clip';
import type { BigItemView } from '../../shared/protocol';

/** How many items the inspector lists. */
export const BIGGEST_ITEMS = 10;
/** Characters of an item's label (the tool and what it acted on). */
const LABEL_CHARS = 120;
/** Tools that read a file: their results are "files read". */
const FILE_READERS = /^(?:read|read_?file|view|view_?file|open_?file|cat|readfile)$/i;

/** "Read src/loader.ts", "Bash npm test": the tool and its first path, else its main argument. */
export function callLabel(call: Pick<ToolCall, 'name' | 'arguments'>): string {
  const path = extractToolCallPaths(call as ToolCall, 1)[0];
  if (path) return clip(`${call.name} ${path}`, LABEL_CHARS);
  let main = '';
  try {
    const args = JSON.parse(call.arguments) as Record<string, unknown>;
    const v = ['command', 'pattern', 'query', 'url', 'description', 'prompt'].map((k) => args?.[k]).find((x) => typeof x === 'string' && x.trim());
    if (typeof v === 'string') main = v.replace(/\s+/g, ' ').trim();
  } catch {
    // Not JSON: the name alone.
  }
  return clip(main ? `${call.name} ${main}` : call.name, LABEL_CHARS);
}

/** The biggest tool results and calls of `messages`, counted as `tokensOf` says. */
export function biggestItems(messages: readonly Message[], tokensOf: (m: Message, i: number) => number, offloadable: boolean): BigItemView[] {
  const calls = new Map<string, ToolCall>();
  for (const m of messages) for (const c of m.toolCalls ?? []) calls.set(c.id, c);
  const items: BigItemView[] = [];
  messages.forEach((m, index) => {
    const tokens = tokensOf(m, index);
    if (m.toolResult) {
      const call = calls.get(m.toolResult.toolCallId);
      const name = call?.name ?? m.toolResult.toolName ?? 'tool';
      items.push({
        id: m.id,
        index,
        kind: FILE_READERS.test(name) ? 'fileRead' : 'toolResult',
        label: call ? callLabel(call) : name,
        tokens,
        offloadable: offloadable && !m.truncation,
      });
    } else if (m.toolCalls?.length) {
      items.push({ id: m.id, index, kind: 'toolCall', label: m.toolCalls.map(callLabel).join(', '), tokens, offloadable: false });
    }
  });
  return items.sort((a, b) => b.tokens - a.tokens || a.index - b.index).slice(0, BIGGEST_ITEMS);
}
