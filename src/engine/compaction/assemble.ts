// Assembly: the result's messages in order. Header items from the compacted region are hoisted
// to the top, the summary goes where the strategy put it, then everything present follows in
// original order. If that would open the conversation with an assistant turn, the summary moves
// up to follow the header (the chat APIs want a user turn first).

import type { Message } from '../conversation/model';
import type { MessageDecision } from '../strategies/strategy';
import { PRESENT, spanOf } from './decisions';

export function assemble(
  messages: readonly Message[],
  decisions: readonly MessageDecision[],
  header: ReadonlySet<number>,
  summary: Message | undefined,
  summaryBefore: number | undefined,
): Message[] {
  const summarized = spanOf(decisions);
  const last = summarized.length > 0 ? summarized[summarized.length - 1]! : -1;
  const hoisted: Message[] = [];
  const rest: Message[] = [];
  const at = summary ? (summaryBefore ?? summarized[0] ?? messages.length) : -1;
  let placed = false;
  for (let i = 0; i < messages.length; i++) {
    const d = decisions[i]!;
    if (i === at && summary) {
      rest.push(summary);
      placed = true;
    }
    if (!PRESENT.has(d.decision)) continue;
    const m = d.replacement ?? messages[i]!;
    if (header.has(i) && i < last) hoisted.push(m);
    else rest.push(m);
  }
  if (summary && !placed) rest.push(summary);
  if (summary) {
    const firstOther = rest.findIndex((m) => m.role !== 'system');
    if (firstOther >= 0 && rest[firstOther] !== summary && rest[firstOther]!.role !== 'user') {
      rest.splice(rest.indexOf(summary), 1);
      rest.unshift(summary);
    }
  }
  return [...hoisted, ...rest];
}
