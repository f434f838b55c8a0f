// The selected message in full: its text (as text), why the plan treats it as it does, and its
// importance figures. Very long messages show their beginning until asked for the rest, so a
// 1 MB tool output cannot stall the page.

import type { MessageView } from '../../../src/shared/protocol';
import { button, clear, h } from '../dom/element';
import { formatBytes, formatScore, formatTokens, hasBidiControls } from '../dom/format';
import { IMPORTANCE_WEIGHTS } from './importanceBar';

/** Characters shown before "Show all": plenty to read, cheap to lay out. */
export const DETAIL_CHARS = 20_000;

export interface DetailActions {
  showDiff(m: MessageView): void;
  /** Compact only up to this message (again: the whole conversation). */
  compactUpTo(m: MessageView): void;
}

export class MessageDetails {
  readonly element: HTMLElement;

  constructor(private readonly actions: DetailActions) {
    this.element = h('section', { className: 'details', attrs: { 'aria-label': 'Selected message', 'aria-live': 'polite' } });
    this.show(undefined);
  }

  /** `upTo`: the preview compacts up to this message. */
  show(m: MessageView | undefined, upTo = false): void {
    clear(this.element);
    if (!m) {
      this.element.appendChild(
        h('p', {
          className: 'hint',
          text: 'Select a message (click, or Enter on a row) to read it in full. Keys: ↑/↓ move, Space pins, R restores, D shows its diff.',
        }),
      );
      return;
    }
    const head = h(
      'div',
      { className: 'details-head' },
      h('strong', { text: `#${m.index} ${m.role}` }),
      ` · ${m.itemType} · ${formatTokens(m.tokens)} tokens · `,
      h('span', { className: `badge decision-${m.decision}`, text: m.decision }),
      m.reason ? ` — ${m.reason}` : '',
    );
    const diff = button('Show its diff', { attrs: { 'data-action': 'details-diff' } });
    diff.addEventListener('click', () => this.actions.showDiff(m));
    const range = button(upTo ? 'Compacting up to here' : 'Compact up to here', {
      pressed: upTo,
      attrs: { 'data-action': 'details-up-to', title: 'Compact this message and every one before it; the later ones stay as they are' },
    });
    range.addEventListener('click', () => this.actions.compactUpTo(m));
    const figures = h(
      'dl',
      { className: 'figures' },
      ...(Object.keys(IMPORTANCE_WEIGHTS) as (keyof typeof IMPORTANCE_WEIGHTS)[]).flatMap((c) => [
        h('dt', { text: c }),
        h('dd', { text: formatScore(m.importance[c]) }),
      ]),
      h('dt', { text: 'overall' }),
      h('dd', { text: formatScore(m.importance.overall) }),
      h('dt', { text: 'temporal' }),
      h('dd', { text: `${formatScore(m.importance.temporal)} (${m.importance.temporalCategory.replace('_', ' ')})` }),
      h('dt', { text: 'content' }),
      h('dd', { text: m.contentType.replace(/_/g, ' ') }),
    );
    const text = h('pre', { className: 'message-text', attrs: { tabindex: 0, 'aria-label': `Text of message #${m.index}` } });
    this.element.append(head, figures, h('div', { className: 'details-actions' }, diff, range));
    if (hasBidiControls(m.text))
      this.element.appendChild(
        h('p', { className: 'warning', text: 'This message contains bidirectional control characters; the text below is shown isolated, in stored order.' }),
      );
    this.element.appendChild(text);
    if (m.text.length <= DETAIL_CHARS) {
      text.textContent = m.text || '(empty)';
      return;
    }
    text.textContent = m.text.slice(0, DETAIL_CHARS);
    const more = button(`Show all (${formatBytes(m.text.length)})`, { attrs: { 'data-action': 'details-more' } });
    more.addEventListener('click', () => {
      text.textContent = m.text;
      more.remove();
    });
    this.element.appendChild(more);
  }
}
