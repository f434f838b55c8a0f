// One timeline row: a grid row whose cells are plain text nodes. Created once per message and
// updated in place when a new preview changes its decision, pin or restore state.

import type { MessageView } from '../../../src/shared/protocol';
import { button, h, setPressed } from '../dom/element';
import { formatTokens, hasBidiControls } from '../dom/format';
import { importanceBar } from './importanceBar';

/** Characters of message text shown in the row; the details pane shows the rest. */
export const PREVIEW_CHARS = 240;

export interface RowState {
  pinned: boolean;
  restored: boolean;
}

export function previewText(text: string): string {
  const head = text.length > PREVIEW_CHARS * 2 ? text.slice(0, PREVIEW_CHARS * 2) : text;
  const oneLine = head.replace(/\s+/g, ' ').trim();
  return oneLine.length > PREVIEW_CHARS ? `${oneLine.slice(0, PREVIEW_CHARS)}…` : oneLine || '(empty)';
}

function tokensText(m: MessageView): string {
  return m.decision === 'kept' ? formatTokens(m.tokens) : `${formatTokens(m.tokens)} → ${formatTokens(m.tokensAfter)}`;
}

export function createRow(m: MessageView, state: RowState): HTMLElement {
  const row = h('div', {
    className: 'row',
    attrs: { role: 'row', tabindex: -1, 'aria-rowindex': m.index + 1, 'aria-selected': 'false', 'data-index': m.index, 'data-id': m.id },
  });
  const bidi = hasBidiControls(m.text);
  row.append(
    h('span', { className: 'cell idx', attrs: { role: 'gridcell' }, text: `#${m.index}` }),
    h('span', { className: `cell role role-${m.role}`, attrs: { role: 'gridcell' }, text: m.role }),
    h('span', { className: 'cell tokens', attrs: { role: 'gridcell' }, text: tokensText(m) }),
    h('span', { className: 'cell importance', attrs: { role: 'gridcell' } }, importanceBar(m.importance)),
    h(
      'span',
      { className: 'cell decision', attrs: { role: 'gridcell' } },
      h('span', { className: `badge decision-${m.decision}`, text: m.decision, title: m.reason }),
    ),
    h(
      'span',
      { className: 'cell preview', attrs: { role: 'gridcell' } },
      bidi
        ? h('span', {
            className: 'bidi-flag',
            text: 'bidi',
            title: 'This message contains bidirectional control characters (U+202A–U+202E, U+2066–U+2069); they are shown isolated.',
          })
        : null,
      h('span', { className: 'preview-text', text: previewText(m.text) }),
    ),
    h(
      'span',
      { className: 'cell actions', attrs: { role: 'gridcell' } },
      button(state.pinned ? 'Pinned' : 'Pin', {
        pressed: state.pinned,
        variant: 'icon',
        attrs: { tabindex: -1, 'data-action': 'pin', 'aria-label': `Pin message #${m.index}`, 'aria-keyshortcuts': 'Space' },
      }),
      button(state.restored ? 'Restored' : 'Restore', {
        pressed: state.restored,
        variant: 'icon',
        attrs: {
          tabindex: -1,
          'data-action': 'restore',
          'aria-label': `Restore message #${m.index} verbatim`,
          'aria-keyshortcuts': 'R',
          disabled: m.decision === 'kept' && !state.restored,
        },
      }),
      button('Diff', {
        variant: 'icon',
        attrs: { tabindex: -1, 'data-action': 'diff', 'aria-label': `Show the diff of message #${m.index}`, 'aria-keyshortcuts': 'D' },
      }),
    ),
  );
  row.classList.add(`is-${m.decision}`);
  return row;
}

/** Brings a row up to date with a new preview of the same message. */
export function updateRow(row: HTMLElement, m: MessageView, state: RowState): void {
  for (const c of [...row.classList]) if (c.startsWith('is-')) row.classList.remove(c);
  row.classList.add(`is-${m.decision}`);
  const tokens = row.querySelector('.tokens');
  if (tokens) tokens.textContent = tokensText(m);
  const badge = row.querySelector<HTMLElement>('.decision .badge');
  if (badge) {
    badge.className = `badge decision-${m.decision}`;
    badge.textContent = m.decision;
    badge.title = m.reason;
  }
  const pin = row.querySelector<HTMLButtonElement>('[data-action="pin"]');
  if (pin) {
    setPressed(pin, state.pinned);
    pin.textContent = state.pinned ? 'Pinned' : 'Pin';
  }
  const restore = row.querySelector<HTMLButtonElement>('[data-action="restore"]');
  if (restore) {
    setPressed(restore, state.restored);
    restore.textContent = state.restored ? 'Restored' : 'Restore';
    restore.disabled = m.decision === 'kept' && !state.restored;
  }
}
