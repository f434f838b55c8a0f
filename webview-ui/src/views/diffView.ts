// The diff pane: the whole conversation or one message, unified or side by side. Blocks are
// computed and rendered in time slices (diff/conversationDiff.ts explains the alignment); long
// blocks show their first lines until asked for more, so the DOM stays small.

import type { Change } from 'diff';
import type { DiffMode, InspectorModel } from '../../../src/shared/protocol';
import {
  addToStats,
  alignMessages,
  blockLines,
  computeBlock,
  emptyStats,
  pairLines,
  wordChanges,
  type DiffBlock,
  type DiffLine,
  type DiffStats,
} from '../diff/conversationDiff';
import { button, clear, h, setPressed } from '../dom/element';
import { formatTokens } from '../dom/format';
import { afterNextPaint, runInSlices, type SlicedRun } from '../scheduling/timeSlices';

/** In the whole-conversation view, a run of removed lines shows this many, then an expander. */
export const REMOVED_RUN_LINES = 6;
/** A run of added lines (the summary, a replacement) shows this many, then an expander. */
export const ADDED_RUN_LINES = 40;
/** Unchanged lines kept around a change inside a message (like a unified diff's context). */
export const CONTEXT_LINES = 3;
/** Lines one message shows in its own diff before an expander. */
export const SCOPED_BLOCK_LINES = 2000;
/** Lines each expander click adds. */
export const MORE_LINES = 500;
/** Characters of one line shown; the rest is summarized (the details pane has the full text). */
export const LINE_CHARS = 2000;
/** Blocks per group: the group is what the browser skips off screen (content-visibility). One
 *  per block made Chromium's visibility bookkeeping O(blocks) on every frame of a long build. */
export const BLOCKS_PER_GROUP = 50;

/** Consecutive lines shown as they are, or hidden behind an expander. */
type Chunk = { shown: DiffLine[] } | { hidden: DiffLine[]; what: string };

/** Splits a block's lines into what shows at first and what waits behind expanders. */
export function condense(lines: readonly DiffLine[], kind: DiffBlock['kind'], scoped: boolean): Chunk[] {
  if (scoped) {
    const chunks: Chunk[] = [{ shown: lines.slice(0, SCOPED_BLOCK_LINES) }];
    if (lines.length > SCOPED_BLOCK_LINES) chunks.push({ hidden: lines.slice(SCOPED_BLOCK_LINES), what: 'lines' });
    return chunks;
  }
  if (kind === 'unchanged') return lines.length ? [{ hidden: [...lines], what: 'unchanged lines' }] : [];
  const chunks: Chunk[] = [];
  const show = (ls: DiffLine[]) => {
    if (ls.length === 0) return;
    const last = chunks[chunks.length - 1];
    if (last && 'shown' in last) last.shown.push(...ls);
    else chunks.push({ shown: [...ls] });
  };
  const hide = (ls: DiffLine[], what: string) => {
    if (ls.length) chunks.push({ hidden: ls, what });
  };
  let i = 0;
  while (i < lines.length) {
    const op = lines[i]!.op;
    let j = i;
    while (j < lines.length && lines[j]!.op === op) j++;
    const run = lines.slice(i, j);
    if (op === 'del') {
      show(run.slice(0, REMOVED_RUN_LINES));
      hide(run.slice(REMOVED_RUN_LINES), 'more removed lines');
    } else if (op === 'add') {
      show(run.slice(0, ADDED_RUN_LINES));
      hide(run.slice(ADDED_RUN_LINES), 'more added lines');
    } else {
      // Context: keep what touches a change, hide the middle.
      const head = i === 0 ? 0 : CONTEXT_LINES;
      const tail = j === lines.length ? 0 : CONTEXT_LINES;
      if (run.length <= head + tail + 1) show(run);
      else {
        show(run.slice(0, head));
        hide(run.slice(head, run.length - tail), 'unchanged lines');
        show(run.slice(run.length - tail));
      }
    }
    i = j;
  }
  return chunks;
}

export interface DiffCallbacks {
  reveal(id: string): void;
  modeChanged(mode: DiffMode): void;
  scopeChanged(id: string | undefined): void;
}

export class DiffView {
  readonly element: HTMLElement;
  private readonly unifiedButton: HTMLButtonElement;
  private readonly splitButton: HTMLButtonElement;
  private readonly wholeButton: HTMLButtonElement;
  private readonly scopeLabel: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly content: HTMLElement;
  private model: InspectorModel | undefined;
  private blocks: DiffBlock[] = [];
  private stats: DiffStats | undefined;
  private mode: DiffMode = 'unified';
  private scope: string | undefined;
  private run: SlicedRun | undefined;
  private measured = false;

