// What a person does in the inspector reaches the host as the protocol says, and nothing else
// does: an edited section is recounted by the host and is what Apply sends; Cancel posts only
// `cancel`; keyboard navigation and pinning; restoring from a missing fact; filters; undo; and
// edits in progress survive a reload through vscode.setState.

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SectionName } from '../../src/engine/sections';
import type { InspectorModel, InspectorUiState, WebviewToHost } from '../../src/shared/protocol';
import { fixtureFor, loadTranscript, type Fixture } from '../webview/compactionFixture';
import { ensureWebviewBundle, isType, launchBrowser, openHarness, type Harness, type HarnessOptions } from '../webview/harness';
import { transcriptPath } from '../helpers/transcripts';

const TRANSCRIPT = 'aider/AFI-Protocol__afi-core.aider.chat.history.md';
const SECTION: SectionName = 'Pending Tasks';

let browser: Browser;
let fx: Fixture;

beforeAll(async () => {
  ensureWebviewBundle();
  browser = await launchBrowser();
  fx = await fixtureFor(loadTranscript(transcriptPath(TRANSCRIPT)));
});

afterAll(async () => {
  await browser?.close();
});

async function ready(opts: HarnessOptions = {}, model: InspectorModel = fx.model): Promise<Harness> {
  const h = await openHarness(browser, opts);
  await h.send({ type: 'init', model });
  await h.page.waitForFunction((n) => document.querySelectorAll('[role="row"]').length === n, model.messages.length);
  return h;
}

/** Messages posted after the first `from`. */
async function postedSince(h: Harness, from: number): Promise<WebviewToHost[]> {
  return (await h.posted()).slice(from);
}

/** Longer than every debounce in the page (recount 250 ms, re-preview 300 ms, state save 200 ms). */
const DEBOUNCE_BARRIER_MS = 1000;

/** Waits on the page's own timer queue until every debounce started so far has fired: a timer
 *  due later runs after those due earlier, however slow the machine is, so a recount or preview
 *  that survived would have been posted by then. */
async function afterDebounces(h: Harness): Promise<void> {
  await h.page.evaluate((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)), DEBOUNCE_BARRIER_MS);
}

function uiState(h: Harness): Promise<InspectorUiState> {
  return h.page.evaluate(() => (window as unknown as { __cc: { state: InspectorUiState } }).__cc.state);
}

