// One compaction check of an agent loop, with the whole policy: the trigger (shouldCompact), the
// cooldown after a failure (only the drop rules run meanwhile), and escalation to heavier levels
// when a compaction is still over its target. A compaction that throws, or does not make the
// conversation smaller, is a failure: it starts (or lengthens) the cooldown. Pure apart from the
// compaction itself; the caller keeps the state and passes the turn number as its clock.

import type { CompactOptions } from '../compactor';
import { compactConversation } from '../compactor';
import type { Conversation } from '../conversation/model';
import type { CompactionEventBus } from '../events';
import type { CompactionResult } from '../result';
import { afterFailure, afterSuccess, planUnderCooldown, type CooldownState } from './cooldown';
import { compactWithEscalation } from './escalate';
import { shouldCompact, type TriggerDecision, type TriggerOptions } from './shouldCompact';

export interface AutoCompactInput {
  conversation: Conversation;
  trigger: TriggerOptions;
  state: CooldownState;
  /** The loop's turn number (the cooldown's clock). */
  turn: number;
  /** User turns so far, for the turn-count trigger. */
  turns?: number;
  compact: CompactOptions;
  events?: CompactionEventBus;
}

export interface AutoCompactOutcome {
  action: 'none' | 'compacted' | 'conservative' | 'failed';
  trigger: TriggerDecision;
  /** The conversation to continue with (the input when nothing changed). */
  conversation: Conversation;
  result?: CompactionResult;
  state: CooldownState;
  detail: string;
}

export async function autoCompact(input: AutoCompactInput): Promise<AutoCompactOutcome> {
  const { conversation, state, turn, events } = input;
  const tokens = input.compact.counter.countMessages(conversation.messages);
  const trigger = shouldCompact(tokens, input.trigger, input.turns ?? 0);
  if (!trigger.compact) return { action: 'none', trigger, conversation, state, detail: trigger.detail };
  const plan = planUnderCooldown(state, turn);
  if (plan.mode === 'conservative') {
    events?.emit({ phase: 'compaction_skipped', tokensBefore: tokens, tokensAfter: tokens, strategy: plan.strategy, detail: plan.reason });
    const result = await compactConversation(conversation, { ...input.compact, strategy: plan.strategy, ...(events ? { events } : {}) });
    const changed = result.tokensAfter < result.tokensBefore;
    if (changed) events?.emit({ phase: 'conversation_replaced', tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter, strategy: plan.strategy });
    return { action: 'conservative', trigger, conversation: changed ? result.conversation : conversation, result, state, detail: plan.reason };
  }
  try {
    const { result } = await compactWithEscalation(conversation, { ...input.compact, ...(events ? { events } : {}) });
    if (result.tokensAfter >= result.tokensBefore) throw new Error(`compaction did not make the conversation smaller (${result.tokensBefore} → ${result.tokensAfter} tokens)`);
    events?.emit({ phase: 'conversation_replaced', tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter, strategy: result.strategy, level: result.level });
    return { action: 'compacted', trigger, conversation: result.conversation, result, state: afterSuccess(), detail: trigger.detail };
  } catch (e) {
    if (e instanceof Error && e.name === 'AbortError') throw e;
    const reason = e instanceof Error ? e.message : String(e);
    const next = afterFailure(state, turn);
    events?.emit({ phase: 'compaction_failed', tokensBefore: tokens, tokensAfter: tokens, detail: `${reason}; cooling down until turn ${next.until}` });
    return { action: 'failed', trigger, conversation, state: next, detail: reason };
  }
}
