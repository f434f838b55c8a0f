// The eight summary sections as cards. Each shows its text (as text) and token count; "Edit"
// turns it into a text area whose changes are counted again by the host as the person types,
// and the edited text is what Apply sends.

import { SECTION_NAMES, type SectionName } from '../../../src/shared/engineNames';
import type { InspectorEdits, InspectorModel, SectionView } from '../../../src/shared/protocol';
import { button, clear, h } from '../dom/element';
import { formatTokens } from '../dom/format';

/** Text area height bounds, in lines. */
export const EDITOR_MIN_ROWS = 4;
export const EDITOR_MAX_ROWS = 30;
/** Characters a card shows before "Show all": a card shows 18em at a time anyway, and laying
 *  out a long section in full (30 k characters of user messages) made the first paint slow. */
export const CARD_PREVIEW_CHARS = 3000;

export interface SectionCallbacks {
  edited(name: SectionName, text: string): void;
  reverted(name: SectionName): void;
}

/** The live count of an edited section: a number once the host answered, 'counting' before. */
export type LiveCount = number | 'counting' | 'failed';

interface Card {
  root: HTMLElement;
  tokens: HTMLElement;
  body: HTMLElement;
  editButton: HTMLButtonElement;
  revertButton: HTMLButtonElement;
  editor: HTMLTextAreaElement | undefined;
  /** The person asked to see all of a long text. */
  expanded: boolean;
}

function cardId(name: SectionName): string {
  return `section-${SECTION_NAMES.indexOf(name)}`;
}

export class SectionCards {
  readonly element: HTMLElement;
  private readonly cards = new Map<SectionName, Card>();
  private model: InspectorModel | undefined;
  private edits: InspectorEdits | undefined;
  private live: Partial<Record<SectionName, LiveCount>> = {};

  constructor(private readonly callbacks: SectionCallbacks) {
    this.element = h('div', { className: 'cards' });
    for (const name of SECTION_NAMES) {
      const card = this.createCard(name);
      this.cards.set(name, card);
      this.element.appendChild(card.root);
    }
  }

  show(model: InspectorModel, edits: InspectorEdits, live: Partial<Record<SectionName, LiveCount>>): void {
    this.model = model;
    this.edits = edits;
    this.live = live;
    for (const s of model.sections) this.renderCard(s);
  }

  /** Updates the token badges only (a recount answered). */
  showCounts(live: Partial<Record<SectionName, LiveCount>>): void {
    this.live = live;
    for (const s of this.model?.sections ?? []) this.renderTokens(s);
  }

  private createCard(name: SectionName): Card {
    const headingId = `${cardId(name)}-h`;
    const tokens = h('span', { className: 'card-tokens' });
    const editButton = button('Edit', { attrs: { 'aria-label': `Edit ${name}`, 'data-action': 'edit-section' } });
    const revertButton = button('Revert', { attrs: { 'aria-label': `Revert ${name} to the computed text`, 'data-action': 'revert-section' } });
    const body = h('div', { className: 'card-body' });
    const root = h(
      'article',
      { className: 'card', attrs: { id: cardId(name), 'aria-labelledby': headingId, 'data-section': name } },
      h(
        'header',
        { className: 'card-head' },
        h('h3', { text: name, attrs: { id: headingId } }),
        tokens,
        h('span', { className: 'card-actions' }, editButton, revertButton),
      ),
      body,
    );
    const card: Card = { root, tokens, body, editButton, revertButton, editor: undefined, expanded: false };
    editButton.addEventListener('click', () => (card.editor ? this.closeEditor(name) : this.openEditor(name)));
    revertButton.addEventListener('click', () => {
      this.callbacks.reverted(name);
      if (card.editor) card.editor.value = this.computedText(name);
      const s = this.model?.sections.find((x) => x.name === name);
      if (s) this.renderCard(s);
    });
    return card;
  }

  private computedText(name: SectionName): string {
    return this.model?.sections.find((s) => s.name === name)?.text ?? '';
  }