  constructor(private readonly callbacks: DiffCallbacks) {
    this.unifiedButton = button('Unified', { pressed: true, attrs: { 'data-action': 'diff-unified' } });
    this.splitButton = button('Side by side', { pressed: false, attrs: { 'data-action': 'diff-split' } });
    this.unifiedButton.addEventListener('click', () => this.callbacks.modeChanged('unified'));
    this.splitButton.addEventListener('click', () => this.callbacks.modeChanged('split'));
    this.wholeButton = button('Whole conversation', { attrs: { 'data-action': 'diff-whole' } });
    this.wholeButton.addEventListener('click', () => this.callbacks.scopeChanged(undefined));
    this.scopeLabel = h('span', { className: 'scope-label' });
    this.summary = h('p', { className: 'diff-summary', attrs: { 'aria-live': 'polite' } });
    this.content = h('div', { className: 'diff-content', attrs: { role: 'region', 'aria-label': 'Differences', tabindex: 0 } });
    this.element = h(
      'section',
      { className: 'pane diff-pane', attrs: { 'aria-labelledby': 'diff-h' } },
      h('h2', { text: 'Diff', attrs: { id: 'diff-h' } }),
      h(
        'div',
        { className: 'diff-toolbar' },
        h('div', { className: 'toggle-group', attrs: { role: 'group', 'aria-label': 'Diff layout' } }, this.unifiedButton, this.splitButton),
        this.scopeLabel,
        this.wholeButton,
      ),
      this.summary,
      this.content,
    );
  }

  /** A new model: realign and render. */
  show(model: InspectorModel, mode: DiffMode, scope: string | undefined): void {
    this.model = model;
    this.mode = mode;
    this.scope = scope;
    performance.mark('inspector:diff-start');
    this.measured = false;
    this.blocks = alignMessages(model.messages, model.after);
    this.stats = undefined;
    this.render();
  }

  setMode(mode: DiffMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.render();
  }

  setScope(scope: string | undefined): void {
    this.scope = scope;
    this.render();
  }

  /** Resolves when the current rendering finished. */
  get complete(): Promise<boolean> {
    return this.run?.done ?? Promise.resolve(true);
  }

  private inScope(): DiffBlock[] {
    if (this.scope === undefined) return this.blocks;
    return this.blocks.filter((b) => b.before?.id === this.scope || (b.before === undefined && b.after?.id === this.scope));
  }

  private render(): void {
    this.run?.cancel();
    setPressed(this.unifiedButton, this.mode === 'unified');
    setPressed(this.splitButton, this.mode === 'split');
    clear(this.content);
    this.content.classList.toggle('split', this.mode === 'split');
    const scoped = this.scope !== undefined;
    const blocks = this.inScope();
    const m = scoped ? this.model?.messages.find((x) => x.id === this.scope) : undefined;
    this.scopeLabel.textContent = scoped ? (m ? `Message #${m.index} (${m.role})` : 'One message') : 'Whole conversation';
    this.wholeButton.hidden = !scoped;
    if (scoped && m && (m.decision === 'summarized' || m.decision === 'dropped')) {
      this.content.appendChild(
        h('p', {
          className: 'note',
          text:
            m.decision === 'summarized'
              ? 'This message is folded into the summary: its facts are in the section cards above.'
              : 'This message is dropped from the result (the archive keeps it for undo).',
        }),
      );
    }
    const stats = this.stats ?? emptyStats();
    const counting = this.stats === undefined;
    let i = 0;
    let group: HTMLElement | undefined;
    let painted = false;
    this.summary.textContent = scoped ? '' : 'Computing the diff…';
    this.run = runInSlices(() => {
      if (i >= blocks.length) return false;
      const block = blocks[i++]!;
      computeBlock(block);
      if (counting && !scoped) addToStats(stats, block);
      if (!group || group.childElementCount >= BLOCKS_PER_GROUP) {
        group = h('div', { className: 'block-group' });
        this.content.appendChild(group);
      }
      group.appendChild(this.renderBlock(block, scoped));
      if (!painted) {
        painted = true;
        void afterNextPaint().then(() => {
          if (!this.measured) performance.measure('inspector:diff-first-paint', 'inspector:diff-start');
        });
      }
      return true;
    });
    void this.run.done.then((finished) => {
      if (!finished) return;
      if (!scoped) {
        if (counting) this.stats = stats;
        this.summary.textContent = describeStats(this.stats ?? stats);
        if (!this.measured) {
          this.measured = true;
          performance.mark('inspector:diff-end');
          performance.measure('inspector:diff', 'inspector:diff-start', 'inspector:diff-end');
        }
      }
      if (blocks.length === 0) this.content.appendChild(h('p', { className: 'note', text: 'Nothing to compare.' }));
    });
  }

