// The compaction strategies, in the order `ctxc strategies` lists them: adaptive (the default),
// summary, window, importance, key-events, incremental, levels, selective, masking, dedupe,
// drop-only. The seam they plug into is strategy.ts.

import { adaptiveStrategy } from './adaptiveStrategy';
import { dedupeStrategy } from './dedupeStrategy';
import { importanceStrategy } from './importanceStrategy';
import { incrementalStrategy } from './incrementalStrategy';
import { keyEventsStrategy } from './keyEventsStrategy';
import { levelStrategy } from './levelStrategy';
import { maskingStrategy } from './maskingStrategy';
import { dropOnlyStrategy, selectiveStrategy } from './selectiveStrategy';
import { summaryStrategy } from './summaryStrategy';
import { windowStrategy } from './windowStrategy';
import type { Strategy } from './strategy';

export const STRATEGIES: Strategy[] = [
  adaptiveStrategy,
  summaryStrategy,
  windowStrategy,
  importanceStrategy,
  keyEventsStrategy,
  incrementalStrategy,
  levelStrategy,
  selectiveStrategy,
  maskingStrategy,
  dedupeStrategy,
  dropOnlyStrategy,
];

export class UnknownStrategyError extends Error {}

export function getStrategy(name: string): Strategy {
  const s = STRATEGIES.find((x) => x.name === name);
  if (!s) throw new UnknownStrategyError(`unknown strategy '${name}'; expected one of: ${STRATEGIES.map((x) => x.name).join(', ')}`);
  return s;
}

export function listStrategies(): { name: string; description: string; keeps: string }[] {
  return STRATEGIES.map((s) => ({ name: s.name, description: s.description, keeps: s.keeps ?? '' }));
}