  private shownText(name: SectionName): string {
    return this.edits?.sections[name] ?? this.computedText(name);
  }

  private renderCard(s: SectionView): void {
    const card = this.cards.get(s.name)!;
    const edited = this.edits?.sections[s.name] !== undefined;
    card.root.classList.toggle('edited', edited);
    card.revertButton.hidden = !edited;
    this.renderTokens(s);
    if (card.editor) {
      if (card.editor.value !== this.shownText(s.name)) card.editor.value = this.shownText(s.name);
      return;
    }
    clear(card.body);
    const text = this.shownText(s.name);
    if (!text) {
      card.body.appendChild(h('p', { className: 'empty', text: 'Nothing for this section.' }));
      return;
    }
    if (card.expanded || text.length <= CARD_PREVIEW_CHARS) {
      card.body.appendChild(h('div', { className: 'card-text', text, attrs: card.expanded ? { tabindex: -1 } : {} }));
      return;
    }
    // Cut at a line end when there is one in the second half of the preview.
    const lineEnd = text.lastIndexOf('\n', CARD_PREVIEW_CHARS);
    const at = lineEnd > CARD_PREVIEW_CHARS / 2 ? lineEnd : CARD_PREVIEW_CHARS;
    const more = button(`Show all (${formatTokens(text.length - at)} more characters)`, {
      attrs: { 'data-action': 'expand-section', 'aria-label': `Show all of ${s.name}` },
    });
    more.addEventListener('click', () => {
      card.expanded = true;
      this.renderCard(s);
      card.body.querySelector<HTMLElement>('.card-text')?.focus();
    });
    card.body.append(h('div', { className: 'card-text', text: text.slice(0, at), attrs: { tabindex: -1 } }), more);
  }

  private renderTokens(s: SectionView): void {
    const card = this.cards.get(s.name)!;
    const live = this.live[s.name];
    const edited = this.edits?.sections[s.name] !== undefined;
    if (!edited || live === undefined) card.tokens.textContent = `${formatTokens(s.tokens)} tokens`;
    else if (live === 'counting') card.tokens.textContent = `${formatTokens(s.tokens)} tokens · counting…`;
    else if (live === 'failed') card.tokens.textContent = `${formatTokens(s.tokens)} tokens · recount failed`;
    else card.tokens.textContent = `${formatTokens(live)} tokens (edited, was ${formatTokens(s.tokens)})`;
  }

  private openEditor(name: SectionName): void {
    const card = this.cards.get(name)!;
    const editor = h('textarea', { className: 'editor', attrs: { 'aria-label': `${name} (editable)`, spellcheck: 'true' } });
    editor.value = this.shownText(name);
    const fit = () => {
      editor.rows = Math.min(EDITOR_MAX_ROWS, Math.max(EDITOR_MIN_ROWS, editor.value.split('\n').length + 1));
    };
    fit();
    editor.addEventListener('input', () => {
      fit();
      this.callbacks.edited(name, editor.value);
    });
    editor.addEventListener('keydown', (e) => {
      // Escape or Ctrl/Cmd+Enter leave the editor; the text stays edited.
      if (e.key === 'Escape' || (e.key === 'Enter' && (e.ctrlKey || e.metaKey))) {
        e.preventDefault();
        this.closeEditor(name);
      }
    });
    card.editor = editor;
    card.editButton.textContent = 'Done';
    card.editButton.setAttribute('aria-label', `Finish editing ${name}`);
    clear(card.body);
    card.body.appendChild(editor);
    editor.focus();
  }

  private closeEditor(name: SectionName): void {
    const card = this.cards.get(name)!;
    card.editor = undefined;
    card.editButton.textContent = 'Edit';
    card.editButton.setAttribute('aria-label', `Edit ${name}`);
    const s = this.model?.sections.find((x) => x.name === name);
    if (s) this.renderCard(s);
    card.editButton.focus();
  }
}
