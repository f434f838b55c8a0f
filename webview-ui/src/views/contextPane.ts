// The context beside the compaction: what this preview compacts (all, up to a message, or only
// offloads, with a way back to all), the chart of the context over time, what compacting costs
// in prompt cache, and the biggest items.

import type { CostView, InspectorEdits, InspectorModel } from '../../../src/shared/protocol';
import { button, clear, h } from '../dom/element';
import { formatTokens } from '../dom/format';
import { BiggestList } from './biggestList';
import { ContextChart } from './contextChart';

export interface ContextPaneActions {
  reveal(id: string): void;
  toggleOffload(id: string): void;
  /** Back to compacting the whole conversation: no range, no offloads. */
  wholeConversation(): void;
}

/** US dollars as a person reads a small price: four decimals under a dollar. */
export function formatDollars(x: number): string {
  const a = Math.abs(x);
  return `$${a.toFixed(a < 1 ? 4 : 2)}`;
}

/** What compacting costs, in sentences (engine/compactionCost.ts computes it). */
export function costSentences(c: CostView): string[] {
  const out = [
    `The next request writes ${formatTokens(c.rewritten)} tokens of compacted messages to the prompt cache, where it would have read ${formatTokens(c.wouldRead)} from it; every later request sends ${formatTokens(c.savedPerRequest)} fewer.`,
  ];
  if (!c.price || c.extraAtNext === undefined || c.savedPerRequestDollars === undefined) {
    out.push(`No price is known for ${c.model || 'this model'}, so the cost is in tokens only.`);
    return out;
  }
  const next = c.extraAtNext >= 0 ? `${formatDollars(c.extraAtNext)} more` : `${formatDollars(c.extraAtNext)} less`;
  out.push(`At ${c.price.family} prices: the next request costs ${next}, each later one ${formatDollars(c.savedPerRequestDollars)} less.`);
  if (c.paysOffAfter === undefined) out.push('It does not pay off: it saves nothing per request.');
  else if (c.paysOffAfter === 0) out.push('It pays off at once.');
  else out.push(`It pays off after ${c.paysOffAfter} later request${c.paysOffAfter === 1 ? '' : 's'}.`);
  const perMillion = (x: number) => `$${x.toFixed(2)}`;
  out.push(
    `Prices per million tokens: input ${perMillion(c.price.input)}, cache write ${perMillion(c.price.cacheWrite)}, cache read ${perMillion(c.price.cacheRead)} (${c.price.source}, read ${c.price.readOn}).`,
  );
  return out;
}

export class ContextPane {
  readonly element: HTMLElement;
  readonly chart = new ContextChart();
  private readonly biggest: BiggestList;
  private readonly scope: HTMLElement;
  private readonly cost: HTMLElement;

  constructor(private readonly actions: ContextPaneActions) {
    this.biggest = new BiggestList(actions);
    this.scope = h('div', { className: 'scope', attrs: { role: 'status' } });
    this.cost = h('div', { className: 'cost' });
    const costPane = h(
      'section',
      { className: 'cost-pane', attrs: { 'aria-labelledby': 'cost-h' } },
      h('h3', { text: 'What compacting costs', attrs: { id: 'cost-h' } }),
      this.cost,
    );
    this.element = h(
      'section',
      { className: 'pane context-pane', attrs: { 'aria-labelledby': 'context-h' } },
      h('h2', { text: 'Context', attrs: { id: 'context-h' } }),
      this.scope,
      h('div', { className: 'context-grid' }, this.chart.element, costPane),
      this.biggest.element,
    );
  }

  show(model: InspectorModel, edits: InspectorEdits): void {
    this.showScope(model, edits);
    this.chart.show(model);
    clear(this.cost);
    for (const s of costSentences(model.cost)) this.cost.appendChild(h('p', { text: s }));
    this.biggest.show(model, edits);
  }

  /** The edits changed before the new preview came: the scope line and the offload buttons. */
  refresh(model: InspectorModel, edits: InspectorEdits): void {
    this.showScope(model, edits);
    this.biggest.show(model, edits);
  }

  private showScope(model: InspectorModel, edits: InspectorEdits): void {
    clear(this.scope);
    const index = (id: string) => model.messages.find((m) => m.id === id)?.index;
    let text: string;
    if (edits.offload.length > 0) {
      const which = edits.offload.map((id) => `#${index(id) ?? '?'}`).join(', ');
      text = `Offloading only: ${which}. Nothing else changes; each goes to the archive under a one-line placeholder.`;
    } else if (edits.upTo !== undefined) {
      text = `Compacting up to message #${index(edits.upTo) ?? '?'}; every later message stays as it is.`;
    } else {
      this.scope.hidden = true;
      return;
    }
    this.scope.hidden = false;
    const all = button('Compact the whole conversation', { attrs: { 'data-action': 'whole' } });
    all.addEventListener('click', () => this.actions.wholeConversation());
    this.scope.append(h('span', { text }), all);
  }
}
