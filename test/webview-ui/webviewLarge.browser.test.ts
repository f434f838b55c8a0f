// 5,000 real messages: the timeline shows its first rows at once and builds the rest in slices,
// in row groups the browser can skip off screen; the keyboard can jump past what is built so far,
// and the scrollbar stays true to the rows a filter leaves (the groups' stand-in heights).
// Speed itself is measured by `npm run bench` (bench/sections/webview.ts), not asserted here.

import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import type { InspectorModel } from '../../src/shared/protocol';
import { ROWS_PER_GROUP } from '../../webview-ui/src/views/timeline';
import { fixtureFor, longConversation } from '../webview/compactionFixture';
import { ensureWebviewBundle, launchBrowser, openHarness } from '../webview/harness';
import { transcriptFiles, transcriptPath } from '../helpers/transcripts';

const MESSAGES = 5000;
/** Generous: a loaded CI machine builds 5,000 rows in seconds; this only bounds a hang. */
const BUILD_TIMEOUT_MS = 110_000;

let browser: Browser;
let model: InspectorModel;

beforeAll(async () => {
  ensureWebviewBundle();
  browser = await launchBrowser();
  const sources = transcriptFiles()
    .filter((f) => f.startsWith('claude-code/') && f.endsWith('.jsonl'))
    .slice(0, 4)
    .map((f) => importTranscript(readFileSync(transcriptPath(f), 'utf8'), { sourcePath: transcriptPath(f) }).conversation);
  model = (await fixtureFor(longConversation(MESSAGES, sources))).model;
});

afterAll(async () => {
  await browser?.close();
});

describe('inspector with 5,000 messages', () => {
  it(
    'builds every row in groups; End reaches the last row while rows are still being built; the scrollbar follows filters',
    async () => {
      expect(model.messages).toHaveLength(MESSAGES);
      const h = await openHarness(browser);
      await h.send({ type: 'init', model });
      await h.page.waitForSelector('[role="row"][aria-rowindex="1"]');
      await h.page.focus('[role="row"][tabindex="0"]');
      await h.page.keyboard.press('End');
      await h.page.waitForFunction((n) => document.activeElement?.getAttribute('aria-rowindex') === String(n), MESSAGES);
      await h.page.waitForFunction((n) => document.querySelectorAll('[role="row"]').length === n, MESSAGES, { timeout: BUILD_TIMEOUT_MS });
      const layout = await h.page.evaluate(() => ({
        groups: [...document.querySelectorAll('[role="grid"] > [role="rowgroup"]')].map((g) => g.querySelectorAll('[role="row"]').length),
        strays: document.querySelectorAll('[role="grid"] > [role="row"]').length,
        order: [...document.querySelectorAll('[role="row"]')].every((r, i) => r.getAttribute('aria-rowindex') === String(i + 1)),
      }));
      expect(layout.strays).toBe(0);
      expect(layout.order).toBe(true);
      expect(layout.groups).toHaveLength(Math.ceil(MESSAGES / ROWS_PER_GROUP));
      expect(layout.groups.every((n) => n === ROWS_PER_GROUP)).toBe(true);
      expect(h.errors).toEqual([]);

      // The scrollbar matches the rows a filter leaves, not all 5,000.
      await h.page.click('[data-role="user"]');
      const users = model.messages.filter((m) => m.role === 'user').length;
      expect(users).toBeGreaterThan(100);
      const { scrollHeight, rowHeight, shown } = await h.page.evaluate(() => ({
        scrollHeight: document.querySelector('[role="grid"]')!.scrollHeight,
        rowHeight: document.querySelector('[role="row"]:not([hidden])')!.getBoundingClientRect().height,
        shown: document.querySelectorAll('[role="row"]:not([hidden])').length,
      }));
      expect(shown).toBe(users);
      // Within a couple of rows of the truth: groups off screen stand in with shown rows × row height.
      expect(Math.abs(scrollHeight - users * rowHeight)).toBeLessThan(rowHeight * 3);
      // The last user message is reachable: scrolled to the bottom, it is on screen.
      await h.page.evaluate(() => {
        const grid = document.querySelector('[role="grid"]')!;
        grid.scrollTop = grid.scrollHeight;
      });
      const last = model.messages.filter((m) => m.role === 'user').pop()!;
      await h.page.waitForFunction((id) => {
        const grid = document.querySelector('[role="grid"]')!.getBoundingClientRect();
        const row = document.querySelector(`[role="row"][data-id="${CSS.escape(id)}"]`)!.getBoundingClientRect();
        return row.height > 0 && row.top >= grid.top - 1 && row.bottom <= grid.bottom + 1;
      }, last.id);
      await h.close();
    },
    BUILD_TIMEOUT_MS,
  );
});
