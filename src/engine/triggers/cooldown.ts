// The cooldown after a failed compaction (seed 004 §7.3): for a while the full compaction is
// not retried — the failure is likely to repeat — but the conservative drop rules still run,
// so tokens do not pile up while waiting. Pure: the caller passes the clock.

export const COOLDOWN_DEFAULTS = {
  /** Turns (compaction checks) to wait after a failure before the full compaction again. */
  cooldownTurns: 3,
  /** Each further consecutive failure doubles the wait, up to this many turns. */
  maxCooldownTurns: 24,
} as const;

/** The strategy run while cooling down (strategies/selectiveStrategy.ts). */
export const COOLDOWN_STRATEGY = 'drop-only';

export interface CooldownState {
  /** The check count at which the full compaction may run again. */
  until: number;
  consecutiveFailures: number;
}

export const NO_COOLDOWN: CooldownState = { until: 0, consecutiveFailures: 0 };

export type CooldownPlan = { mode: 'full'; reason: string } | { mode: 'conservative'; strategy: string; reason: string };

/** What to run at check number `now`. */
export function planUnderCooldown(state: CooldownState, now: number): CooldownPlan {
  if (now < state.until) {
    return { mode: 'conservative', strategy: COOLDOWN_STRATEGY, reason: `cooling down after ${state.consecutiveFailures} failed compaction${state.consecutiveFailures > 1 ? 's' : ''} (${state.until - now} more turn${state.until - now > 1 ? 's' : ''}): only the drop rules run` };
  }
  return { mode: 'full', reason: 'no cooldown' };
}

/** The state after a compaction at check `now` failed (error, empty summary, no reduction). */
export function afterFailure(state: CooldownState, now: number, opts: Partial<typeof COOLDOWN_DEFAULTS> = {}): CooldownState {
  const base = opts.cooldownTurns ?? COOLDOWN_DEFAULTS.cooldownTurns;
  const max = opts.maxCooldownTurns ?? COOLDOWN_DEFAULTS.maxCooldownTurns;
  const failures = state.consecutiveFailures + 1;
  const wait = Math.min(max, base * 2 ** (failures - 1));
  return { until: now + wait, consecutiveFailures: failures };
}

export function afterSuccess(): CooldownState {
  return NO_COOLDOWN;
}
