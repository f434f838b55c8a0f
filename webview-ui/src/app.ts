// The inspector webview's controller: holds the host's model and the person's edits, and wires
// the views to the host channel. Nothing here changes the conversation except Apply and Undo,
// which only the host carries out.

import type { SectionName } from '../../src/shared/engineNames';
import type { DiffMode, HostNotification, InspectorModel, MessageView } from '../../src/shared/protocol';
import { h } from './dom/element';
import { formatTokens } from './dom/format';
import { HostChannel, HostRequestError } from './host/hostChannel';
import { afterNextPaint } from './scheduling/timeSlices';
import { editCount, planEditKey, revertSection, setSectionText, setUpTo, toggleOffload, togglePin, toggleRestore } from './state/edits';
import { UiStateStore, emptyEdits } from './state/uiState';
import { ContextPane } from './views/contextPane';
import { DiffView } from './views/diffView';
import { HeaderView } from './views/headerView';
import { MissingFacts } from './views/missingFacts';
import { SectionCards, type LiveCount } from './views/sectionCards';
import { Timeline } from './views/timeline';

/** Pause after the last keystroke before the host recounts an edited section. */
export const RECOUNT_DELAY_MS = 250;
/** Pause after the last pin/restore toggle before asking for a new preview (toggles coalesce). */
export const REPREVIEW_DELAY_MS = 300;

export class InspectorApp {
  private readonly channel: HostChannel;
  private readonly store = new UiStateStore();
  private readonly header: HeaderView;
  private readonly sections: SectionCards;
  private readonly timeline: Timeline;
  private readonly facts: MissingFacts;
  private readonly diff: DiffView;
  private readonly context: ContextPane;
  private readonly body: HTMLElement;
  private model: InspectorModel | undefined;
  private live: Partial<Record<SectionName, LiveCount>> = {};
  private busy: string | undefined;
  private stale = false;
  private recountTimer: ReturnType<typeof setTimeout> | undefined;
  private recountSeq = 0;
  private previewTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by Cancel: previews asked for before it belong to discarded edits. */
  private generation = 0;
  /** The plan edits the shown model was computed with. */
  private previewedKey = planEditKey(emptyEdits());

  constructor(private readonly root: HTMLElement) {
    this.channel = new HostChannel((n) => this.onNotification(n));
    this.header = new HeaderView({
      apply: () => void this.apply(),
      cancel: () => this.cancel(),
      undo: () => void this.undo(),
      refresh: () => void this.preview(),
    });
    this.sections = new SectionCards({
      edited: (name, text) => {
        setSectionText(this.edits, name, text);
        this.live[name] = 'counting';
        this.sections.showCounts(this.live);
        this.editsChanged();
        this.scheduleRecount();
      },
      reverted: (name) => {
        revertSection(this.edits, name);
        delete this.live[name];
        this.editsChanged();
      },
    });
    this.timeline = new Timeline(() => this.store.state, {
      togglePin: (m) => this.togglePin(m),
      toggleRestore: (m) => this.toggleRestore(m.id),
      showDiff: (m) => this.showDiffOf(m),
      compactUpTo: (m) => {
        setUpTo(this.edits, this.edits.upTo === m.id ? undefined : m.id);
        this.planEditsChanged();
      },
      uiChanged: () => this.store.changed(),
    });
    this.context = new ContextPane({
      reveal: (id) => this.timeline.reveal(id),
      toggleOffload: (id) => {
        toggleOffload(this.edits, id);
        this.planEditsChanged();
      },
      wholeConversation: () => {
        setUpTo(this.edits, undefined);
        this.edits.offload = [];
        this.planEditsChanged();
      },
    });
    this.facts = new MissingFacts({
      reveal: (id) => this.timeline.reveal(id),
      restore: (id) => this.toggleRestore(id),
    });
    this.diff = new DiffView({
      reveal: (id) => this.timeline.reveal(id),
      modeChanged: (mode: DiffMode) => {
        this.store.state.diffMode = mode;
        this.store.changed();
        this.diff.setMode(mode);
      },
      scopeChanged: (id) => this.setDiffScope(id),
    });
    const summaryPane = h(
      'section',
      { className: 'pane sections-pane', attrs: { 'aria-labelledby': 'sections-h' } },
      h('h2', { text: 'Summary sections', attrs: { id: 'sections-h' } }),
      this.sections.element,
    );
    const timelinePane = h(
      'section',
      { className: 'pane timeline-pane', attrs: { 'aria-labelledby': 'timeline-h' } },
      h('h2', { text: 'Timeline', attrs: { id: 'timeline-h' } }),
      this.timeline.element,
    );
    this.body = h(
      'div',
      { className: 'body' },
      this.context.element,
      h('div', { className: 'columns-2' }, summaryPane, timelinePane),
      this.facts.element,
      this.diff.element,
    );
    this.body.hidden = true;
    root.replaceChildren(this.header.element, this.body);
    root.setAttribute('aria-busy', 'true');
    this.header.showEmpty('Waiting for the extension…');
    window.addEventListener('pagehide', () => this.store.flush());
    this.channel.notify({ type: 'ready' });
  }

