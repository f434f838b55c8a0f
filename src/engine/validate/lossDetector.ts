// Information-loss detector: which facts of the compacted span survive in the
// WHOLE compacted conversation (summary and kept messages), per kind, and an overall retention
// weighted — keywords 0.25, technical terms 0.30, numbers 0.15,
// structural integrity 0.15 (here: user messages, files, errors, open tasks) and semantic
// coherence 0.15 (the readability score). The loss level's thresholds are stricter
// for important content (importance > 0.8: 0.8 / 0.6 / 0.4, else 0.7 / 0.5 / 0.3).
//
// "Survives": the fact is present in the result by the one rule of factMatch.ts (the rule
// merge-back uses too). Every fact that does not is listed in `missing` with the message it
// came from.

import type { Fact, FactKind, LossLevel, LossReport } from '../result';
import type { ValidateConstants } from './constants';
import { normalizeForMatch, presentFacts } from './factMatch';
import type { TokenizedText } from './factTokens';
import type { ReadabilityReport } from './readability';

export const FACT_KINDS: readonly FactKind[] = ['userMessage', 'filePath', 'errorSignature', 'technicalTerm', 'keyword', 'number', 'pendingTask'];
const STRUCTURE_KINDS: readonly FactKind[] = ['userMessage', 'filePath', 'errorSignature', 'pendingTask'];

export function lossLevel(retention: number, importance: number, c: ValidateConstants): LossLevel {
  const high = importance > c.HIGH_IMPORTANCE;
  const [minimal, acceptable, moderate] = high
    ? [c.HIGH_MINIMAL, c.HIGH_ACCEPTABLE, c.HIGH_MODERATE]
    : [c.NORMAL_MINIMAL, c.NORMAL_ACCEPTABLE, c.NORMAL_MODERATE];
  if (retention >= minimal) return 'minimal';
  if (retention >= acceptable) return 'acceptable';
  if (retention >= moderate) return 'moderate';
  return 'severe';
}

function r3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export interface LossInput {
  facts: readonly Fact[];
  /** The whole compacted conversation as text (summary and kept messages)… */
  resultText: string;
  /** …or already normalized (normalizeForMatch), when the caller has it… */
  normalizedText?: string;
  /** …and the normalized texts it joins, tokenized (presentFacts). */
  normalizedParts?: readonly TokenizedText[];
  /** Importance of the compacted span (0..1): selects the thresholds. */
  importance: number;
  readability: ReadabilityReport;
  mergedBack?: readonly Fact[];
}

export function detectLoss(input: LossInput, c: ValidateConstants): LossReport {
  const target = input.normalizedText ?? normalizeForMatch(input.resultText);
  const total = new Map<FactKind, number>();
  const kept = new Map<FactKind, number>();
  const missing: Fact[] = [];
  const present = presentFacts(input.facts, target, input.normalizedText !== undefined ? input.normalizedParts : undefined);
  input.facts.forEach((f, i) => {
    total.set(f.kind, (total.get(f.kind) ?? 0) + 1);
    if (present[i]) kept.set(f.kind, (kept.get(f.kind) ?? 0) + 1);
    else missing.push(f);
  });
  const retentionByKind = {} as Record<FactKind, number>;
  for (const k of FACT_KINDS) {
    const t = total.get(k) ?? 0;
    retentionByKind[k] = t === 0 ? 1 : r3((kept.get(k) ?? 0) / t);
  }
  let structKept = 0;
  let structTotal = 0;
  for (const k of STRUCTURE_KINDS) {
    structKept += kept.get(k) ?? 0;
    structTotal += total.get(k) ?? 0;
  }
  const structure = structTotal === 0 ? 1 : structKept / structTotal;
  const overall = r3(
    retentionByKind.keyword * c.RETENTION_WEIGHT_KEYWORD +
      retentionByKind.technicalTerm * c.RETENTION_WEIGHT_TECHNICAL +
      retentionByKind.number * c.RETENTION_WEIGHT_NUMBER +
      structure * c.RETENTION_WEIGHT_STRUCTURE +
      input.readability.score * c.RETENTION_WEIGHT_COHERENCE,
  );
  const level = lossLevel(overall, input.importance, c);
  return {
    retentionByKind,
    overallRetention: overall,
    lossLevel: level,
    acceptable: level === 'minimal' || level === 'acceptable',
    missing,
    mergedBack: [...(input.mergedBack ?? [])],
    readability: { ok: input.readability.ok, issues: input.readability.issues },
  };
}
