// Still over budget after a compaction → compact again, harder (seed 003 case 3). With an
// explicit target (budget or ratio) compactConversation already does so itself
// (strategies/escalation.ts) and reports the levels it left in result.degradation, which become
// steps here; for the default target this loop retries from the original conversation (so undo
// stays exact and no summary is made of a summary) with the next heavier level of the 'levels'
// strategy, until the target is met or emergency has run. Events mark every phase.

import { compactConversation, type CompactOptions, type CompactionLevel } from '../compactor';
import type { CompactionEventBus } from '../events';
import type { Conversation } from '../conversation/model';
import type { CompactionResult } from '../result';
import { ESCALATION_TOLERANCE } from '../strategies/escalation';
import { heavierLevel } from '../strategies/levelStrategy';

/** The strategy heavier levels run with. */
export const ESCALATION_STRATEGY = 'levels';

export interface EscalationStep {
  strategy: string;
  level: string;
  tokensAfter: number;
  target: number;
  met: boolean;
}

export interface EscalatedResult {
  result: CompactionResult;
  steps: EscalationStep[];
}

export async function compactWithEscalation(conv: Conversation, opts: CompactOptions & { events?: CompactionEventBus }): Promise<EscalatedResult> {
  const steps: EscalationStep[] = [];
  let strategy = opts.strategy;
  let level: CompactionLevel | undefined = opts.level;
  for (;;) {
    const result = await compactConversation(conv, { ...opts, ...(strategy ? { strategy } : {}), ...(level ? { level } : {}) });
    const target = result.target ?? Number.POSITIVE_INFINITY;
    for (const d of result.degradation) {
      if (d.step === 'heavier-level' && d.level !== undefined && d.tokensAfter !== undefined) steps.push({ strategy: result.strategy, level: d.level, tokensAfter: d.tokensAfter, target, met: false });
    }
    const met = result.tokensAfter <= target * (1 + ESCALATION_TOLERANCE);
    steps.push({ strategy: result.strategy, level: result.level, tokensAfter: result.tokensAfter, target, met });
    const next = heavierLevel(result.level);
    if (met || !next) {
      if (steps.length > 1) result.warnings.push(`escalated: ${steps.map((s) => `${s.strategy}/${s.level} → ${s.tokensAfter}`).join(', ')} (target ${target})`);
      return { result, steps };
    }
    opts.events?.emit({ phase: 'compaction_failed', tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter, strategy: result.strategy, level: result.level, detail: `over the target of ${target}; again at level ${next}` });
    strategy = ESCALATION_STRATEGY;
    level = next;
  }
}
