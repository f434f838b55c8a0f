// The cooldown after a failed compaction: for a while the path that failed is not tried again —
// the failure is likely to repeat (a server down, a key refused, a model that times out) — and
// the caller uses its fallback meanwhile. Each consecutive failure doubles the wait, up to a
// most; a success ends it. Pure: the caller passes its clock, in the unit its policy uses.

export interface CooldownPolicy {
  /** The wait after a first failure. */
  wait: number;
  /** The longest wait, however many failures follow. */
  maxWait: number;
}

export interface CooldownState {
  /** The clock value from which the path may be tried again. */
  until: number;
  consecutiveFailures: number;
}

export const NO_COOLDOWN: CooldownState = { until: 0, consecutiveFailures: 0 };

export function coolingDown(state: CooldownState, now: number): boolean {
  return now < state.until;
}

/** The state after a failure at `now`. */
export function afterFailure(state: CooldownState, now: number, policy: CooldownPolicy): CooldownState {
  const failures = state.consecutiveFailures + 1;
  const wait = Math.min(policy.maxWait, policy.wait * 2 ** (failures - 1));
  return { until: now + wait, consecutiveFailures: failures };
}

export function afterSuccess(): CooldownState {
  return NO_COOLDOWN;
}
