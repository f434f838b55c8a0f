// The inspector's context pane in the real browser, on a real Claude Code session: the chart of
// every request Claude Code recorded (window, trigger, compactions, where this compaction brings
// the next request), what compacting costs, the biggest items with one-click offload, and
// compacting up to a chosen message — each reaching the host as the protocol's edits.

import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectorModel } from '../../src/shared/protocol';
import { contextHistoryProvider, type HistorySource } from '../../src/extension/inspector/contextHistory';
import { tokenReport } from '../../src/engine/tokens/report';
import { readLastUsage } from '../../src/sessions/usageLog';
import { engineFixtureFor, fixtureFor, loadTranscript, type Fixture } from '../webview/compactionFixture';
import { artifactsDir, ensureWebviewBundle, isType, launchBrowser, openHarness, repoRoot, type Harness } from '../webview/harness';
import { transcriptPath } from '../helpers/transcripts';

const KILIMAN = transcriptPath('claude-code/kiliman__claude-transcript__test2.jsonl');

let browser: Browser;
let fx: Fixture;
/** The preview model as the host sends it for the session: with its recorded history. */
let model: InspectorModel;

beforeAll(async () => {
  ensureWebviewBundle();
  browser = await launchBrowser();
  const conv = loadTranscript(KILIMAN);
  fx = await fixtureFor(conv, KILIMAN, (await readLastUsage(KILIMAN, 'claude-code'))!.tokens);
  const entry = { key: 'k', conversation: conv, report: tokenReport(conv.messages, fx.counter) };
  const source = { get: () => entry, counterFor: async () => fx.counter } as unknown as HistorySource;
  const history = (await contextHistoryProvider(source, { current: { triggerRatio: 0.8 } } as Parameters<typeof contextHistoryProvider>[1])('k'))!;
  model = { ...fx.model, history };
});

afterAll(async () => {
  await browser?.close();
});

async function ready(m: InspectorModel = model, reveal?: 'chart'): Promise<Harness> {
  const h = await openHarness(browser, { height: 700 });
  await h.send({ type: 'init', model: m, ...(reveal ? { reveal } : {}) });
  await h.page.waitForSelector('.big-item');
  return h;
}

const fmt = (n: number) => n.toLocaleString('en-US');

