// With an explicit target (a budget, a ratio, the window), a level that cannot meet it hands
// over to the next heavier one by itself — normal → heavy → emergency — rather than return a
// result several times the target. Each hand-over is reported as a degradation step. Without an
// explicit target the level asked for is kept (the default target is a suggestion).

import type { DegradationStep } from '../result';
import { formatCount } from '../text/formatNumber';
import { heavierLevel, type CompactionLevel } from './levelStrategy';

/** A result more than this share over its target is not "within the target": the next level
 *  is tried. The emergency level always fits within it (segments/degrade.ts, strategies/tail.ts). */
export const ESCALATION_TOLERANCE = 0.05;

export interface Escalated<T> {
  value: T;
  level: CompactionLevel;
  steps: DegradationStep[];
}

/** Runs `run` at `level`, then at each heavier level while the result is over the target; the
 *  first result within it wins, else the smallest. */
export function escalateLevels<T>(
  level: CompactionLevel,
  explicit: boolean,
  target: number,
  run: (level: CompactionLevel) => T,
  sizeOf: (value: T) => number,
): Escalated<T> {
  let current = level;
  let value = run(current);
  if (!explicit) return { value, level: current, steps: [] };
  const steps: DegradationStep[] = [];
  let best: Escalated<T> = { value, level: current, steps: [] };
  for (;;) {
    const size = sizeOf(value);
    if (size <= target * (1 + ESCALATION_TOLERANCE)) return { value, level: current, steps };
    const next = heavierLevel(current);
    if (!next) return best;
    steps.push({
      step: 'heavier-level',
      detail: `the ${current} level gave ${formatCount(size)} tokens, over the target of ${formatCount(target)}: compacted again at the ${next} level`,
      level: current,
      tokensAfter: size,
    });
    current = next;
    value = run(current);
    if (sizeOf(value) < sizeOf(best.value)) best = { value, level: current, steps: [...steps] };
  }
}
