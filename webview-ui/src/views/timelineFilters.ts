// The timeline's filter bar: toggles per role and per decision, and a search box. An empty
// selection means "all", so the default shows every message.

import { DECISIONS, type Decision, type Role } from '../../../src/shared/engineNames';
import type { InspectorUiState, MessageView } from '../../../src/shared/protocol';
import { button, h, setPressed } from '../dom/element';

export const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];
/** Typing pauses this long before the timeline filters (5,000 messages are scanned each time). */
export const SEARCH_DELAY_MS = 150;

export interface FilterPredicate {
  (m: MessageView): boolean;
}

/** Which messages the filters let through. Text is matched case-insensitively. */
export function makePredicate(ui: InspectorUiState, lowerText: (m: MessageView) => string): FilterPredicate {
  const roles = new Set(ui.roles);
  const decisions = new Set(ui.decisions);
  const q = ui.search.trim().toLowerCase();
  return (m) => (roles.size === 0 || roles.has(m.role)) && (decisions.size === 0 || decisions.has(m.decision)) && (q === '' || lowerText(m).includes(q));
}

export class TimelineFilters {
  readonly element: HTMLElement;
  private readonly roleButtons = new Map<Role, HTMLButtonElement>();
  private readonly decisionButtons = new Map<Decision, HTMLButtonElement>();
  private readonly search: HTMLInputElement;
  private readonly count: HTMLElement;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ui: () => InspectorUiState,
    private readonly changed: () => void,
  ) {
    const roles = h(
      'div',
      { className: 'toggle-group', attrs: { role: 'group', 'aria-label': 'Filter by role' } },
      h('span', { className: 'group-label', text: 'Role' }),
    );
    for (const r of ROLES) {
      const b = button(r, { pressed: false, attrs: { 'data-role': r } });
      b.addEventListener('click', () => this.toggle(this.ui().roles, r));
      this.roleButtons.set(r, b);
      roles.appendChild(b);
    }
    const decisions = h(
      'div',
      { className: 'toggle-group', attrs: { role: 'group', 'aria-label': 'Filter by decision' } },
      h('span', { className: 'group-label', text: 'Decision' }),
    );
    for (const d of DECISIONS) {
      const b = button(d, { pressed: false, attrs: { 'data-decision': d } });
      b.classList.add(`decision-toggle`, `decision-${d}`);
      b.addEventListener('click', () => this.toggle(this.ui().decisions, d));
      this.decisionButtons.set(d, b);
      decisions.appendChild(b);
    }
    this.search = h('input', {
      className: 'search',
      attrs: { type: 'search', placeholder: 'Search messages', 'aria-label': 'Search messages', spellcheck: 'false' },
    });
    this.search.addEventListener('input', () => {
      if (this.searchTimer !== undefined) clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(() => {
        this.ui().search = this.search.value;
        this.changed();
      }, SEARCH_DELAY_MS);
    });
    const clearButton = button('Clear filters', { attrs: { 'data-action': 'clear-filters' } });
    clearButton.addEventListener('click', () => this.clear());
    this.count = h('span', { className: 'match-count', attrs: { 'aria-live': 'polite' } });
    this.element = h('div', { className: 'filters' }, roles, decisions, h('div', { className: 'search-line' }, this.search, clearButton, this.count));
  }

  /** Shows the state's filters (after a restore or a reset). */
  sync(): void {
    const ui = this.ui();
    for (const [r, b] of this.roleButtons) setPressed(b, ui.roles.includes(r));
    for (const [d, b] of this.decisionButtons) setPressed(b, ui.decisions.includes(d));
    if (this.search.value !== ui.search) this.search.value = ui.search;
  }

  setCount(shown: number, total: number): void {
    this.count.textContent = shown === total ? `${total} messages` : `${shown} of ${total} messages`;
  }

  clear(): void {
    const ui = this.ui();
    ui.roles = [];
    ui.decisions = [];
    ui.search = '';
    this.sync();
    this.changed();
  }

  private toggle<T>(list: T[], value: T): void {
    const i = list.indexOf(value);
    if (i >= 0) list.splice(i, 1);
    else list.push(value);
    this.sync();
    this.changed();
  }
}
