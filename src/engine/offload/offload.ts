// Offload (seed 004 §5.3): tool outputs above a threshold (default 1,000 tokens) are written to
// the archive, each under its own content address, and replaced in the conversation by a
// one-line placeholder that names the entry; restoreOffloaded puts them back exactly. An output
// already shortened (Message.truncation) is left alone, so nothing is offloaded twice.

import type { ArchiveStore } from '../archive/archiveStore';
import { sha256Hex } from '../archive/sha256';
import type { Conversation, Message } from '../conversation/model';
import { STRATEGY_DEFAULTS } from '../strategies/constants';
import { maskedMessage } from '../strategies/truncation';
import type { CachedTokenCounter } from '../tokens/messageCounter';

export const OFFLOAD_KEY_PREFIX = 'offload-';

export interface OffloadOptions {
  counter: CachedTokenCounter;
  archive: ArchiveStore;
  /** Outputs above this many tokens are offloaded. */
  thresholdTokens?: number;
  /** The most recent outputs stay in place (the model is likely still reading them). */
  keepRecent?: number;
}

export interface OffloadResult {
  conversation: Conversation;
  /** Archive keys written, one per offloaded message, in order. */
  offloaded: { id: string; key: string; tokens: number }[];
  tokensBefore: number;
  tokensAfter: number;
}

export class OffloadError extends Error {
  override name = 'OffloadError';
}

/** The archive key of one message's exact JSON. */
export function offloadKey(m: Message): string {
  return OFFLOAD_KEY_PREFIX + sha256Hex(JSON.stringify(m));
}

export async function offloadToolOutputs(conv: Conversation, opts: OffloadOptions): Promise<OffloadResult> {
  const threshold = opts.thresholdTokens ?? STRATEGY_DEFAULTS.OFFLOAD_THRESHOLD_TOKENS;
  if (!(threshold > 0)) throw new OffloadError(`thresholdTokens: expected a positive number of tokens, got ${String(threshold)}`);
  const keepRecent = Math.max(0, opts.keepRecent ?? 0);
  const results = conv.messages.map((m, i) => (m.toolResult ? i : -1)).filter((i) => i >= 0);
  const eligible = new Set(results.slice(0, Math.max(0, results.length - keepRecent)));
  const offloaded: OffloadResult['offloaded'] = [];
  const messages: Message[] = [];
  for (let i = 0; i < conv.messages.length; i++) {
    const m = conv.messages[i]!;
    const tokens = eligible.has(i) && !m.truncation && !m.pinned ? opts.counter.countMessage(m) : 0;
    if (tokens <= threshold) {
      messages.push(m);
      continue;
    }
    const key = offloadKey(m);
    const exact = JSON.stringify(m);
    const existing = await opts.archive.get(key);
    if (existing === undefined) await opts.archive.put(key, exact);
    else if (existing !== exact) throw new OffloadError(`archive entry ${key} holds something else than message ${m.id}; expected its exact JSON`);
    messages.push(maskedMessage(m, tokens, m.toolResult?.toolName, 'offload', opts.counter, key));
    offloaded.push({ id: m.id, key, tokens });
  }
  const conversation = { ...conv, messages };
  return { conversation, offloaded, tokensBefore: opts.counter.countMessages(conv.messages), tokensAfter: opts.counter.countMessages(messages) };
}

/** Puts offloaded outputs back (every message whose truncation says 'offload'), exactly. */
export async function restoreOffloaded(conv: Conversation, archive: ArchiveStore, ids?: readonly string[]): Promise<Conversation> {
  const only = ids ? new Set(ids) : undefined;
  const messages: Message[] = [];
  for (const [i, m] of conv.messages.entries()) {
    const key = m.truncation?.by === 'offload' ? m.truncation.archiveRef : undefined;
    if (!key || (only && !only.has(m.id))) {
      messages.push(m);
      continue;
    }
    const data = await archive.get(key);
    if (data === undefined) throw new OffloadError(`messages[${i}] (id ${m.id}): archive entry ${key} is missing; expected the offloaded output`);
    let original: Message;
    try {
      original = JSON.parse(data) as Message;
    } catch {
      throw new OffloadError(`archive entry ${key}: not valid JSON; expected the offloaded message`);
    }
    if (original.id !== m.id || offloadKey(original) !== key) throw new OffloadError(`archive entry ${key}: does not match message ${m.id} (tampered?); expected its exact JSON`);
    messages.push(original);
  }
  return { ...conv, messages };
}