describe('inspector context pane', () => {
  it('draws every request Claude Code recorded, the window, the trigger, a compaction and where this one brings the next request', async () => {
    const withMark: InspectorModel = { ...model, history: { ...model.history!, compactions: [{ afterPoint: 60, kind: 'auto', preTokens: 41_000 }] } };
    const h = await ready(withMark);
    const points = await h.page.getAttribute('.chart .usage-line', 'points');
    expect(points!.split(' ')).toHaveLength(131);
    const ys = await h.page.evaluate(() => ['window-line', 'trigger-line'].map((c) => Number(document.querySelector(`.chart .${c}`)!.getAttribute('y1'))));
    // SVG y grows downwards: the trigger (80% of the window) lies below the window.
    expect(ys[1]!).toBeGreaterThan(ys[0]!);
    expect(await h.page.textContent('.chart .window-line-label')).toBe(`window ${fmt(model.history!.window)}`);
    expect(await h.page.textContent('.chart .compaction-mark title')).toBe('Compacted by the agent after request 60 at 41,000 tokens');
    expect(await h.page.textContent('.chart .after-dot title')).toBe(`After this compaction: ${fmt(model.header.tokensAfter)} tokens at the next request`);
    const caption = await h.page.textContent('.chart-caption');
    expect(caption).toContain('131 requests recorded by Claude Code: the last 69,800 tokens');
    expect(caption).toContain('1 compaction (after request 60 by the agent at 41,000)');
    expect(await h.page.getAttribute('.chart', 'aria-label')).toBe(`Context over time: ${caption}`);
    expect(h.errors).toEqual([]);
    await h.close();
  });

  it('"Show Context Chart" brings the chart into view, below the sticky header, and focus', async () => {
    const h = await ready(model, 'chart');
    await h.page.waitForFunction(() => document.activeElement?.classList.contains('context-chart'));
    const [header, chart] = await h.page.evaluate(() => [
      document.querySelector('header.top')!.getBoundingClientRect().bottom,
      document.querySelector('.context-chart')!.getBoundingClientRect().top,
    ]);
    expect(chart).toBeGreaterThanOrEqual(header);
    expect(await h.page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await h.close();
  });

  it('the README picture: the header and the context pane of the session, compacted by the real engine', async () => {
    const real = await engineFixtureFor(loadTranscript(KILIMAN), KILIMAN, model.history!.points.at(-1)!.tokens);
    const h = await openHarness(browser, { height: 1000 });
    await h.send({ type: 'init', model: { ...real.model, history: model.history! } });
    await h.page.waitForSelector('.big-item');
    const bottom = await h.page.evaluate(() => Math.ceil(document.querySelector('.context-pane')!.getBoundingClientRect().bottom));
    const shot = join(artifactsDir, 'inspector-context.png');
    await h.page.screenshot({ path: shot, clip: { x: 0, y: 0, width: 1400, height: Math.min(bottom + 8, 1000) } });
    if (process.env.UPDATE_SCREENSHOTS === '1') copyFileSync(shot, join(repoRoot, 'media', 'screenshots', 'inspector-context.png'));
    expect(h.errors).toEqual([]);
    await h.close();
  });

  it('says what compacting costs at the model prices, and in tokens where no price is known', async () => {
    const h = await ready();
    const c = model.cost;
    const text = (await h.page.textContent('.cost'))!;
    expect(text).toContain(`writes ${fmt(c.rewritten)} tokens of compacted messages to the prompt cache, where it would have read ${fmt(c.wouldRead)}`);
    expect(text).toContain(`At ${c.price!.family} prices`);
    expect(text).toContain(c.paysOffAfter === 0 ? 'It pays off at once.' : `It pays off after ${c.paysOffAfter} later request`);
    expect(text).toContain(`read ${c.price!.readOn}`);
    await h.send({ type: 'init', model: { ...model, cost: { rewritten: 1, wouldRead: 2, savedPerRequest: 1, model: 'my-local-llm' } } });
    await h.page.waitForFunction(() => document.querySelector('.cost')!.textContent!.includes('No price is known for my-local-llm'));
    await h.close();
  });

  it('lists the biggest items; Offload previews only that offload, and the whole conversation comes back in one click', async () => {
    const h = await ready();
    const rows = await h.page.locator('.big-item').allTextContents();
    expect(rows).toHaveLength(model.biggest.length);
    expect(rows[0]).toContain(fmt(model.biggest[0]!.tokens));
    const item = model.biggest.find((b) => b.offloadable)!;
    const from = (await h.posted()).length;
    await h.page.click(`.big-item[data-id="${item.id}"] [data-action="offload"]`);
    const preview = await h.waitForPost((m): m is Extract<typeof m, { type: 'preview' }> => m.type === 'preview');
    expect(preview.edits.offload).toEqual([item.id]);
    expect(preview.edits.upTo).toBeUndefined();
    expect(await h.page.textContent('.scope')).toContain(`Offloading only: #${item.index}.`);
    expect(await h.page.getAttribute(`.big-item[data-id="${item.id}"] [data-action="offload"]`, 'aria-pressed')).toBe('true');
    await h.send({ type: 'response', id: preview.id, request: 'preview', ok: true, value: { model: { ...model, scope: { offload: [item.id] } } } });
    await h.page.click('[data-action="whole"]');
    await h.page.waitForFunction((n) => (window as unknown as { __cc: { posted: unknown[] } }).__cc.posted.length > n, (await h.posted()).length);
    const back = (await h.posted()).slice(from).filter(isType('preview')).at(-1)!;
    expect(back.edits.offload).toEqual([]);
    expect(await h.page.isHidden('.scope')).toBe(true);
    await h.close();
  });

  it('"Compact up to here" on a message previews and applies the compaction of it and everything before', async () => {
    const h = await ready();
    const target = model.messages[Math.floor(model.messages.length / 2)]!;
    await h.page.click(`[role="row"][data-id="${target.id}"] .preview`);
    await h.page.click('[data-action="details-up-to"]');
    const preview = await h.waitForPost(isType('preview'));
    expect(preview.edits).toMatchObject({ upTo: target.id, offload: [] });
    expect(await h.page.textContent('.scope')).toContain(`Compacting up to message #${target.index}; every later message stays as it is.`);
    expect(await h.page.getAttribute('[data-action="details-up-to"]', 'aria-pressed')).toBe('true');
    await h.send({ type: 'response', id: preview.id, request: 'preview', ok: true, value: { model: { ...model, scope: { upTo: target.id, offload: [] } } } });
    await h.page.click('[data-action="apply"]');
    const apply = await h.waitForPost(isType('apply'));
    expect(apply.edits.upTo).toBe(target.id);
    await h.close();
  });

  it('in an editor area 1,000 px wide the timeline rows keep their text readable beside their buttons, and show the importance score', async () => {
    for (const width of [1000, 1400]) {
      const h = await openHarness(browser, { width, height: 800 });
      await h.send({ type: 'init', model });
      await h.page.waitForSelector('[role="row"] .preview');
      const px = await h.page.evaluate(() => document.querySelector('[role="row"] .preview')!.getBoundingClientRect().width);
      expect(px, `the text column at ${width} px`).toBeGreaterThan(200);
      // The importance score is read without hovering: the figure beside its bar, inside its cell.
      const imp = await h.page.evaluate(() => {
        const cell = document.querySelector('[role="row"] .importance')!.getBoundingClientRect();
        const value = document.querySelector<HTMLElement>('[role="row"] .imp-value')!;
        const r = value.getBoundingClientRect();
        return { text: value.textContent, visible: r.width > 0 && r.height > 0, inside: r.left >= cell.left && r.right <= cell.right + 1 };
      });
      expect(imp).toEqual({ text: model.messages[0]!.importance.overall.toFixed(2), visible: true, inside: true });
      await h.close();
    }
  });

  it('shows labels from the conversation as text, and no Offload where compactions are written as a new session', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1">';
    const note = 'A compaction of an agent session is written as a new session';
    const m: InspectorModel = {
      ...model,
      offloadNote: note,
      biggest: model.biggest.map((b, i) => ({ ...b, offloadable: false, label: i === 0 ? hostile : b.label })),
    };
    const h = await ready(m);
    expect(await h.page.textContent('.big-item .big-label')).toBe(hostile);
    expect(await h.page.locator('.biggest img').count()).toBe(0);
    expect(await h.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await h.page.locator('[data-action="offload"]').count()).toBe(0);
    expect(await h.page.textContent('.offload-note')).toBe(note);
    await h.close();
  });
});
