// The two naive compactions the engine is compared with, on the same token budget and counted
// with the same counter:
//   truncation     keep the most recent whole messages that fit
//   first+recent   the first user message (cut to fit if it alone is too big), then the most
//                  recent whole messages that fit in what is left

import type { Conversation, Message } from '../../src/engine/conversation/model';
import { REPLY_PRIMING, type CachedTokenCounter } from '../../src/engine/tokens/messageCounter';

export type BaselineName = 'truncation' | 'first+recent';
export const BASELINES: readonly BaselineName[] = ['truncation', 'first+recent'];

/** The most recent whole messages of `messages` whose total stays within `room` tokens. */
function recentThatFit(messages: readonly Message[], room: number, counter: CachedTokenCounter): Message[] {
  const kept: Message[] = [];
  let used = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const t = counter.countMessage(messages[i]!);
    if (used + t > room) break;
    kept.push(messages[i]!);
    used += t;
  }
  return kept.reverse();
}

/** `m` with its text cut so the message takes at most `room` tokens (the cut shrinks by the
 *  overshoot's share until it fits; a handful of rounds at most). */
function cutToFit(m: Message, room: number, counter: CachedTokenCounter): Message | undefined {
  const text = m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
  let chars = text.length;
  for (let round = 0; round < 20 && chars > 0; round++) {
    const cut: Message = { ...m, content: [{ type: 'text', text: text.slice(0, chars) }], toolCalls: undefined };
    const t = counter.countMessage(cut);
    if (t <= room) return cut;
    chars = Math.floor((chars * room) / t) - 1;
  }
  return undefined;
}

export function baselineConversation(conv: Conversation, name: BaselineName, budget: number, counter: CachedTokenCounter): Conversation {
  // Reply priming is counted once per conversation (countMessages); leave room for it.
  const room = budget - REPLY_PRIMING;
  let messages: Message[];
  if (name === 'truncation') {
    messages = recentThatFit(conv.messages, room, counter);
  } else {
    const firstIndex = conv.messages.findIndex((m) => m.itemType === 'USER_MESSAGE');
    const first = firstIndex >= 0 ? conv.messages[firstIndex]! : undefined;
    const firstTokens = first ? counter.countMessage(first) : 0;
    const head = first ? (firstTokens <= room ? first : cutToFit(first, room, counter)) : undefined;
    const headTokens = head ? counter.countMessage(head) : 0;
    const rest = conv.messages.slice(firstIndex + 1);
    messages = [...(head ? [head] : []), ...recentThatFit(rest, room - headTokens, counter)];
  }
  return { ...conv, messages };
}
