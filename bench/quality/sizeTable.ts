// The size and precision table of bench:quality (the first strategy, per conversation): the result
// against its target at the ratio and at the emergency level, "fixed" claims backed, Pending Tasks
// still open; and the plain-text table every section prints.

import type { PrecisionScore } from './precision';

/** Emergency runs: a budget of these shares of the original, at --level emergency. */
export const EMERGENCY_SHARES = [0.1, 0.05] as const;
/** A result at most this share over its target is within it (the 5%). */
const WITHIN_TARGET = 0.05;

/** What the size table reads of a conversation's run. */
export interface SizeRun {
  facts: { name: string };
  target: number;
  after: Record<string, number>;
  precision: PrecisionScore;
  emergency: { share: number; after: number; target: number }[];
}

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max([...h].length, ...rows.map((r) => [...(r[i] ?? '')].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const sizeRatio = (after: number, target: number) => (Number.isNaN(after) || target <= 0 ? Number.NaN : after / target);
const fmtRatio = (x: number) => (Number.isNaN(x) ? 'failed' : x.toFixed(2));
const within = (x: number) => !Number.isNaN(x) && x <= 1 + WITHIN_TARGET;
const fraction = (n: number, d: number) => (d === 0 ? '—' : `${n}/${d} (${((100 * n) / d).toFixed(0)}%)`);

export function sizeTable(runs: readonly SizeRun[], strategy: string): string {
  const header = ['conversation', 'target', 'after', 'after/target', ...EMERGENCY_SHARES.map((x) => `em ${x * 100}%`), 'fixed backed', 'pending open'];
  const rows = runs.map((r) => [
    r.facts.name,
    String(r.target),
    String(r.after[strategy]),
    fmtRatio(sizeRatio(r.after[strategy]!, r.target)),
    ...r.emergency.map((e) => fmtRatio(sizeRatio(e.after, e.target))),
    fraction(r.precision.fixedBacked, r.precision.fixedClaims),
    fraction(r.precision.pendingOpen, r.precision.pendingItems),
  ]);
  const p = runs.reduce(
    (a, r) => ({
      fc: a.fc + r.precision.fixedClaims,
      fb: a.fb + r.precision.fixedBacked,
      pi: a.pi + r.precision.pendingItems,
      po: a.po + r.precision.pendingOpen,
    }),
    { fc: 0, fb: 0, pi: 0, po: 0 },
  );
  const worst = (xs: number[]) => fmtRatio(Math.max(...xs.map((x) => (Number.isNaN(x) ? Infinity : x))));
  rows.push([
    `total (${runs.length})`,
    '',
    '',
    `max ${worst(runs.map((r) => sizeRatio(r.after[strategy]!, r.target)))}`,
    ...EMERGENCY_SHARES.map((_, k) => `max ${worst(runs.map((r) => sizeRatio(r.emergency[k]!.after, r.emergency[k]!.target)))}`),
    fraction(p.fb, p.fc),
    fraction(p.po, p.pi),
  ]);
  return table(header, rows);
}

export function sizeVerdicts(runs: readonly SizeRun[], strategy: string, ratio: number): string[] {
  const sizes = runs.flatMap((r) => [sizeRatio(r.after[strategy]!, r.target), ...r.emergency.map((e) => sizeRatio(e.after, e.target))]);
  const ok = sizes.filter(within).length;
  const shares = EMERGENCY_SHARES.map((x) => `${x * 100}%`).join(' and ');
  return [
    `  ${ok === sizes.length ? 'met    ' : 'NOT MET'}  every result within ${WITHIN_TARGET * 100}% of its target (ratio ${ratio}; emergency at ${shares} of the original): ${ok}/${sizes.length}`,
  ];
}
