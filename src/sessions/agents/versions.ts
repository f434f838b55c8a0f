// Which agent versions were tested (testedVersions.json, through each agent module), and whether a
// session was written by a newer one: it is read as the newest known version writes, and the
// listing, `ctxc sessions` and the hook's log say so once, so nothing is misread silently.

import type { AgentModule } from './agent';

/** Compares dotted version numbers ("2.1.332" < "2.1.340"); a suffix after the numbers is ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => (/^\d+(?:\.\d+)*/.exec(v.trim())?.[0] ?? '0').split('.').map(Number);
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** The newest tested version, when `version` is newer than it; else undefined. */
export function newerThanTested(agent: Pick<AgentModule, 'versions'>, version: string | undefined): string | undefined {
  if (!agent.versions || !version || !/^\d/.test(version.trim())) return undefined;
  return compareVersions(version, agent.versions.newest) > 0 ? agent.versions.newest : undefined;
}
