// The facts the validator found nowhere in the compacted result, each linked to the message it
// came from: one click shows that message in the timeline, another keeps it verbatim.

import type { InspectorEdits, InspectorModel, MissingFactView } from '../../../src/shared/protocol';
import { button, clear, h, setPressed } from '../dom/element';
import { isRestored } from '../state/edits';

/** Facts listed before "Show all": a long list is rarely read past its top. */
export const FACTS_SHOWN = 200;
/** Characters of one fact's value in the list. */
export const FACT_CHARS = 300;

export interface FactCallbacks {
  reveal(sourceId: string): void;
  restore(sourceId: string): void;
}

export class MissingFacts {
  readonly element: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly list: HTMLElement;
  private showAll = false;

  constructor(private readonly callbacks: FactCallbacks) {
    this.heading = h('h2', { text: 'Missing facts', attrs: { id: 'facts-h' } });
    this.list = h('ul', { className: 'facts', attrs: { 'aria-labelledby': 'facts-h' } });
    this.element = h('section', { className: 'pane facts-pane', attrs: { 'aria-labelledby': 'facts-h' } }, this.heading, this.list);
  }

  show(model: InspectorModel, edits: InspectorEdits): void {
    clear(this.list);
    const facts = model.missing;
    this.heading.textContent = `Missing facts (${facts.length})`;
    if (facts.length === 0) {
      this.list.appendChild(h('li', { className: 'empty', text: 'Every fact the validator tracks survives in the result.' }));
      return;
    }
    const byId = new Map(model.messages.map((m) => [m.id, m]));
    const shown = this.showAll ? facts : facts.slice(0, FACTS_SHOWN);
    for (const f of shown) this.list.appendChild(this.item(f, byId.get(f.sourceId), edits));
    if (shown.length < facts.length) {
      const more = button(`Show all ${facts.length}`, { attrs: { 'data-action': 'facts-more' } });
      more.addEventListener('click', () => {
        this.showAll = true;
        this.show(model, edits);
      });
      this.list.appendChild(h('li', {}, more));
    }
  }

  private item(f: MissingFactView, source: { index: number; role: string } | undefined, edits: InspectorEdits): HTMLElement {
    const value = f.value.length > FACT_CHARS ? `${f.value.slice(0, FACT_CHARS)}…` : f.value;
    const where = source ? `#${source.index} ${source.role}` : 'source not in this conversation';
    const link = button(where, {
      variant: 'icon',
      attrs: { 'data-action': 'reveal-source', 'aria-label': `Show the source message ${where} in the timeline` },
    });
    link.classList.add('link');
    link.disabled = !source;
    link.addEventListener('click', () => this.callbacks.reveal(f.sourceId));
    const restored = isRestored(edits, f.sourceId);
    const restore = button(restored ? 'Restored' : 'Restore message', {
      pressed: restored,
      attrs: { 'data-action': 'restore-source', 'aria-label': `Restore the source message ${where} verbatim` },
    });
    restore.disabled = !source;
    restore.addEventListener('click', () => {
      setPressed(restore, !restored);
      this.callbacks.restore(f.sourceId);
    });
    return h(
      'li',
      { className: 'fact' },
      h('span', { className: `badge kind kind-${f.kind}`, text: f.kind }),
      h('span', { className: 'fact-value', text: value, title: f.value.length > FACT_CHARS ? f.value.slice(0, 2000) : '' }),
      link,
      restore,
    );
  }
}
