// The webview's UI state (InspectorUiState in the protocol): filters, selection, scroll, diff
// mode and edits in progress, saved with vscode.setState so a reload or a hidden tab keeps them.
// Never the conversation itself: that always comes from the host.

import { SECTION_NAMES, type Decision, type Role, type SectionName } from '../../../src/shared/engineNames';
import type { InspectorEdits, InspectorUiState } from '../../../src/shared/protocol';
import { loadSavedState, saveState } from '../host/vscodeApi';

/** Saving on every keystroke would serialize the edits each time; a short pause is enough. */
export const SAVE_DELAY_MS = 200;

const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];
const DECISIONS: readonly Decision[] = ['kept', 'summarized', 'truncated', 'masked', 'dropped', 'offloaded'];

export function emptyEdits(): InspectorEdits {
  return { sections: {}, restore: [], pin: [], unpin: [], offload: [] };
}

export function defaultUiState(key?: string): InspectorUiState {
  const s: InspectorUiState = { version: 1, roles: [], decisions: [], search: '', timelineScroll: 0, diffMode: 'unified', edits: emptyEdits() };
  if (key !== undefined) s.key = key;
  return s;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Reads saved state defensively: an older or damaged state falls back to defaults field by field. */
export function readUiState(raw: unknown): InspectorUiState {
  const s = defaultUiState();
  if (typeof raw !== 'object' || raw === null) return s;
  const r = raw as Record<string, unknown>;
  if (typeof r.key === 'string') s.key = r.key;
  s.roles = strings(r.roles).filter((x): x is Role => (ROLES as readonly string[]).includes(x));
  s.decisions = strings(r.decisions).filter((x): x is Decision => (DECISIONS as readonly string[]).includes(x));
  if (typeof r.search === 'string') s.search = r.search;
  if (typeof r.selectedId === 'string') s.selectedId = r.selectedId;
  if (typeof r.timelineScroll === 'number' && Number.isFinite(r.timelineScroll)) s.timelineScroll = r.timelineScroll;
  if (r.diffMode === 'split') s.diffMode = 'split';
  if (typeof r.diffScope === 'string') s.diffScope = r.diffScope;
  const e = r.edits as Record<string, unknown> | undefined;
  if (e && typeof e === 'object') {
    const sections = e.sections as Record<string, unknown> | undefined;
    if (sections && typeof sections === 'object') {
      for (const name of SECTION_NAMES) {
        const t = sections[name];
        if (typeof t === 'string') s.edits.sections[name as SectionName] = t;
      }
    }
    s.edits.restore = strings(e.restore);
    s.edits.pin = strings(e.pin);
    s.edits.unpin = strings(e.unpin);
    s.edits.offload = strings(e.offload);
    if (typeof e.upTo === 'string') s.edits.upTo = e.upTo;
  }
  return s;
}

export class UiStateStore {
  private timer: ReturnType<typeof setTimeout> | undefined;
  state: InspectorUiState;

  constructor() {
    this.state = readUiState(loadSavedState());
  }

  /** Marks the state changed; it is saved shortly after. */
  changed(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
  }

  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    saveState(this.state);
  }

  /** A different conversation: its own fresh state, keeping only the diff mode preference. */
  resetFor(key: string): void {
    const mode = this.state.diffMode;
    this.state = defaultUiState(key);
    this.state.diffMode = mode;
    this.flush();
  }
}
