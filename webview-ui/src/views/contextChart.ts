// The context over time as an SVG line: the tokens of each request (as the agent recorded them,
// or our count at each assistant message), the compactions between requests, the window and the
// trigger across, and where this compaction would bring the next request. Drawn with DOM calls
// (no markup strings); a sentence beside it says the same in words for screen readers and tests.

import type { ContextHistoryView, InspectorModel } from '../../../src/shared/protocol';
import { clear, h } from '../dom/element';
import { formatTokens } from '../dom/format';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** The drawing's own units; it scales to the pane's width, keeping its proportions. */
export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 220;
const PAD = { left: 56, right: 96, top: 12, bottom: 24 };

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

const COMPACTED_BY: Record<string, string> = { auto: 'by the agent', manual: 'when asked', ours: 'by Context Compactor', unknown: '' };

/** The chart in words: what it draws, for screen readers and for a reader of the test. */
export function chartSummary(h0: ContextHistoryView, after?: number): string {
  const pts = h0.points;
  const last = pts.at(-1)!;
  const peak = Math.max(...pts.map((p) => p.tokens));
  const what =
    h0.source === 'reported'
      ? `${pts.length} requests${h0.recordedBy ? ` recorded by ${h0.recordedBy}` : ''}`
      : `${pts.length} assistant messages (counted here: the file records no usage)`;
  const parts = [`${what}: the last ${formatTokens(last.tokens)} tokens, the peak ${formatTokens(peak)}`];
  parts.push(`window ${formatTokens(h0.window)}, trigger ${formatTokens(h0.trigger)}`);
  if (h0.compactions.length > 0) {
    const list = h0.compactions.map((c) =>
      [`after request ${c.afterPoint}`, COMPACTED_BY[c.kind], c.preTokens !== undefined ? `at ${formatTokens(c.preTokens)}` : ''].filter(Boolean).join(' '),
    );
    parts.push(`${h0.compactions.length} compaction${h0.compactions.length === 1 ? '' : 's'} (${list.join('; ')})`);
  }
  if (after !== undefined) parts.push(`this compaction: ${formatTokens(after)} at the next request`);
  return `${parts.join('; ')}.`;
}

export class ContextChart {
  readonly element: HTMLElement;
  private readonly drawing: HTMLElement;
  private readonly caption: HTMLElement;

  constructor() {
    this.drawing = h('div', { className: 'chart-drawing' });
    this.caption = h('p', { className: 'chart-caption note' });
    this.element = h(
      'section',
      { className: 'context-chart', attrs: { 'aria-labelledby': 'chart-h', tabindex: -1 } },
      h('h3', { text: 'Context over time', attrs: { id: 'chart-h' } }),
      this.drawing,
      this.caption,
    );
  }

  show(model: InspectorModel): void {
    clear(this.drawing);
    const hist = model.history;
    if (!hist || hist.points.length === 0) {
      this.caption.textContent = 'No history of this conversation could be read.';
      return;
    }
    const after = model.phase === 'preview' ? model.header.tokensAfter : undefined;
    const summary = chartSummary(hist, after);
    this.caption.textContent = summary;
    this.drawing.appendChild(draw(hist, after, summary));
  }

  /** Scrolls the chart into view, below the sticky header, and moves the focus to it. */
  reveal(): void {
    const header = document.querySelector('header.top')?.getBoundingClientRect().height ?? 0;
    this.element.style.scrollMarginTop = `${Math.ceil(header) + 8}px`;
    this.element.scrollIntoView({ block: 'start' });
    this.element.focus({ preventScroll: true });
  }
}

function draw(hist: ContextHistoryView, after: number | undefined, summary: string): SVGSVGElement {
  const pts = hist.points;
  const top = Math.max(hist.window, ...pts.map((p) => p.tokens), after ?? 0) * 1.05;
  const slots = pts.length + (after !== undefined ? 1 : 0);
  const plotW = CHART_WIDTH - PAD.left - PAD.right;
  const plotH = CHART_HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (slots <= 1 ? plotW / 2 : (i / (slots - 1)) * plotW);
  const y = (t: number) => PAD.top + plotH - (t / top) * plotH;
  const root = svg('svg', { viewBox: `0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`, role: 'img', 'aria-label': `Context over time: ${summary}`, class: 'chart' });
  root.appendChild(svg('line', { x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: PAD.top + plotH, class: 'axis' }));
  root.appendChild(svg('line', { x1: PAD.left, x2: PAD.left + plotW, y1: PAD.top + plotH, y2: PAD.top + plotH, class: 'axis' }));
  root.appendChild(svg('text', { x: PAD.left - 6, y: PAD.top + plotH, class: 'tick', 'text-anchor': 'end' }, '0'));
  // The requests' numbers at both ends of the x axis.
  const below = PAD.top + plotH + 16;
  root.appendChild(svg('text', { x: x(0), y: below, class: 'tick', 'text-anchor': 'start' }, String(pts[0]!.n)));
  root.appendChild(svg('text', { x: x(pts.length - 1), y: below, class: 'tick', 'text-anchor': 'end' }, String(pts.at(-1)!.n)));
  const across = (tokens: number, cls: string, label: string) => {
    root.appendChild(svg('line', { x1: PAD.left, x2: PAD.left + plotW, y1: y(tokens), y2: y(tokens), class: cls }));
    root.appendChild(svg('text', { x: PAD.left + plotW + 6, y: y(tokens) + 4, class: `${cls}-label` }, `${label} ${formatTokens(tokens)}`));
  };
  across(hist.window, 'window-line', 'window');
  across(hist.trigger, 'trigger-line', 'trigger');
  for (const c of hist.compactions) {
    // Between request afterPoint (1-based) and the next one.
    const cx = (x(Math.max(0, c.afterPoint - 1)) + x(Math.min(slots - 1, c.afterPoint))) / 2;
    const mark = svg('line', { x1: cx, x2: cx, y1: PAD.top, y2: PAD.top + plotH, class: `compaction-mark compaction-${c.kind}` });
    mark.appendChild(
      svg(
        'title',
        {},
        `Compacted ${COMPACTED_BY[c.kind] ?? ''} after request ${c.afterPoint}${c.preTokens !== undefined ? ` at ${formatTokens(c.preTokens)} tokens` : ''}`,
      ),
    );
    root.appendChild(mark);
  }
  const line = pts.map((p, i) => `${x(i).toFixed(1)},${y(p.tokens).toFixed(1)}`).join(' ');
  root.appendChild(svg('polyline', { points: line, class: 'usage-line' }));
  const last = pts.length - 1;
  root.appendChild(svg('circle', { cx: x(last), cy: y(pts[last]!.tokens), r: 3, class: 'usage-last' }));
  if (after !== undefined) {
    root.appendChild(svg('line', { x1: x(last), y1: y(pts[last]!.tokens), x2: x(last + 1), y2: y(after), class: 'after-line' }));
    const dot = svg('circle', { cx: x(last + 1), cy: y(after), r: 4, class: 'after-dot' });
    dot.appendChild(svg('title', {}, `After this compaction: ${formatTokens(after)} tokens at the next request`));
    root.appendChild(dot);
  }
  return root;
}
