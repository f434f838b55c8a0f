// Three chained compactions, as a session lives through them: the conversation is cut into three
// parts at a person's messages; the first part is compacted at the ratio, then the next part is
// appended to that result and it is compacted again, and so on. Each compaction gets the tokens a
// single compaction of everything so far would get (ratio × the original so far), so a chain is
// not starved. What the first result kept should still be in the third.

import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { compactConversation } from '../../src/engine/compactor';
import { exportMarkdown } from '../../src/engine/conversation/exporters/markdown';
import { isUserAuthored, type Conversation, type Message } from '../../src/engine/conversation/model';
import type { CachedTokenCounter } from '../../src/engine/tokens/messageCounter';

export const CHAIN_LENGTH = 3;

/** Where the conversation is cut: at the person's message nearest each k/CHAIN_LENGTH of it
 *  (undefined when it has fewer than CHAIN_LENGTH such messages). */
export function chainCuts(messages: readonly Message[]): number[] | undefined {
  const starts = messages.map((m, i) => (isUserAuthored(m) ? i : -1)).filter((i) => i > 0);
  if (starts.length < CHAIN_LENGTH - 1) return undefined;
  const cuts: number[] = [];
  for (let k = 1; k < CHAIN_LENGTH; k++) {
    const want = (messages.length * k) / CHAIN_LENGTH;
    const best = starts.filter((s) => s > (cuts[cuts.length - 1] ?? 0)).sort((a, b) => Math.abs(a - want) - Math.abs(b - want))[0];
    if (best === undefined) return undefined;
    cuts.push(best);
  }
  return cuts;
}

/** The Markdown of each of the chain's results, first to last. */
export async function chainOutputs(
  conv: Conversation,
  ratio: number,
  strategy: string,
  counter: CachedTokenCounter,
  now: string,
): Promise<string[] | undefined> {
  const cuts = chainCuts(conv.messages);
  if (!cuts) return undefined;
  const ends = [...cuts, conv.messages.length];
  const outputs: string[] = [];
  let current: Conversation = { ...conv, messages: [] };
  let from = 0;
  for (const end of ends) {
    current = { ...current, messages: [...current.messages, ...conv.messages.slice(from, end)] };
    const budget = Math.max(1, Math.round(ratio * counter.countMessages(conv.messages.slice(0, end))));
    const r = await compactConversation(current, { counter, archive: new MemoryArchive(), budget, strategy, now });
    outputs.push(exportMarkdown(r.conversation));
    current = r.conversation;
    from = end;
  }
  return outputs;
}
