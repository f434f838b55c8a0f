// The timeline: one grid row per original message, with filters, search, keyboard navigation
// and the selected message's details.
//
// Large conversations render incrementally rather than virtualized: the first screenful is
// built at once, the remaining rows in time slices after the first paint. Rows sit in groups
// of ROWS_PER_GROUP (role="rowgroup") and a group off screen costs no layout or paint
// (content-visibility on the group: on every row instead, Chromium's per-element visibility
// bookkeeping made each frame of the build O(rows), 5,000 rows took seconds). Every message
// keeps a real row in the DOM, so the find widget, screen readers and tests see all of them.

import type { InspectorEdits, InspectorModel, InspectorUiState, MessageView } from '../../../src/shared/protocol';
import { h } from '../dom/element';
import { runInSlices, type SlicedRun } from '../scheduling/timeSlices';
import { isPinned, isRestored } from '../state/edits';
import { emptyEdits } from '../state/uiState';
import { MessageDetails } from './messageDetails';
import { TimelineFilters, makePredicate, type FilterPredicate } from './timelineFilters';
import { createRow, updateRow, type RowState } from './timelineRow';

/** Rows built before the first paint: more than the timeline shows at once (at most 760px of
 *  rows about 25px tall, about 31), and no more, since each one delays the first paint. */
export const FIRST_CHUNK_ROWS = 40;
/** Rows PageUp/PageDown move by. */
export const PAGE_ROWS = 10;
/** How long a revealed row stays highlighted. */
export const FLASH_MS = 1600;
/** Rows per group: a group is the unit the browser skips off screen. Large enough that 5,000
 *  rows make few groups, small enough that a screenful renders only a group or two. */
export const ROWS_PER_GROUP = 100;
/** Row height before one has been measured (px); rows are one line, so all have the same. */
const DEFAULT_ROW_PX = 24;

export interface TimelineCallbacks {
  togglePin(m: MessageView): void;
  toggleRestore(m: MessageView): void;
  showDiff(m: MessageView): void;
  compactUpTo(m: MessageView): void;
  /** Filters, selection or scroll changed (UI state to save). */
  uiChanged(): void;
}

export class Timeline {
  readonly element: HTMLElement;
  private readonly grid: HTMLElement;
  private readonly filters: TimelineFilters;
  private readonly details: MessageDetails;
  private model: InspectorModel | undefined;
  private edits: InspectorEdits = emptyEdits();
  private rows: HTMLElement[] = [];
  private groups: HTMLElement[] = [];
  /** Shown rows per group when it was last sized. */
  private groupShown: number[] = [];
  private rowPx = 0;
  private lower: (string | undefined)[] = [];
  private predicate: FilterPredicate = () => true;
  private run: SlicedRun | undefined;
  private active = -1;
  private pendingScroll: number | undefined;

