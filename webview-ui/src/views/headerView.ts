// The top of the inspector: what the compaction does in numbers, and the only buttons that
// change anything (Apply, Undo) next to Cancel.

import type { InspectorModel } from '../../../src/shared/protocol';
import { button, clear, h } from '../dom/element';
import { formatPercent, formatTokens } from '../dom/format';

export interface HeaderActions {
  apply(): void;
  cancel(): void;
  undo(): void;
  refresh(): void;
}

export interface HeaderFigures {
  /** Tokens after, with section edits counted in (undefined: no section edits). */
  editedAfter?: number;
  editCount: number;
  busy?: string;
  stale: boolean;
}

export class HeaderView {
  readonly element: HTMLElement;
  private readonly title: HTMLElement;
  private readonly stats: HTMLElement;
  private readonly applyButton: HTMLButtonElement;
  private readonly cancelButton: HTMLButtonElement;
  private readonly undoButton: HTMLButtonElement;
  private readonly refreshButton: HTMLButtonElement;
  private readonly editInfo: HTMLElement;
  private readonly status: HTMLElement;
  private readonly alert: HTMLElement;

  constructor(actions: HeaderActions) {
    this.title = h('h1', { text: 'Context Compactor: Inspector' });
    this.stats = h('dl', { className: 'stats' });
    this.applyButton = button('Apply', { variant: 'primary', attrs: { 'data-action': 'apply' } });
    this.cancelButton = button('Cancel', { attrs: { 'data-action': 'cancel', title: 'Discard the edits and close the inspector; nothing changes' } });
    this.undoButton = button('Undo', { attrs: { 'data-action': 'undo', title: 'Restore the conversation as it was before the last compaction' } });
    this.refreshButton = button('Refresh preview', { attrs: { 'data-action': 'refresh' } });
    this.applyButton.addEventListener('click', () => actions.apply());
    this.cancelButton.addEventListener('click', () => actions.cancel());
    this.undoButton.addEventListener('click', () => actions.undo());
    this.refreshButton.addEventListener('click', () => actions.refresh());
    this.editInfo = h('span', { className: 'edit-info' });
    this.status = h('p', { className: 'status', attrs: { role: 'status', 'aria-live': 'polite' } });
    this.alert = h('p', { className: 'alert', attrs: { role: 'alert' } });
    this.alert.hidden = true;
    this.element = h(
      'header',
      { className: 'top' },
      h('div', { className: 'title-line' }, this.title),
      this.stats,
      h(
        'div',
        { className: 'action-bar', attrs: { role: 'toolbar', 'aria-label': 'Compaction actions' } },
        this.applyButton,
        this.cancelButton,
        this.undoButton,
        this.refreshButton,
        this.editInfo,
      ),
      this.status,
      this.alert,
    );
    this.undoButton.hidden = true;
    this.refreshButton.hidden = true;
  }

  show(model: InspectorModel, f: HeaderFigures): void {
    const h0 = model.header;
    this.title.textContent = `Inspector — ${model.label}`;
    clear(this.stats);
    const pair = (term: string, value: string, className?: string) => {
      this.stats.appendChild(h('div', { className: 'stat' }, h('dt', { text: term }), h('dd', { text: value, ...(className ? { className } : {}) })));
    };
    const after =
      f.editedAfter !== undefined ? `${formatTokens(h0.tokensAfter)} (≈ ${formatTokens(f.editedAfter)} with your edits)` : formatTokens(h0.tokensAfter);
    pair('Tokens', `${formatTokens(h0.tokensBefore)} → ${after}`, 'tokens-figure');
    // What the agent sends besides the file (its system prompt and tools): in both figures, never shrunk.
    if (h0.notInFile) pair('Not in the file', `${formatTokens(h0.notInFile.before)} of each (system prompt, tools)`, 'not-in-file');
    pair('Ratio', h0.ratio);
    pair('Retention', formatPercent(h0.retention));
    pair('Loss', h0.lossAcceptable ? h0.lossLevel : `${h0.lossLevel} (not acceptable)`, `loss loss-${h0.lossLevel}`);
    pair('Strategy', h0.level ? `${h0.strategy} · ${h0.level}` : h0.strategy);
    pair(
      'Summarizer',
      [h0.summarizer, h0.summarizerModel].filter(Boolean).join(' · ') + (h0.summarizerFallback ? ` (fell back: ${h0.summarizerFallback})` : ''),
    );
    pair('Model', h0.countMethod && h0.countMethod !== 'exact' ? `${h0.model} (${h0.countMethod} count)` : h0.model);
    // What gave way to meet the target, step by step.
    if (h0.degradation.length > 0) pair('To fit the target', h0.degradation.map((d) => d.detail).join('; '), 'degradation');
    const applied = model.phase === 'applied';
    this.applyButton.disabled = applied || f.busy !== undefined;
    this.applyButton.textContent = applied ? 'Applied' : 'Apply';
    this.undoButton.hidden = !model.canUndo;
    this.undoButton.disabled = f.busy !== undefined;
    this.refreshButton.hidden = !f.stale;
    this.editInfo.textContent = f.editCount === 0 ? '' : `${f.editCount} edit${f.editCount === 1 ? '' : 's'} not applied yet`;
  }

  /** Before any model: no actions but Cancel. */
  showEmpty(message: string): void {
    this.title.textContent = 'Context Compactor: Inspector';
    clear(this.stats);
    this.applyButton.disabled = true;
    this.undoButton.hidden = true;
    this.refreshButton.hidden = true;
    this.editInfo.textContent = '';
    this.setStatus(message);
  }

  setStatus(text: string): void {
    this.status.textContent = text;
  }

  setAlert(text: string | undefined): void {
    this.alert.textContent = text ?? '';
    this.alert.hidden = !text;
  }
}
