// Tool calls and tool results that say the same thing are read once per analysis: an agent's
// session repeats many word for word ("File created successfully", the same `git status`), and
// for short messages reading costs far more than the text (a score of expressions, each started
// per message). What people and the model write seldom repeats, and is not keyed. The key holds
// everything a reading (analyzeConversation) reads of a message and nothing it does not: its id,
// time, source and tool-call ids differ between repeats and are not read.

import type { Message } from '../conversation/model';
import { hash64 } from '../text/hash';

/** Longest key made: a long text seldom repeats word for word, and its key would cost a copy. */
export const READING_KEY_MAX_CHARS = 2048;

/**
 * For a tool call or a tool result, what the reading of `m` reads of it — role, item type, pin,
 * whether it is a tool result and an error, its text and thinking parts (the other parts by
 * their type: no reading looks into them), its tool calls' names and arguments — as one string,
 * each piece with its length so that no two messages run together alike; undefined for other
 * messages and past READING_KEY_MAX_CHARS.
 */
export function readingKey(m: Message): string | undefined {
  if (m.toolResult === undefined && !m.toolCalls?.length) return undefined;
  let size = 0;
  for (const p of m.content) if (p.type === 'text' || p.type === 'thinking') size += p.text.length;
  for (const call of m.toolCalls ?? []) size += call.name.length + call.arguments.length;
  if (size > READING_KEY_MAX_CHARS) return undefined;
  const result = m.toolResult === undefined ? 0 : m.toolResult.isError ? 2 : 1;
  let key = `${m.role}|${m.itemType}|${m.pinned === true ? 1 : 0}|${result}|${m.content.length}|${m.toolCalls?.length ?? 0}`;
  for (const p of m.content) key += p.type === 'text' || p.type === 'thinking' ? `|${p.type}:${p.text.length}:${p.text}` : `|${p.type}`;
  for (const call of m.toolCalls ?? []) key += `|${call.name.length}:${call.name}${call.arguments.length}:${call.arguments}`;
  return key;
}

/** A key's hash as a number (52 of hash64's bits): a small entry in a map, where the key itself
 *  would be a copy of the message's text. Equal keys have equal hashes, not the other way round. */
export function readingKeyHash(key: string): number {
  return Number.parseInt(hash64(key).slice(0, 13), 16);
}
