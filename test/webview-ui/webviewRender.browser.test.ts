// The inspector renders a real transcript's compaction in a real browser: the eight section
// cards, one timeline row per message (role="row", role name as text), and a diff; in dark,
// light and high-contrast themes, with no CSP violation, console error or outside request.
// The model is the real engine's compaction (compactConversation, defaults, extractive).
// Screenshots go to test-artifacts/webview/; with UPDATE_SCREENSHOTS=1 the README's pictures
// in media/screenshots/ are replaced too (a plain test run leaves the repository untouched).

import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECTION_NAMES } from '../../src/engine/sections';
import { engineFixtureFor, loadTranscript, type Fixture } from '../webview/compactionFixture';
import { artifactsDir, ensureWebviewBundle, launchBrowser, openHarness, repoRoot, type Harness } from '../webview/harness';
import type { ThemeKind } from '../webview/themes';
import { transcriptPath } from '../helpers/transcripts';

const TRANSCRIPT = 'claude-code/kiliman__claude-transcript__test2.jsonl';

let browser: Browser;
let fx: Fixture;

beforeAll(async () => {
  ensureWebviewBundle();
  browser = await launchBrowser();
  fx = await engineFixtureFor(loadTranscript(transcriptPath(TRANSCRIPT)));
});

afterAll(async () => {
  await browser?.close();
});

async function showFixture(theme: ThemeKind): Promise<Harness> {
  const h = await openHarness(browser, { theme });
  await h.send({ type: 'init', model: fx.model });
  await h.page.waitForFunction((n) => document.querySelectorAll('[role="row"]').length === n, fx.model.messages.length);
  await h.page.waitForFunction(
    () => !!document.querySelector('.diff-summary') && !/Computing/.test(document.querySelector('.diff-summary')!.textContent ?? ''),
  );
  return h;
}

