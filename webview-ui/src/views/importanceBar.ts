// The importance bar of a timeline row: the importance score as four stacked segments, each as
// wide as its weighted share (criticality·0.35 + dependency·0.25 + uniqueness·0.20 +
// actionability·0.20 = overall), with every figure and the temporal score on hover.

import type { ImportanceView } from '../../../src/shared/protocol';
import { h } from '../dom/element';
import { formatScore } from '../dom/format';

/** The weight of each importance component in `overall` (the engine uses the same ones). */
export const IMPORTANCE_WEIGHTS = {
  criticality: 0.35,
  dependency: 0.25,
  uniqueness: 0.2,
  actionability: 0.2,
} as const;

type Component = keyof typeof IMPORTANCE_WEIGHTS;
const COMPONENTS = Object.keys(IMPORTANCE_WEIGHTS) as Component[];

export function importanceDescription(i: ImportanceView): string {
  return [
    `Importance ${formatScore(i.overall)}`,
    ...COMPONENTS.map((c) => `${c} ${formatScore(i[c])} (×${IMPORTANCE_WEIGHTS[c]})`),
    `temporal ${formatScore(i.temporal)} (${i.temporalCategory.replace('_', ' ')})`,
  ].join('\n');
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

export function importanceBar(i: ImportanceView): HTMLElement {
  const description = importanceDescription(i);
  const bar = h('span', {
    className: 'imp-bar',
    title: description,
    attrs: { role: 'img', 'aria-label': description.replace(/\n/g, ', ') },
  });
  for (const c of COMPONENTS) {
    const seg = h('span', { className: `imp-seg imp-${c}` });
    // Width through the CSSOM: CSP forbids style attributes, not style properties.
    seg.style.width = `${(clamp01(i[c]) * IMPORTANCE_WEIGHTS[c] * 100).toFixed(1)}%`;
    bar.appendChild(seg);
  }
  const temporal = h('span', { className: 'imp-temporal' });
  temporal.style.width = `${(clamp01(i.temporal) * 100).toFixed(1)}%`;
  return h('span', { className: 'imp' }, bar, temporal, h('span', { className: 'imp-value', text: formatScore(i.overall), attrs: { 'aria-hidden': 'true' } }));
}