  constructor(
    private readonly ui: () => InspectorUiState,
    private readonly callbacks: TimelineCallbacks,
  ) {
    this.filters = new TimelineFilters(ui, () => this.filtersChanged());
    this.grid = h('div', {
      className: 'grid',
      attrs: { role: 'grid', 'aria-label': 'Timeline: every message of the original conversation', 'aria-readonly': 'true', tabindex: -1 },
    });
    this.details = new MessageDetails({ showDiff: (m) => callbacks.showDiff(m), compactUpTo: (m) => callbacks.compactUpTo(m) });
    const columns = h(
      'div',
      { className: 'columns', attrs: { 'aria-hidden': 'true' } },
      ...['#', 'role', 'tokens', 'importance', 'decision', 'text', ''].map((t) => h('span', { text: t })),
    );
    this.element = h('div', { className: 'timeline' }, this.filters.element, columns, this.grid, this.details.element);
    this.grid.addEventListener('keydown', (e) => this.onKey(e));
    this.grid.addEventListener('click', (e) => this.onClick(e));
    this.grid.addEventListener('focusin', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('[role="row"]');
      if (row) this.setActive(Number(row.dataset.index), false);
    });
    let scrollTimer: ReturnType<typeof setTimeout> | undefined;
    this.grid.addEventListener('scroll', () => {
      if (scrollTimer !== undefined) return;
      scrollTimer = setTimeout(() => {
        scrollTimer = undefined;
        this.ui().timelineScroll = this.grid.scrollTop;
        this.callbacks.uiChanged();
      }, 200);
    });
  }

  /** Shows a model. The same messages as before (a new preview after a pin or restore) update
   *  in place; anything else rebuilds. Resolves when the first rows are in the DOM. */
  show(model: InspectorModel, edits: InspectorEdits): void {
    const previous = this.model;
    this.model = model;
    this.edits = edits;
    if (previous && sameMessages(previous, model) && this.rows.length > 0) {
      this.refresh();
      return;
    }
    this.rebuild();
  }

  /** Brings rows up to date with the edits (pins, restores) and the model's decisions. */
  refresh(): void {
    const model = this.model;
    if (!model) return;
    for (let i = 0; i < this.rows.length; i++) updateRow(this.rows[i]!, model.messages[i]!, this.rowState(model.messages[i]!));
    this.filtersChanged(false);
    this.showSelected();
  }

  /** Scrolls to a message, shows it (clearing filters that hide it), selects and focuses it. */
  reveal(id: string): void {
    const model = this.model;
    if (!model) return;
    const index = model.messages.findIndex((m) => m.id === id);
    if (index < 0) return;
    if (!this.predicate(model.messages[index]!)) this.filters.clear();
    this.ensureCreated(index);
    const row = this.rows[index]!;
    this.select(index);
    this.setActive(index, true);
    row.scrollIntoView({ block: 'center' });
    row.classList.add('flash');
    setTimeout(() => row.classList.remove('flash'), FLASH_MS);
  }

  /** The row element of a message, building rows up to it if needed. */
  rowOf(id: string): HTMLElement | undefined {
    const index = this.model?.messages.findIndex((m) => m.id === id) ?? -1;
    if (index < 0) return undefined;
    this.ensureCreated(index);
    return this.rows[index];
  }

  /** Resolves when every row is built. */
  get complete(): Promise<boolean> {
    return this.run?.done ?? Promise.resolve(true);
  }

  // ───────────────────────────── building ─────────────────────────────

  private rebuild(): void {
    const model = this.model!;
    this.run?.cancel();
    this.grid.replaceChildren();
    this.rows = [];
    this.groups = [];
    this.groupShown = [];
    this.lower = new Array(model.messages.length);
    this.active = -1;
    this.grid.setAttribute('aria-rowcount', String(model.messages.length));
    this.filters.sync();
    this.predicate = this.makePredicate();
    this.filters.setCount(this.countShown(), model.messages.length);
    const first = Math.min(FIRST_CHUNK_ROWS, model.messages.length);
    for (let i = 0; i < first; i++) this.buildRow(i);
    this.pendingScroll = this.ui().timelineScroll > 0 ? this.ui().timelineScroll : undefined;
    this.makeFirstVisibleActive();
    this.showSelected();
    this.run = runInSlices(() => {
      if (this.rows.length >= model.messages.length) return false;
      this.buildRow(this.rows.length);
      return true;
    });
    void this.run.done.then((finished) => {
      if (!finished) return;
      this.sizeGroups();
      if (this.pendingScroll === undefined) return;
      this.grid.scrollTop = this.pendingScroll;
      this.pendingScroll = undefined;
    });
  }

  /** Builds the row of message `index` (the next one) and puts it in its group. */
  private buildRow(index: number): HTMLElement {
    const m = this.model!.messages[index]!;
    const row = createRow(m, this.rowState(m));
    if (!this.predicate(m)) row.hidden = true;
    if (m.id === this.ui().selectedId) markSelected(row, true);
    this.rows.push(row);
    const g = Math.floor(index / ROWS_PER_GROUP);
    let group = this.groups[g];
    if (!group) {
      group = h('div', { className: 'row-group', attrs: { role: 'rowgroup' } });
      this.groups.push(group);
      this.grid.appendChild(group);
    }
    group.appendChild(row);
    return row;
  }

  /** The height a skipped group stands in with: its shown rows at the measured row height, so
   *  the scrollbar is right before the group is ever painted and after filters change. */
  private sizeGroups(): void {
    if (this.rowPx === 0) {
      const shown = this.rows.find((r) => !r.hidden);
      const px = shown?.getBoundingClientRect().height ?? 0;
      if (px > 0) this.rowPx = px;
    }
    const rowPx = this.rowPx || DEFAULT_ROW_PX;
    const focused = document.activeElement instanceof HTMLElement && this.grid.contains(document.activeElement) ? document.activeElement : undefined;
    this.groups.forEach((group, g) => {
      let shown = 0;
      const end = Math.min(this.rows.length, (g + 1) * ROWS_PER_GROUP);
      for (let i = g * ROWS_PER_GROUP; i < end; i++) if (!this.rows[i]!.hidden) shown++;
      if (this.groupShown[g] !== undefined && this.groupShown[g] !== shown) {
        // content-visibility: auto implies contain-intrinsic-size: auto, so a group that was
        // once rendered stands in with its remembered height, which the filter just made
        // wrong. A fresh element remembers nothing.
        const fresh = group.cloneNode(false) as HTMLElement;
        fresh.append(...Array.from(group.childNodes));
        group.replaceWith(fresh);
        this.groups[g] = fresh;
        group = fresh;
      }
      this.groupShown[g] = shown;
      group.style.containIntrinsicSize = `${Math.round(shown * rowPx)}px`;
    });
    if (focused && document.activeElement !== focused && focused.isConnected && !focused.hidden) focused.focus({ preventScroll: true });
  }

  /** Builds every row up to `index` now (keyboard navigation or a reveal got ahead of the slices). */
  private ensureCreated(index: number): void {
    const model = this.model;
    if (!model || index < this.rows.length) return;
    while (this.rows.length <= index && this.rows.length < model.messages.length) this.buildRow(this.rows.length);
  }

  private rowState(m: MessageView): RowState {
    return { pinned: isPinned(this.edits, m), restored: isRestored(this.edits, m.id) };
  }

  // ───────────────────────────── filters ─────────────────────────────

  private makePredicate(): FilterPredicate {
    return makePredicate(this.ui(), (m) => (this.lower[m.index] ??= m.text.toLowerCase()));
  }

  private countShown(): number {
    let n = 0;
    for (const m of this.model?.messages ?? []) if (this.predicate(m)) n++;
    return n;
  }

  private filtersChanged(save = true): void {
    const model = this.model;
    if (!model) return;
    this.predicate = this.makePredicate();
    for (let i = 0; i < this.rows.length; i++) this.rows[i]!.hidden = !this.predicate(model.messages[i]!);
    this.sizeGroups();
    this.filters.setCount(this.countShown(), model.messages.length);
    if (this.active < 0 || this.rows[this.active]?.hidden) this.makeFirstVisibleActive();
    if (save) this.callbacks.uiChanged();
  }

  // ───────────────────────────── focus, selection, keys ─────────────────────────────

  /** Roving tabindex: exactly one row is in the tab order. */
  private setActive(index: number, focus: boolean): void {
    if (!Number.isInteger(index) || index < 0) return;
    this.ensureCreated(index);
    const row = this.rows[index];
    if (!row) return;
    if (this.active !== index) {
      const old = this.rows[this.active];
      if (old) old.tabIndex = -1;
      this.active = index;
    }
    row.tabIndex = 0;
    if (focus) {
      row.focus({ preventScroll: true });
      row.scrollIntoView({ block: 'nearest' });
    }
  }

  private makeFirstVisibleActive(): void {
    const next = this.nextVisible(-1, 1);
    if (next !== undefined) this.setActive(next, false);
  }

  private nextVisible(from: number, step: 1 | -1, count = 1): number | undefined {
    const messages = this.model?.messages ?? [];
    let found: number | undefined;
    let left = count;
    for (let i = from + step; i >= 0 && i < messages.length; i += step) {
      if (!this.predicate(messages[i]!)) continue;
      found = i;
      if (--left === 0) break;
    }
    return found;
  }

  private select(index: number): void {
    const m = this.model?.messages[index];
    if (!m) return;
    const ui = this.ui();
    if (ui.selectedId !== undefined) {
      const old = this.rows.find((r) => r.dataset.id === ui.selectedId);
      if (old) markSelected(old, false);
    }
    ui.selectedId = m.id;
    this.ensureCreated(index);
    markSelected(this.rows[index]!, true);
    this.details.show(m, this.edits.upTo === m.id);
    this.callbacks.uiChanged();
  }

  private showSelected(): void {
    const id = this.ui().selectedId;
    const m = id === undefined ? undefined : this.model?.messages.find((x) => x.id === id);
    this.details.show(m, m !== undefined && this.edits.upTo === m.id);
  }

  private messageOfRow(row: HTMLElement): MessageView | undefined {
    return this.model?.messages[Number(row.dataset.index)];
  }

  private onClick(e: MouseEvent): void {
    const target = e.target as HTMLElement;
    const row = target.closest<HTMLElement>('[role="row"]');
    if (!row) return;
    const m = this.messageOfRow(row);
    if (!m) return;
    const action = target.closest<HTMLElement>('button[data-action]')?.dataset.action;
    if (action) this.act(action, m);
    else {
      this.setActive(m.index, true);
      this.select(m.index);
    }
  }

  private act(action: string, m: MessageView): void {
    if (action === 'pin') this.callbacks.togglePin(m);
    else if (action === 'restore') {
      if (m.decision !== 'kept' || isRestored(this.edits, m.id)) this.callbacks.toggleRestore(m);
    } else if (action === 'diff') this.callbacks.showDiff(m);
  }

  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement;
    const row = target.closest<HTMLElement>('[role="row"]');
    if (!row) return;
    const m = this.messageOfRow(row);
    if (!m) return;
    const onRow = target === row;
    const move = (to: number | undefined) => {
      e.preventDefault();
      if (to !== undefined) this.setActive(to, true);
    };
    switch (e.key) {
      case 'ArrowDown':
        return move(this.nextVisible(m.index, 1));
      case 'ArrowUp':
        return move(this.nextVisible(m.index, -1));
      case 'PageDown':
        return move(this.nextVisible(m.index, 1, PAGE_ROWS));
      case 'PageUp':
        return move(this.nextVisible(m.index, -1, PAGE_ROWS));
      case 'Home':
        return move(this.nextVisible(-1, 1));
      case 'End':
        return move(this.nextVisible(this.model!.messages.length, -1));
    }
    if (onRow) {
      if (e.key === ' ' || e.key === 'Spacebar') {
        e.preventDefault();
        this.act('pin', m);
      } else if (e.key === 'Enter') {
        e.preventDefault();
        this.select(m.index);
      } else if (e.key === 'r' || e.key === 'R') {
        e.preventDefault();
        this.act('restore', m);
      } else if (e.key === 'd' || e.key === 'D') {
        e.preventDefault();
        this.act('diff', m);
      } else if (e.key === 'ArrowRight') {
        e.preventDefault();
        row.querySelector<HTMLButtonElement>('button:not([disabled])')?.focus();
      }
      return;
    }
    // Inside a row: ←/→ move between its buttons, Escape goes back to the row.
    const buttons = [...row.querySelectorAll<HTMLButtonElement>('button:not([disabled])')];
    const at = buttons.indexOf(target as HTMLButtonElement);
    if (e.key === 'ArrowRight' && at >= 0 && at < buttons.length - 1) {
      e.preventDefault();
      buttons[at + 1]!.focus();
    } else if (e.key === 'ArrowLeft' || e.key === 'Escape') {
      e.preventDefault();
      if (e.key === 'ArrowLeft' && at > 0) buttons[at - 1]!.focus();
      else row.focus();
    }
  }
}

function markSelected(row: HTMLElement, selected: boolean): void {
  row.setAttribute('aria-selected', String(selected));
  row.classList.toggle('selected', selected);
}

function sameMessages(a: InspectorModel, b: InspectorModel): boolean {
  if (a.key !== b.key || a.messages.length !== b.messages.length) return false;
  for (let i = 0; i < a.messages.length; i++) if (a.messages[i]!.id !== b.messages[i]!.id) return false;
  return true;
}
