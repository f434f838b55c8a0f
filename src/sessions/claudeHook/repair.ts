// The two repairs the hook makes after a Claude Code compaction.
//
//   unchecked   at SessionStart, when the summary is not in the file yet (every tested Claude Code
//               writes the boundary and the summary after its SessionStart hooks, and PostCompact,
//               which is given the summary, runs after SessionStart and cannot reach the model). After
//               an automatic compaction the next request follows at once, so the must-keep facts go
//               back now, most important first within the cap, without knowing which the summary kept.
//   checked     against the summary once it is written (at the next prompt, or at SessionStart for
//               a CLI that writes it first): the facts neither the summary, nor the messages kept
//               verbatim, nor an unchecked restore already hold — within what the cap has left.

import { createTokenCounter } from '../../engine/tokens/messageCounter';
import { planRestore, RESTORE_LEAD_UNCHECKED, type FactRestore, type RestoreItem } from '../../engine/validate/restoreFacts';
import { factPresent, normalizeForMatch } from '../../engine/validate/factMatch';
import { compactionAfter, contextAfter, keptLines, type CompactionRecord } from './compactionInTranscript';
import { readEraFacts, withCarried } from './eraFacts';
import type { EraFacts, PendingRepair, RepairDetails } from './hookState';
import type { TranscriptFile } from './transcriptFile';

export const fmt = (n: number) => n.toLocaleString('en-US');

/** The facts put back before the summary could be read: the era's and the carried ones that the
 *  prompt waiting for an answer (kept verbatim after the summary) does not hold, within `maxTokens`. */
export async function uncheckedRestore(era: EraFacts, carried: readonly RestoreItem[] | undefined, maxTokens: number): Promise<FactRestore> {
  const counter = await createTokenCounter(era.model);
  return planRestore(withCarried(era.items, carried), era.waiting ?? '', { maxTokens, counter, lead: RESTORE_LEAD_UNCHECKED });
}

export interface CheckedRepair {
  compaction: CompactionRecord;
  era: EraFacts;
  /** The facts neither the summary nor the kept messages hold: what the summary lost. */
  lost: RestoreItem[];
  plan: FactRestore;
}

export type CheckedRead = { ok: true; repair: CheckedRepair } | { ok: false; reason: string };

/**
 * The repair of the compaction written after `pending.afterByte`, against its summary: the era's
 * facts (from `cached` when it holds that range) and the carried ones that neither the summary,
 * the messages kept verbatim nor `pending.unchecked` hold, within what `maxTokens` has left.
 */
export async function checkedRepair(
  file: TranscriptFile,
  pending: Pick<PendingRepair, 'afterByte' | 'unchecked'> & { eraEnd?: number },
  cached: EraFacts | undefined,
  carried: readonly RestoreItem[] | undefined,
  maxTokens: number,
): Promise<CheckedRead> {
  const found = await compactionAfter(file, pending.afterByte);
  if (!found.ok) return found;
  const c = found.compaction;
  const era = await readEraFacts(file, pending.eraEnd ?? pending.afterByte, cached);
  if (!era.ok) return era;
  const kept = await keptLines(file, c, era.facts.start);
  const after = contextAfter(c, kept, file.path);
  const items = withCarried(era.facts.items, carried);
  const hay = normalizeForMatch(after);
  const lost = items.filter((i) => !factPresent(i.fact, hay));
  const counter = await createTokenCounter(era.facts.model);
  const left = maxTokens - (pending.unchecked?.tokens ?? 0);
  const plan = planRestore(items, `${after}\n\n${pending.unchecked?.text ?? ''}`, { maxTokens: Math.max(0, left), counter });
  return { ok: true, repair: { compaction: c, era: era.facts, lost, plan } };
}

/** The repair's record for claude-code/<session>.repair.json. */
export function repairDetails(session: string, at: string, r: CheckedRepair | undefined, unchecked: FactRestore | undefined): RepairDetails {
  const plan = r?.plan;
  return {
    session,
    at,
    boundary: r?.compaction.boundary ?? '',
    ...(r?.compaction.trigger ? { trigger: r.compaction.trigger } : {}),
    ...(r?.compaction.preTokens !== undefined ? { preTokens: r.compaction.preTokens } : {}),
    facts: (plan ?? unchecked)?.facts.length ?? 0,
    missing: r?.lost.length ?? 0,
    tokens: (plan?.tokens ?? 0) + (unchecked?.tokens ?? 0),
    lines: (plan?.restored ?? []).map((i) => ({ category: i.category, line: i.line })),
    covered: (plan?.covered ?? []).map((i) => i.fact.value),
    omitted: (plan?.omitted ?? []).map((i) => i.line),
    text: plan?.text ?? '',
    ...(unchecked
      ? { unchecked: { lines: unchecked.restored.map((i) => ({ category: i.category, line: i.line })), tokens: unchecked.tokens, text: unchecked.text } }
      : {}),
  };
}