  private renderBlock(block: DiffBlock, scoped: boolean): HTMLElement {
    const b = block.before;
    const a = block.after;
    const title = b
      ? `#${b.index} ${b.role} · ${block.kind === 'removed' ? b.decision : block.kind === 'changed' ? `${b.decision}, changed` : 'unchanged'} · ${formatTokens(b.tokens)} → ${formatTokens(b.tokensAfter)} tokens`
      : `new · ${a!.role} · ${a!.itemType.toLowerCase().replace(/_/g, ' ')}`;
    const head = h('div', { className: 'block-head' }, h('span', { className: 'block-title', text: title }));
    if (b && !scoped) {
      const show = button('Timeline', { variant: 'icon', attrs: { 'data-action': 'diff-reveal', 'aria-label': `Show message #${b.index} in the timeline` } });
      show.addEventListener('click', () => this.callbacks.reveal(b.id));
      head.appendChild(show);
    }
    const root = h('div', { className: `block block-${block.kind}`, attrs: { 'data-id': b?.id ?? a?.id } }, head);
    const body = h('div', { className: 'block-lines' });
    root.appendChild(body);
    for (const chunk of condense(blockLines(block), block.kind, scoped)) {
      if ('shown' in chunk) this.appendLines(body, chunk.shown);
      else this.appendExpander(body, chunk.hidden, chunk.what);
    }
    return root;
  }

  /** A button standing for hidden lines; clicking shows them (MORE_LINES at a time) in its place. */
  private appendExpander(body: HTMLElement, hidden: DiffLine[], what: string): void {
    const more = button(`⋯ ${formatTokens(hidden.length)} ${hidden.length === 1 ? what.replace(/s$/, '') : what}`, {
      variant: 'icon',
      attrs: { 'data-action': 'diff-more' },
    });
    more.classList.add('expander');
    more.addEventListener('click', () => {
      const rest = document.createElement('div');
      this.appendLines(rest, hidden.slice(0, MORE_LINES));
      if (hidden.length > MORE_LINES) this.appendExpander(rest, hidden.slice(MORE_LINES), what);
      more.replaceWith(...rest.childNodes);
    });
    body.appendChild(more);
  }

  private appendLines(body: HTMLElement, lines: DiffLine[]): void {
    const fragment = document.createDocumentFragment();
    for (const p of pairLines(lines)) {
      const words = p.left && p.right && p.left !== p.right ? wordChanges(p.left.text, p.right.text) : undefined;
      if (this.mode === 'split') {
        fragment.appendChild(h('div', { className: 'dl-pair' }, ...sideCells(p.left, words, 'left'), ...sideCells(p.right, words, 'right')));
      } else if (p.left === p.right) {
        fragment.appendChild(unifiedLine(p.left!, undefined));
      } else {
        if (p.left) fragment.appendChild(unifiedLine(p.left, words));
        if (p.right) fragment.appendChild(unifiedLine(p.right, words));
      }
    }
    body.appendChild(fragment);
  }
}

const SIGN: Record<DiffLine['op'], string> = { ctx: ' ', del: '−', add: '+' };

function lineText(text: string, words: Change[] | undefined, side: 'left' | 'right'): HTMLElement {
  const el = h('span', { className: 'tx' });
  if (words) {
    for (const w of words) {
      if (side === 'left' && w.added) continue;
      if (side === 'right' && w.removed) continue;
      el.appendChild(w.added || w.removed ? h('span', { className: w.added ? 'wa' : 'wd', text: w.value }) : document.createTextNode(w.value));
    }
    return el;
  }
  if (text.length <= LINE_CHARS) {
    el.textContent = text;
    return el;
  }
  el.append(text.slice(0, LINE_CHARS), h('span', { className: 'cut', text: ` … ${formatTokens(text.length - LINE_CHARS)} more characters` }));
  return el;
}

function unifiedLine(l: DiffLine, words: Change[] | undefined): HTMLElement {
  const side = l.op === 'add' ? 'right' : 'left';
  return h(
    'div',
    { className: `dl ${l.op}` },
    h('span', { className: 'ln', text: l.oldNo === undefined ? '' : String(l.oldNo), attrs: { 'aria-hidden': 'true' } }),
    h('span', { className: 'ln', text: l.newNo === undefined ? '' : String(l.newNo), attrs: { 'aria-hidden': 'true' } }),
    h('span', { className: 'sign', text: SIGN[l.op] }),
    lineText(l.text, words, side),
  );
}

function sideCells(l: DiffLine | undefined, words: Change[] | undefined, side: 'left' | 'right'): HTMLElement[] {
  if (!l) return [h('span', { className: 'ln' }), h('span', { className: 'tx empty' })];
  const no = side === 'left' ? l.oldNo : l.newNo;
  const cell = lineText(l.text, l.op === 'ctx' ? undefined : words, side);
  cell.classList.add(l.op);
  return [h('span', { className: 'ln', text: no === undefined ? '' : String(no), attrs: { 'aria-hidden': 'true' } }), cell];
}

function describeStats(s: DiffStats): string {
  return [
    `${formatTokens(s.removedLines)} lines removed, ${formatTokens(s.addedLines)} added`,
    `${formatTokens(s.removed)} messages removed or summarized`,
    `${formatTokens(s.changed)} shortened`,
    `${formatTokens(s.added)} new`,
    `${formatTokens(s.unchanged)} unchanged`,
  ].join(' · ');
}