  private get edits() {
    return this.store.state.edits;
  }

  // ───────────────────────────── from the host ─────────────────────────────

  private onNotification(n: HostNotification): void {
    switch (n.type) {
      case 'init':
        if (n.model) {
          this.showModel(n.model, 'init');
          // "Show Context Chart": the chart in view once it is drawn.
          if (n.reveal === 'chart') void afterNextPaint().then(() => this.context.chart.reveal());
        } else {
          this.model = undefined;
          this.body.hidden = true;
          this.root.setAttribute('aria-busy', 'false');
          this.header.showEmpty(n.message ?? 'Nothing to show.');
        }
        return;
      case 'busy':
        this.busy = n.busy ? (n.label ?? 'Working…') : undefined;
        this.root.setAttribute('aria-busy', String(n.busy));
        this.header.setStatus(this.busy ?? '');
        this.refreshHeader();
        return;
      case 'stale':
        this.stale = true;
        this.header.setStatus(`${n.reason} Refresh the preview to see the current state.`);
        this.refreshHeader();
        return;
      case 'error':
        this.header.setAlert(n.message);
        return;
    }
  }

  private showModel(model: InspectorModel, why: 'init' | 'preview' | 'apply' | 'undo'): void {
    performance.mark('inspector:model-received');
    if (this.store.state.key !== model.key) {
      this.store.resetFor(model.key);
      this.live = {};
    }
    if (model.phase === 'applied') {
      // What was applied is the result now: the edits are spent, at once and for good — a
      // recount or re-preview still waiting would only resurrect them.
      this.stopDebounced();
      this.recountSeq++;
      this.store.state.edits = emptyEdits();
      this.live = {};
      this.store.flush();
    }
    this.model = model;
    this.stale = false;
    this.previewedKey = why === 'init' ? planEditKey(emptyEdits()) : planEditKey(this.edits);
    this.body.hidden = false;
    this.root.setAttribute('aria-busy', 'false');
    this.header.setAlert(undefined);
    if (this.busy === undefined) this.header.setStatus(model.phase === 'applied' ? 'Applied.' : 'Preview: nothing changes until you apply.');
    this.refreshHeader();
    this.context.show(model, this.edits);
    this.sections.show(model, this.edits, this.live);
    this.timeline.show(model, this.edits);
    void this.timeline.complete.then((finished) => {
      if (finished) performance.measure('inspector:timeline-complete', 'inspector:model-received');
    });
    this.facts.show(model, this.edits);
    void afterNextPaint().then(() => {
      performance.measure('inspector:first-render', 'inspector:model-received');
      // The diff is the heaviest view: it starts once the rest is on screen.
      this.diff.show(model, this.store.state.diffMode, this.diffScopeFor(model));
    });
    if (why === 'init') {
      // Restored edits (after a reload) need their own preview and counts.
      if (planEditKey(this.edits) !== this.previewedKey) this.schedulePreview();
      if (Object.keys(this.edits.sections).length > 0) this.scheduleRecount();
    }
  }

  private diffScopeFor(model: InspectorModel): string | undefined {
    const scope = this.store.state.diffScope;
    return scope !== undefined && model.messages.some((m) => m.id === scope) ? scope : undefined;
  }

  // ───────────────────────────── edits ─────────────────────────────

  private togglePin(m: MessageView): void {
    togglePin(this.edits, m);
    this.planEditsChanged();
  }

  private toggleRestore(id: string): void {
    toggleRestore(this.edits, id);
    this.planEditsChanged();
  }

  private planEditsChanged(): void {
    this.timeline.refresh();
    if (this.model) {
      this.facts.show(this.model, this.edits);
      this.context.refresh(this.model, this.edits);
    }
    this.editsChanged();
    this.schedulePreview();
  }

  private editsChanged(): void {
    this.store.changed();
    this.refreshHeader();
  }

  private refreshHeader(): void {
    if (!this.model) return;
    const figures = {
      editCount: editCount(this.edits),
      stale: this.stale,
      ...(this.busy !== undefined ? { busy: this.busy } : {}),
    };
    const edited = this.editedAfter();
    this.header.show(this.model, edited === undefined ? figures : { ...figures, editedAfter: edited });
  }

  /** Tokens after, with the recounted sections in place of the computed ones. */
  private editedAfter(): number | undefined {
    const model = this.model;
    if (!model) return undefined;
    let delta = 0;
    let any = false;
    for (const s of model.sections) {
      const live = this.live[s.name];
      if (this.edits.sections[s.name] === undefined || typeof live !== 'number') continue;
      any = true;
      delta += live - s.tokens;
    }
    return any ? model.header.tokensAfter + delta : undefined;
  }