describe('inspector on a real transcript', () => {
  it('shows the eight sections as card headings, in order, with their token counts', async () => {
    const h = await showFixture('dark');
    const headings = await h.page.$$eval('.cards h3', (els) => els.map((e) => e.textContent));
    expect(headings).toEqual([...SECTION_NAMES]);
    const tokens = await h.page.$$eval('.card-tokens', (els) => els.map((e) => e.textContent));
    expect(tokens).toEqual(fx.model.sections.map((s) => `${s.tokens.toLocaleString('en-US')} tokens`));
    const primary = fx.model.sections[0]!.text;
    expect(await h.page.textContent('.card[data-section="Primary Request and Intent"] .card-text')).toBe(primary);
    await h.close();
  });

  it('a long section shows its start and the rest on request', async () => {
    const lines = Array.from({ length: 600 }, (_, i) => `- user message ${i}: ${'words '.repeat(8)}`);
    const long = lines.join('\n');
    const model = { ...fx.model, sections: fx.model.sections.map((s) => (s.name === 'All user messages' ? { ...s, text: long } : s)) };
    const h = await openHarness(browser);
    await h.send({ type: 'init', model });
    const card = '.card[data-section="All user messages"]';
    await h.page.waitForSelector(`${card} [data-action="expand-section"]`);
    const shown = (await h.page.textContent(`${card} .card-text`))!;
    expect(long.startsWith(shown)).toBe(true);
    expect(shown.length).toBeLessThan(long.length / 4);
    expect(shown.endsWith('words ')).toBe(true);
    expect(await h.page.textContent(`${card} [data-action="expand-section"]`)).toBe(
      `Show all (${(long.length - shown.length).toLocaleString('en-US')} more characters)`,
    );
    await h.page.click(`${card} [data-action="expand-section"]`);
    expect(await h.page.textContent(`${card} .card-text`)).toBe(long);
    // Editing always starts from the whole text.
    await h.page.click(`${card} [data-action="edit-section"]`);
    expect(await h.page.inputValue(`${card} textarea`)).toBe(long);
    await h.close();
  });

  it('has one row per message, each with role="row" and its role name as text, in order', async () => {
    const h = await showFixture('dark');
    const rows = await h.page.$$eval('[role="row"]', (els) =>
      els.map((e) => ({ text: e.textContent ?? '', role: e.querySelector('.role')?.textContent, index: e.getAttribute('aria-rowindex') })),
    );
    expect(rows).toHaveLength(fx.model.messages.length);
    rows.forEach((r, i) => {
      const m = fx.model.messages[i]!;
      expect(r.role).toBe(m.role);
      expect(r.text).toContain(m.role);
      expect(r.text).toContain(m.decision);
      expect(r.index).toBe(String(i + 1));
    });
    expect(await h.page.getAttribute('[role="grid"]', 'aria-rowcount')).toBe(String(fx.model.messages.length));
    await h.close();
  });

  it('shows the header figures: tokens before → after, ratio, retention, loss, strategy, summarizer, model', async () => {
    const h = await showFixture('dark');
    const stats = await h.page.textContent('dl.stats');
    const hd = fx.model.header;
    expect(stats).toContain(`${hd.tokensBefore.toLocaleString('en-US')} → ${hd.tokensAfter.toLocaleString('en-US')}`);
    expect(stats).toContain(hd.ratio);
    expect(stats).toContain(hd.lossLevel);
    expect(stats).toContain(hd.strategy);
    expect(stats).toContain(hd.summarizer);
    expect(stats).toContain(hd.model);
    expect(stats).toMatch(/Retention\s*\d+(\.\d)?%/);
    await h.close();
  });

  it('says what gave way to meet the target, step by step, and nothing when nothing did', async () => {
    const degradation = [
      { step: 'heavier-level' as const, detail: 'the normal level gave 1,334 tokens, over the target of 509: compacted again at the heavy level' },
      {
        step: 'gist-user-messages' as const,
        detail: '134 user messages as one-line gists; the first request and the 3 most recent kept (required content 5600 → 4701 tokens)',
      },
    ];
    const h = await openHarness(browser);
    await h.send({ type: 'init', model: { ...fx.model, header: { ...fx.model.header, degradation } } });
    await h.page.waitForSelector('dl.stats dd.degradation');
    expect(await h.page.textContent('dl.stats dd.degradation')).toBe(degradation.map((d) => d.detail).join('; '));
    await h.close();
    const plain = await showFixture('dark');
    expect(fx.model.header.degradation).toEqual([]);
    expect(await plain.page.$('dl.stats dd.degradation')).toBeNull();
    await plain.close();
  });

  it('diffs the whole conversation: removed messages, the added summary, shortened ones line by line', async () => {
    const h = await showFixture('dark');
    const removed = fx.model.messages.filter((m) => m.decision === 'summarized' || m.decision === 'dropped').length;
    const summary = await h.page.textContent('.diff-summary');
    expect(summary).toContain(`${removed.toLocaleString('en-US')} messages removed or summarized`);
    expect(await h.page.locator('.block-added').count()).toBe(1);
    // The engine's summary message: its section headings are added lines.
    expect(await h.page.locator('.block-added .dl.add', { hasText: '## Primary Request and Intent' }).count()).toBe(1);
    const firstRemoved = fx.model.messages.find((m) => m.decision === 'summarized' && m.text.trim())!;
    const firstLine = firstRemoved.text.split('\n')[0]!;
    const removedBlock = h.page.locator(`.block-removed[data-id="${firstRemoved.id}"] .dl.del .tx`).first();
    expect(await removedBlock.textContent()).toBe(firstLine.slice(0, 2000));
    // A masked tool output: same message on both sides, so a line diff inside it.
    const masked = fx.model.messages.find((m) => m.decision === 'masked');
    if (masked) expect(await h.page.locator(`.block-changed[data-id="${masked.id}"] .dl.add`).count()).toBeGreaterThan(0);
    // Side by side shows the same blocks in two columns.
    const blocks = await h.page.locator('.block').count();
    await h.page.click('[data-action="diff-split"]');
    await h.page.waitForSelector('.diff-content.split .dl-pair');
    await h.page.waitForFunction((n) => document.querySelectorAll('.block').length === n, blocks);
    expect(await h.page.locator('.block-added .dl-pair .tx.add', { hasText: '## Primary Request and Intent' }).count()).toBe(1);
    expect(await h.page.locator('.block-added .dl-pair .tx.empty').count()).toBeGreaterThan(0);
    await h.close();
  });

  it('a per-message diff shows only that message', async () => {
    const h = await showFixture('dark');
    const m = fx.model.messages.find((x) => x.decision === 'masked' || x.decision === 'truncated') ?? fx.model.messages[1]!;
    await h.page.click(`[role="row"][data-id="${m.id}"] [data-action="diff"]`);
    await h.page.waitForFunction((id) => {
      const blocks = document.querySelectorAll('.diff-content .block');
      return blocks.length === 1 && (blocks[0] as HTMLElement).dataset.id === id;
    }, m.id);
    expect(await h.page.textContent('.scope-label')).toBe(`Message #${m.index} (${m.role})`);
    await h.page.click('[data-action="diff-whole"]');
    await h.page.waitForFunction(() => document.querySelectorAll('.diff-content .block').length > 1);
    await h.close();
  });

  it('renders in dark, light and high-contrast themes without CSP violations, errors or outside requests', async () => {
    mkdirSync(artifactsDir, { recursive: true });
    for (const theme of ['dark', 'light', 'high-contrast'] as ThemeKind[]) {
      const h = await showFixture(theme);
      // Select a summarized message so the details pane shows in the screenshot.
      const m = fx.model.messages.find((x) => x.decision === 'summarized' && x.role === 'assistant') ?? fx.model.messages[0]!;
      await h.page.click(`[role="row"][data-id="${m.id}"] .preview`);
      await h.page.waitForSelector('.details .message-text');
      const file = join(artifactsDir, `inspector-${theme}.png`);
      await h.page.screenshot({ path: file });
      await h.page.screenshot({ path: join(artifactsDir, `inspector-${theme}-full.png`), fullPage: true });
      expect(await h.page.evaluate(() => (window as unknown as { __cc: { cspViolations: unknown[] } }).__cc.cspViolations)).toEqual([]);
      expect(await h.page.evaluate(() => (window as unknown as { __cc: { acquired: number } }).__cc.acquired)).toBe(1);
      expect(h.errors).toEqual([]);
      expect(h.foreignRequests).toEqual([]);
      await h.close();
    }
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      const shots = join(repoRoot, 'media', 'screenshots');
      mkdirSync(shots, { recursive: true });
      for (const theme of ['dark', 'light', 'high-contrast']) copyFileSync(join(artifactsDir, `inspector-${theme}.png`), join(shots, `inspector-${theme}.png`));
    }
  });
});
