// A compaction runs inside the extension host, whose JavaScript heap every extension shares: one
// that outgrows it stops them all. So a conversation is compacted here only when what its
// compaction needs at its peak fits the room the heap has left; a larger one is refused with the
// command that compacts it in a process of its own (`ctxc compact`).
//
// The need is the peak the scale benchmark measures above an idle process (`npm run bench --
// scale`), rounded up: about 6.5 KB per message for 200,000 short messages (1.3 GB), 8.7× the text
// for a 50 MB aider history and 6× for a 51 MB Claude Code session — so 8 KB a message plus 10×
// the characters of its text, which is above each.

import { getHeapStatistics } from 'node:v8';
import type { Conversation } from '../engine/conversation/model';

const BYTES_PER_MESSAGE = 8 * 1024;
const BYTES_PER_TEXT_CHAR = 10;

/** The characters of a conversation's texts: every text and thinking part, tool-call arguments. */
function textChars(conversation: Pick<Conversation, 'messages'>): number {
  let chars = 0;
  for (const m of conversation.messages) {
    for (const p of m.content) if ('text' in p && typeof p.text === 'string') chars += p.text.length;
    for (const call of m.toolCalls ?? []) chars += call.arguments.length;
  }
  return chars;
}

/** Bytes a compaction of the conversation may need at its peak (an upper estimate). */
export function compactionMemoryNeed(conversation: Pick<Conversation, 'messages'>): number {
  return conversation.messages.length * BYTES_PER_MESSAGE + textChars(conversation) * BYTES_PER_TEXT_CHAR;
}

/** Bytes the extension host's heap can still grow by. */
export function heapRoom(): number {
  const h = getHeapStatistics();
  return Math.max(0, h.heap_size_limit - h.used_heap_size);
}
