// The biggest items filling the window (the host's list: tool results, files read, tool calls),
// each with its share of what is sent, a way to find it in the timeline and, for a tool result
// that can be, one click to offload it (the preview shows that compaction, Apply makes it).

import type { BigItemView, InspectorEdits, InspectorModel } from '../../../src/shared/protocol';
import { button, clear, h } from '../dom/element';
import { formatPercent, formatTokens } from '../dom/format';
import { isOffloaded } from '../state/edits';

export interface BiggestActions {
  reveal(id: string): void;
  toggleOffload(id: string): void;
}

const KIND_WORDS: Record<BigItemView['kind'], string> = { fileRead: 'file read', toolResult: 'tool result', toolCall: 'tool call' };

export class BiggestList {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly note: HTMLElement;

  constructor(private readonly actions: BiggestActions) {
    this.note = h('p', { className: 'note offload-note' });
    this.list = h('ol', { className: 'biggest', attrs: { 'aria-label': 'The biggest items, biggest first' } });
    this.element = h(
      'section',
      { className: 'biggest-pane', attrs: { 'aria-labelledby': 'biggest-h' } },
      h('h3', { text: 'Biggest items', attrs: { id: 'biggest-h' } }),
      this.note,
      this.list,
    );
  }

  show(model: InspectorModel, edits: InspectorEdits): void {
    clear(this.list);
    this.note.textContent = model.offloadNote ?? '';
    this.note.hidden = !model.offloadNote;
    if (model.biggest.length === 0) {
      this.list.appendChild(h('li', { className: 'empty', text: 'No tool results or tool calls.' }));
      return;
    }
    const total = model.header.tokensBefore;
    for (const item of model.biggest) {
      const show = button('Show', { variant: 'icon', attrs: { 'data-action': 'reveal', 'aria-label': `Show message #${item.index} in the timeline` } });
      show.addEventListener('click', () => this.actions.reveal(item.id));
      const offloaded = isOffloaded(edits, item.id);
      const offload = item.offloadable
        ? button(offloaded ? 'Offloading' : 'Offload', {
            pressed: offloaded,
            variant: 'icon',
            attrs: { 'data-action': 'offload', 'aria-label': `Offload message #${item.index}: only this tool result leaves the context` },
          })
        : null;
      offload?.addEventListener('click', () => this.actions.toggleOffload(item.id));
      this.list.appendChild(
        h(
          'li',
          { className: 'big-item', attrs: { 'data-id': item.id } },
          h('span', { className: 'big-tokens', text: formatTokens(item.tokens) }),
          h('span', { className: 'big-share', text: total > 0 ? formatPercent(item.tokens / total) : '' }),
          h('span', { className: `big-kind kind-${item.kind}`, text: KIND_WORDS[item.kind] }),
          h('span', { className: 'big-label', text: item.label, title: `#${item.index} ${item.label}` }),
          h('span', { className: 'big-actions' }, show, offload),
        ),
      );
    }
  }
}