describe('inspector interactions', () => {
  it('an edited section is recounted by the host, and Apply sends the edited text', async () => {
    const h = await ready();
    const card = `.card[data-section="${SECTION}"]`;
    await h.page.click(`${card} [data-action="edit-section"]`);
    const edited = '- Ship the inspector\n- Write the README screenshots section';
    await h.page.fill(`${card} textarea`, edited);
    const count = await h.waitForPost(isType('countSections'));
    expect(count.sections).toEqual({ [SECTION]: edited });
    expect(await h.page.textContent(`${card} .card-tokens`)).toContain('counting');
    await h.send({ type: 'response', id: count.id, request: 'countSections', ok: true, value: { tokens: { [SECTION]: 12 } } });
    await h.page.waitForFunction((sel) => /12 tokens \(edited, was/.test(document.querySelector(sel)?.textContent ?? ''), `${card} .card-tokens`);
    const after = fx.model.header.tokensAfter + 12 - fx.model.sections.find((s) => s.name === SECTION)!.tokens;
    expect(await h.page.textContent('.tokens-figure')).toContain(`≈ ${after.toLocaleString('en-US')} with your edits`);

    await h.page.click('[data-action="apply"]');
    const apply = await h.waitForPost(isType('apply'));
    expect(apply.edits.sections).toEqual({ [SECTION]: edited });
    expect(apply.edits.restore).toEqual([]);
    const applied: InspectorModel = {
      ...fx.model,
      phase: 'applied',
      canUndo: true,
      sections: fx.model.sections.map((s) => (s.name === SECTION ? { ...s, text: edited, tokens: 12 } : s)),
    };
    await h.send({ type: 'response', id: apply.id, request: 'apply', ok: true, value: { model: applied } });
    await h.page.waitForFunction(() => /Applied:/.test(document.querySelector('.status')?.textContent ?? ''));
    expect(await h.page.isDisabled('[data-action="apply"]')).toBe(true);
    expect(await h.page.isVisible('[data-action="undo"]')).toBe(true);
    expect((await uiState(h)).edits.sections).toEqual({});
    await h.close();
  });

  it('a failed Apply says nothing changed and keeps the edits', async () => {
    const h = await ready();
    const card = `.card[data-section="${SECTION}"]`;
    await h.page.click(`${card} [data-action="edit-section"]`);
    await h.page.fill(`${card} textarea`, 'keep me');
    await h.page.click('[data-action="apply"]');
    const apply = await h.waitForPost(isType('apply'));
    await h.send({ type: 'response', id: apply.id, request: 'apply', ok: false, error: 'The loss level is severe.' });
    await h.page.waitForSelector('.alert:not([hidden])');
    expect(await h.page.textContent('.alert')).toBe('Apply failed; nothing was changed. The loss level is severe.');
    await h.page.waitForFunction(() => (window as unknown as { __cc: { state?: InspectorUiState } }).__cc.state?.edits.sections['Pending Tasks'] === 'keep me');
    await h.close();
  });

  it('Cancel posts only `cancel` and drops the edits — no preview, apply or undo follows', async () => {
    const h = await ready();
    await h.page.click('.card[data-section="Current Work"] [data-action="edit-section"]');
    const start = (await h.posted()).length;
    await h.page.fill('.card[data-section="Current Work"] textarea', 'changed my mind');
    const row = fx.model.messages.find((m) => m.decision === 'summarized')!;
    await h.page.click(`[role="row"][data-id="${row.id}"] [data-action="pin"]`);
    await h.page.click('[data-action="cancel"]');
    await afterDebounces(h);
    const since = await postedSince(h, start);
    const at = since.findIndex((m) => m.type === 'cancel');
    expect(at).toBeGreaterThanOrEqual(0);
    // Nothing follows `cancel`: the recount and re-preview still waiting were dropped.
    expect(since.slice(at)).toEqual([{ type: 'cancel' }]);
    // Before it, only what the pauses legitimately allowed on a slow machine: a recount or a
    // preview, never anything that changes the conversation.
    expect(since.slice(0, at).filter((m) => m.type !== 'countSections' && m.type !== 'preview')).toEqual([]);
    const state = await uiState(h);
    expect(state.edits).toEqual({ sections: {}, restore: [], pin: [], unpin: [], offload: [] });
    expect(await h.page.getAttribute(`[role="row"][data-id="${row.id}"] [data-action="pin"]`, 'aria-pressed')).toBe('false');
    expect(await h.page.textContent('.card[data-section="Current Work"] .card-body')).not.toContain('changed my mind');
    await h.close();
  });

  it('answers to requests sent before Cancel are ignored: the discarded preview is not shown', async () => {
    const h = await ready();
    const row = fx.model.messages.find((m) => m.decision === 'summarized')!;
    await h.page.click(`[role="row"][data-id="${row.id}"] [data-action="pin"]`);
    const preview = await h.waitForPost(isType('preview'));
    await h.page.click('[data-action="cancel"]');
    const pinnedModel: InspectorModel = {
      ...fx.model,
      messages: fx.model.messages.map((m) => (m.id === row.id ? { ...m, decision: 'kept', reason: 'pinned', tokensAfter: m.tokens } : m)),
    };
    await h.send({ type: 'response', id: preview.id, request: 'preview', ok: true, value: { model: pinnedModel } });
    await afterDebounces(h);
    expect(await h.page.textContent(`[role="row"][data-id="${row.id}"] .decision .badge`)).toBe(row.decision);
    expect(await h.page.getAttribute(`[role="row"][data-id="${row.id}"] [data-action="pin"]`, 'aria-pressed')).toBe('false');
    const posted = await h.posted();
    expect(posted[posted.length - 1]).toEqual({ type: 'cancel' });
    await h.close();
  });

  it('keyboard: Tab reaches the timeline, arrows move between rows, Space pins (a preview is posted), Enter opens the details', async () => {
    const h = await ready();
    await h.page.focus('input.search');
    let role: string | null = null;
    for (let i = 0; i < 10 && role !== 'row'; i++) {
      await h.page.keyboard.press('Tab');
      role = await h.page.evaluate(() => document.activeElement?.getAttribute('role') ?? null);
    }
    expect(role).toBe('row');
    expect(await h.page.evaluate(() => document.activeElement?.getAttribute('aria-rowindex'))).toBe('1');
    await h.page.keyboard.press('ArrowDown');
    await h.page.keyboard.press('ArrowDown');
    const focused = await h.page.evaluate(() => (document.activeElement as HTMLElement).dataset.id);
    const m = fx.model.messages[2]!;
    expect(focused).toBe(m.id);
    await h.page.keyboard.press('ArrowUp');
    await h.page.keyboard.press('ArrowDown');
    const before = (await h.posted()).length;
    await h.page.keyboard.press(' ');
    expect(await h.page.getAttribute(`[role="row"][data-id="${m.id}"] [data-action="pin"]`, 'aria-pressed')).toBe('true');
    const preview = await h.waitForPost(isType('preview'));
    expect(preview.edits.pin).toEqual([m.id]);
    expect((await postedSince(h, before)).map((x) => x.type)).toEqual(['preview']);
    await h.page.keyboard.press('Enter');
    expect(await h.page.textContent('.details-head')).toContain(`#${m.index} ${m.role}`);
    // Only one row is in the tab order (roving tabindex).
    expect(await h.page.locator('[role="row"][tabindex="0"]').count()).toBe(1);
    await h.page.keyboard.press('End');
    expect(await h.page.evaluate(() => document.activeElement?.getAttribute('aria-rowindex'))).toBe(String(fx.model.messages.length));
    // → enters the row's buttons; Escape returns to the row.
    await h.page.keyboard.press('ArrowRight');
    expect(await h.page.evaluate(() => (document.activeElement as HTMLElement).dataset.action)).toBe('pin');
    await h.page.keyboard.press('Escape');
    expect(await h.page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('row');
    await h.close();
  });

  it('a missing fact links to its message and restores it with one click (a preview with edits.restore)', async () => {
    expect(fx.model.missing.length).toBeGreaterThan(0);
    const h = await ready();
    const fact = fx.model.missing[0]!;
    await h.page.click('li.fact >> nth=0 >> [data-action="reveal-source"]');
    await h.page.waitForFunction((id) => (document.activeElement as HTMLElement | null)?.dataset.id === id, fact.sourceId);
    expect(await h.page.getAttribute(`[role="row"][data-id="${fact.sourceId}"]`, 'aria-selected')).toBe('true');
    await h.page.click('li.fact >> nth=0 >> [data-action="restore-source"]');
    const preview = await h.waitForPost(isType('preview'));
    expect(preview.edits.restore).toEqual([fact.sourceId]);
    // The host answers with the message kept; the row shows it.
    const restored: InspectorModel = {
      ...fx.model,
      messages: fx.model.messages.map((m) =>
        m.id === fact.sourceId ? { ...m, decision: 'kept', reason: 'restored in the inspector', tokensAfter: m.tokens } : m,
      ),
      missing: fx.model.missing.filter((f) => f.sourceId !== fact.sourceId),
    };
    await h.send({ type: 'response', id: preview.id, request: 'preview', ok: true, value: { model: restored } });
    await h.page.waitForFunction((id) => document.querySelector(`[role="row"][data-id="${id}"] .decision .badge`)?.textContent === 'kept', fact.sourceId);
    expect(await h.page.getAttribute(`[role="row"][data-id="${fact.sourceId}"] [data-action="restore"]`, 'aria-pressed')).toBe('true');
    await h.close();
  });

  it('filters by role and decision and searches the text', async () => {
    const h = await ready();
    const visible = () => h.page.$$eval('[role="row"]:not([hidden])', (els) => els.map((e) => (e as HTMLElement).dataset.id));
    await h.page.click('[data-role="user"]');
    expect(await visible()).toEqual(fx.model.messages.filter((m) => m.role === 'user').map((m) => m.id));
    await h.page.click('[data-decision="kept"]');
    expect(await visible()).toEqual(fx.model.messages.filter((m) => m.role === 'user' && m.decision === 'kept').map((m) => m.id));
    await h.page.click('[data-action="clear-filters"]');
    const word = fx.model.messages[5]!.text.split(/\s+/).find((w) => w.length > 6)!;
    await h.page.fill('input.search', word.toUpperCase());
    await h.page.waitForFunction(
      (n) => document.querySelectorAll('[role="row"]:not([hidden])').length === n,
      fx.model.messages.filter((m) => m.text.toLowerCase().includes(word.toLowerCase())).length,
    );
    expect(await h.page.textContent('.match-count')).toMatch(/of \d+ messages/);
    await h.page.waitForFunction((w) => (window as unknown as { __cc: { state?: InspectorUiState } }).__cc.state?.search === w, word.toUpperCase());
    await h.close();
  });

  it('Undo goes to the host; "nothing to undo" is said plainly', async () => {
    const h = await ready({}, { ...fx.model, canUndo: true });
    await h.page.click('[data-action="undo"]');
    const undo = await h.waitForPost(isType('undo'));
    await h.send({ type: 'response', id: undo.id, request: 'undo', ok: true, value: { undone: false } });
    await h.page.waitForFunction(() => document.querySelector('.status')?.textContent === 'Nothing to undo.');
    await h.close();
  });

  it('a stale preview offers a refresh, which asks the host for a new preview with the edits', async () => {
    const h = await ready();
    await h.send({ type: 'stale', reason: 'The conversation changed since this preview was computed.' });
    await h.page.waitForSelector('[data-action="refresh"]:not([hidden])');
    await h.page.click('[data-action="refresh"]');
    const preview = await h.waitForPost(isType('preview'));
    expect(preview.edits).toEqual({ sections: {}, restore: [], pin: [], unpin: [], offload: [] });
    await h.close();
  });

  it('edits in progress and UI state survive a reload (vscode.setState), and are re-previewed and recounted', async () => {
    const h = await ready();
    const pinned = fx.model.messages.find((m) => m.decision === 'summarized')!;
    await h.page.click(`[role="row"][data-id="${pinned.id}"] [data-action="pin"]`);
    await h.page.click(`.card[data-section="${SECTION}"] [data-action="edit-section"]`);
    await h.page.fill(`.card[data-section="${SECTION}"] textarea`, 'survives a reload');
    await h.page.click('[data-role="assistant"]');
    await h.page.click('[data-action="diff-split"]');
    await h.page.waitForFunction(() => {
      const s = (window as unknown as { __cc: { state?: InspectorUiState } }).__cc.state;
      return s?.edits.sections['Pending Tasks'] === 'survives a reload' && s.diffMode === 'split' && s.roles.length === 1;
    });
    const saved = await uiState(h);
    expect(saved.key).toBe(fx.model.key);
    expect(saved.edits.pin).toEqual([pinned.id]);
    // The state holds UI state only: no message text, no sections from the model.
    expect(JSON.stringify(saved)).not.toContain(fx.model.messages[0]!.text.slice(0, 40));
    await h.close();

    const again = await ready({ savedState: saved });
    expect(await again.page.textContent(`.card[data-section="${SECTION}"] .card-text`)).toBe('survives a reload');
    expect(await again.page.getAttribute(`[role="row"][data-id="${pinned.id}"] [data-action="pin"]`, 'aria-pressed')).toBe('true');
    expect(await again.page.getAttribute('[data-role="assistant"]', 'aria-pressed')).toBe('true');
    expect(await again.page.getAttribute('[data-action="diff-split"]', 'aria-pressed')).toBe('true');
    const preview = await again.waitForPost(isType('preview'));
    expect(preview.edits.pin).toEqual([pinned.id]);
    const count = await again.waitForPost(isType('countSections'));
    expect(count.sections).toEqual({ [SECTION]: 'survives a reload' });
    await again.close();
  });

  it('state saved for another conversation is not applied to this one', async () => {
    const other: InspectorUiState = {
      version: 1,
      key: 'file:///elsewhere.jsonl',
      roles: ['tool'],
      decisions: [],
      search: 'nothing matches this',
      timelineScroll: 0,
      diffMode: 'unified',
      edits: { sections: { [SECTION]: 'from elsewhere' }, restore: [], pin: [], unpin: [], offload: [] },
    };
    const h = await ready({ savedState: other });
    expect(await h.page.locator('[role="row"]:not([hidden])').count()).toBe(fx.model.messages.length);
    expect(await h.page.textContent(`.card[data-section="${SECTION}"]`)).not.toContain('from elsewhere');
    expect((await uiState(h)).key).toBe(fx.model.key);
    await h.close();
  });
});
