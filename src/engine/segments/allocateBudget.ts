// Dividing the summary's token budget among the eight sections "by importance and need": every
// section first gets its floor (what its required items need in their shortest form — all user
// messages, every file acted on, every error), then the rest is poured in proportion to each
// section's weight × importance, never beyond what a section can use (its need); what a full
// section cannot use flows to the others (water-filling). If the floors alone exceed the
// budget, each section gets its floor: nothing required is dropped, and the caller reports it.

import type { SectionName } from '../sections';

export interface SectionDemand {
  name: SectionName;
  floor: number;
  need: number;
  weight: number;
}

export interface Allocation {
  budgets: Record<SectionName, number>;
  /** Sum of the floors: above the budget means the summary cannot fit. */
  floor: number;
  need: number;
}

export function allocateSectionBudgets(demands: readonly SectionDemand[], total: number): Allocation {
  const budgets = {} as Record<SectionName, number>;
  let floor = 0;
  let need = 0;
  for (const d of demands) {
    budgets[d.name] = d.floor;
    floor += d.floor;
    need += Math.max(d.need, d.floor);
  }
  let free = total - floor;
  let active = demands.filter((d) => d.need > d.floor && d.weight > 0);
  // Each round either fills a section or spends everything: at most demands.length rounds.
  while (free >= 1 && active.length > 0) {
    const weightSum = active.reduce((s, d) => s + d.weight, 0);
    let spent = 0;
    const still: SectionDemand[] = [];
    for (const d of active) {
      const room = d.need - budgets[d.name];
      const share = (free * d.weight) / weightSum;
      const give = Math.min(room, share);
      budgets[d.name] += give;
      spent += give;
      if (give < room) still.push(d);
    }
    free -= spent;
    if (still.length === active.length) break; // nobody filled up: everything was spent
    active = still;
  }
  for (const d of demands) budgets[d.name] = Math.floor(budgets[d.name]);
  return { budgets, floor, need };
}