  private scheduleRecount(): void {
    if (this.recountTimer !== undefined) clearTimeout(this.recountTimer);
    this.recountTimer = setTimeout(() => {
      this.recountTimer = undefined;
      void this.recount();
    }, RECOUNT_DELAY_MS);
  }

  private async recount(): Promise<void> {
    const seq = ++this.recountSeq;
    const sections = { ...this.edits.sections };
    try {
      const { tokens } = await this.channel.request('countSections', { sections });
      // An answer to an older request would show counts for text that is gone.
      if (seq !== this.recountSeq) return;
      for (const [name, n] of Object.entries(tokens) as [SectionName, number][]) {
        if (this.edits.sections[name] === sections[name]) this.live[name] = n;
      }
    } catch (err) {
      if (seq !== this.recountSeq) return;
      for (const name of Object.keys(sections) as SectionName[]) this.live[name] = 'failed';
      if (!(err instanceof HostRequestError && err.cancelled)) this.header.setAlert(`Could not recount the sections: ${(err as Error).message}`);
    }
    this.sections.showCounts(this.live);
    this.refreshHeader();
  }

  private schedulePreview(): void {
    if (this.previewTimer !== undefined) clearTimeout(this.previewTimer);
    this.previewTimer = setTimeout(() => {
      this.previewTimer = undefined;
      void this.preview();
    }, REPREVIEW_DELAY_MS);
  }

  private async preview(): Promise<void> {
    const generation = this.generation;
    try {
      const { model } = await this.channel.request('preview', { edits: structuredClone(this.edits) });
      // Computed with edits that Cancel has since thrown away.
      if (generation !== this.generation) return;
      this.showModel(model, 'preview');
    } catch (err) {
      if (generation !== this.generation || (err instanceof HostRequestError && err.cancelled)) return;
      this.header.setAlert(`The preview failed: ${(err as Error).message}`);
    }
  }

  // ───────────────────────────── actions ─────────────────────────────

  private async apply(): Promise<void> {
    if (!this.model || this.model.phase === 'applied') return;
    // Apply sends the edits as they are now; the host recounts and re-validates them itself.
    this.stopDebounced();
    try {
      const before = this.model.header.tokensBefore;
      const { model } = await this.channel.request('apply', { edits: structuredClone(this.edits) });
      this.showModel(model, 'apply');
      this.header.setStatus(`Applied: ${formatTokens(before)} → ${formatTokens(model.header.tokensAfter)} tokens. Undo restores the original.`);
    } catch (err) {
      if (err instanceof HostRequestError && err.cancelled) return;
      this.header.setAlert(`Apply failed; nothing was changed. ${(err as Error).message}`);
    }
  }

  private async undo(): Promise<void> {
    try {
      const r = await this.channel.request('undo', {});
      if (!r.undone) {
        this.header.setStatus('Nothing to undo.');
        return;
      }
      if (r.model) this.showModel(r.model, 'undo');
      this.header.setStatus('Undone: the original conversation is back.');
    } catch (err) {
      if (err instanceof HostRequestError && err.cancelled) return;
      this.header.setAlert(`Undo failed: ${(err as Error).message}`);
    }
  }

  /** Discards the edits and closes; the host changes nothing. Debounced work still waiting is
   *  dropped, so nothing follows `cancel`; answers to requests already sent are ignored. */
  private cancel(): void {
    this.stopDebounced();
    this.generation++;
    this.recountSeq++;
    this.store.state.edits = emptyEdits();
    this.live = {};
    this.store.flush();
    this.channel.notify({ type: 'cancel' });
    // The host normally closes the panel; if it stays, it shows the computed preview again.
    const model = this.model;
    if (model) {
      this.context.show(model, this.edits);
      this.sections.show(model, this.edits, this.live);
      this.timeline.show(model, this.edits);
      this.facts.show(model, this.edits);
      this.refreshHeader();
    }
  }

  /** Drops the recount and re-preview still waiting for their pause. */
  private stopDebounced(): void {
    if (this.recountTimer !== undefined) clearTimeout(this.recountTimer);
    if (this.previewTimer !== undefined) clearTimeout(this.previewTimer);
    this.recountTimer = undefined;
    this.previewTimer = undefined;
  }

  private showDiffOf(m: MessageView): void {
    this.setDiffScope(m.id);
    this.diff.element.scrollIntoView({ block: 'start' });
  }

  private setDiffScope(id: string | undefined): void {
    if (id === undefined) delete this.store.state.diffScope;
    else this.store.state.diffScope = id;
    this.store.changed();
    this.diff.setScope(id);
  }
}
