// Page helpers for driving the VS Code workbench that code-server serves. Each waits for a
// condition in the DOM (never a fixed sleep) and, when it gives up, throws an E2eError saying what
// it expected and what it last saw, so the run can report a readable failure.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** A workbench that has not rendered in this long is broken, not slow (cold start is ~6 s here). */
export const WORKBENCH_TIMEOUT_MS = 90_000;
/** Ordinary UI reactions (a quick pick opening, a dialog appearing). */
export const UI_TIMEOUT_MS = 30_000;
/** Work the extension does after a command (import, count, compaction of a mid-size transcript). */
export const WORK_TIMEOUT_MS = 60_000;
/** How long one palette query may take to show a row before the filter is typed again. */
const PALETTE_REQUERY_MS = 2_000;
/** How often polled conditions are re-read. */
const POLL_MS = 100;

/** A failed expectation, with what was expected and what the page showed instead. */
export class E2eError extends Error {
  constructor(message, { expected, seen } = {}) {
    super(message);
    this.name = 'E2eError';
    this.expected = expected;
    this.seen = seen;
  }
}

function escapeRegex(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function exactly(text) {
  return new RegExp(`^\\s*${escapeRegex(text)}\\s*$`);
}

/**
 * Polls `read` until `accept(value)` holds; returns the value. On timeout throws an E2eError
 * naming `expected` and the last value read.
 */
export async function waitUntil(read, accept, { expected, timeoutMs = UI_TIMEOUT_MS, describe = String }) {
  const deadline = Date.now() + timeoutMs;
  let last;
  let lastError;
  for (;;) {
    try {
      last = await read();
      lastError = undefined;
      if (accept(last)) return last;
    } catch (err) {
      // An E2eError is a verdict (e.g. the extension reported an error), not a flaky read.
      if (err instanceof E2eError) throw err;
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const seen = lastError ? `error: ${lastError.message.split('\n')[0]}` : describe(last);
      throw new E2eError(`timed out after ${timeoutMs / 1000}s waiting for ${expected}`, { expected, seen });
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Waits for the workbench shell and its status bar. */
export async function waitForWorkbench(page) {
  try {
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: WORKBENCH_TIMEOUT_MS });
    await page.locator('.part.statusbar').waitFor({ state: 'visible', timeout: WORKBENCH_TIMEOUT_MS });
  } catch (err) {
    throw new E2eError('the VS Code workbench did not render', {
      expected: '.monaco-workbench and its status bar visible',
      seen: `${err.message.split('\n')[0]} (page title "${await page.title().catch(() => '?')}")`,
    });
  }
}

function quickInput(page) {
  return page.locator('.quick-input-widget');
}

/** Rows of the open quick input whose label text is exactly `label`. */
function quickInputRows(page, label) {
  return quickInput(page)
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exactly(label) }) });
}

async function visibleRowLabels(page) {
  return quickInput(page)
    .locator('.monaco-list-row')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')).slice(0, 12));
}

/** Closes a quick input left open by an earlier step, so F1 starts from a clean palette. */
async function closeQuickInput(page) {
  if (await quickInput(page).isVisible()) {
    await page.keyboard.press('Escape');
    await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
  }
}

/**
 * Runs a command through the Command Palette (F1 → type the title → pick the exact row).
 * When `id` is given, the row must also carry that command id (VS Code puts it in
 * data-quick-input-id), which catches a title mapped to the wrong command.
 */
export async function runCommand(page, title, { id } = {}) {
  await closeQuickInput(page);
  const openPalette = async () => {
    // Focus inside a webview's iframe would swallow F1; the workbench listens on its own document.
    await page.evaluate(() => {
      if (document.activeElement && document.activeElement.tagName === 'IFRAME') document.activeElement.blur();
    });
    await page.keyboard.press('F1');
    await quickInput(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  };
  await openPalette();
  const input = quickInput(page).locator('.quick-input-box input');
  const row = quickInputRows(page, title).first();
  // Right after the workbench renders, extension contributions may still be loading and the
  // palette lists only what it knew when it was filled; retyping the filter re-queries it.
  await waitUntil(
    async () => {
      // A webview that re-renders (the inspector after an undo) can take the focus, and the
      // palette closes when it loses focus: open it again rather than type into a hidden box.
      if (!(await quickInput(page).isVisible())) await openPalette();
      await input.fill('>');
      await input.fill(`>${title}`);
      return row.waitFor({ state: 'visible', timeout: PALETTE_REQUERY_MS }).then(
        () => true,
        () => false,
      );
    },
    (found) => found,
    {
      expected: `a Command Palette row labelled exactly "${title}"`,
      timeoutMs: WORK_TIMEOUT_MS,
      describe: () => 'no such row',
    },
  ).catch(async (err) => {
    throw new E2eError(`the Command Palette has no command titled "${title}"`, {
      expected: err.expected,
      seen: `rows: ${JSON.stringify(await visibleRowLabels(page))}`,
    });
  });
  if (id) {
    const rowId = await row.locator('[data-quick-input-id]').first().getAttribute('data-quick-input-id');
    if (rowId !== id) {
      throw new E2eError(`palette command "${title}" runs the wrong command`, {
        expected: `command id ${id}`,
        seen: `command id ${rowId}`,
      });
    }
  }
  await row.click();
}

/**
 * Picks the item labelled exactly `label` in the open Quick Pick. With `title`, first waits
 * until the quick input shows that title (the palette and the next Quick Pick share one widget).
 * Returns the labels of the items that were listed.
 */
export async function quickPick(page, label, { title, filter = label } = {}) {
  await quickInput(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  if (title) {
    await waitUntil(
      () => quickInput(page).locator('.quick-input-title').textContent(),
      (t) => (t || '').trim() === title,
      { expected: `a Quick Pick titled "${title}"`, describe: (t) => `title "${(t || '').trim()}"` },
    );
  }
  // Wait for the list to fill before filtering: items can arrive after the widget shows.
  await quickInput(page).locator('.monaco-list-row').first().waitFor({ state: 'visible', timeout: WORK_TIMEOUT_MS });
  const listed = await visibleRowLabels(page);
  if (filter) await quickInput(page).locator('.quick-input-box input').fill(filter);
  const row = quickInputRows(page, label).first();
  try {
    await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  } catch {
    throw new E2eError(`the Quick Pick has no item "${label}"`, {
      expected: `an item labelled exactly "${label}"`,
      seen: `items before filtering: ${JSON.stringify(listed)}; after: ${JSON.stringify(await visibleRowLabels(page))}`,
    });
  }
  await row.click();
  return listed;
}

/** The meter's accessibility label, as the contract fixes it (then what it shows: the agent and
 *  session, the transcript or the chat, and whether it is pinned). */
export const METER_LABEL = /^Context Compactor: (\d+) \/ (\d+) tokens \((\d+\.\d)%\)(?: — .*)?$/;

/** The status-bar entry for a contributed item id (VS Code prefixes the extension id). */
export function statusBarItem(page, itemId) {
  return page.locator(`.part.statusbar .statusbar-item[id$=".${itemId}"]`);
}

/** Reads one status bar item: null when absent or hidden, else its aria-label and text. */
export async function readStatusBarItem(page, itemId) {
  const item = statusBarItem(page, itemId).first();
  if ((await item.count()) === 0 || !(await item.isVisible())) return null;
  const label = await item.locator('a.statusbar-item-label').getAttribute('aria-label');
  const text = ((await item.textContent()) || '').trim();
  return { label, text };
}

/** Parses a meter label; null when it does not follow the contract. */
export function parseMeterLabel(label, pattern = METER_LABEL) {
  const m = pattern.exec(label || '');
  if (!m) return null;
  return { total: Number(m[1]), window: Number(m[2]), percent: Number(m[3]), label };
}

/**
 * Waits until the meter shows a label that follows the contract and satisfies `accept`
 * (e.g. `(m) => m.total === 52314`); returns { total, window, percent, label, text }.
 */
export async function waitForMeter(page, accept, { expected, itemId = 'contextCompactor.meter', pattern = METER_LABEL, timeoutMs = WORK_TIMEOUT_MS } = {}) {
  const baseline = await errorNotificationTexts(page);
  return waitUntil(
    async () => {
      await failOnNewError(page, baseline, `the meter to show ${expected}`);
      const item = await readStatusBarItem(page, itemId);
      if (!item) return { absent: true };
      return { ...parseMeterLabel(item.label, pattern), rawLabel: item.label, text: item.text };
    },
    (m) => !m.absent && typeof m.total === 'number' && accept(m),
    {
      expected: `the status-bar meter (${itemId}) to show ${expected}`,
      timeoutMs,
      describe: (m) =>
        !m || m.absent
          ? 'no visible meter in the status bar'
          : m.total === undefined
            ? `aria-label "${m.rawLabel}" (does not match ${pattern}), text "${m.text}"`
            : `aria-label "${m.rawLabel}", text "${m.text}"`,
    },
  );
}

/** Waits for the meter to be hidden or absent. */
export async function waitForMeterHidden(page, { itemId = 'contextCompactor.meter' } = {}) {
  await waitUntil(
    () => readStatusBarItem(page, itemId),
    (item) => item === null,
    {
      expected: 'no meter in the status bar',
      describe: (item) => `meter visible with aria-label "${item && item.label}"`,
    },
  );
}

function modal(page) {
  return page.locator('.monaco-dialog-box[role="dialog"]');
}

/** Waits for a modal dialog and returns its message, detail and button labels. */
export async function readModal(page, { timeoutMs = WORK_TIMEOUT_MS } = {}) {
  const expected = 'a modal dialog (.monaco-dialog-box) with buttons';
  const baseline = await errorNotificationTexts(page);
  const buttons = modal(page).locator('.dialog-buttons .monaco-button');
  try {
    await waitUntil(
      async () => {
        await failOnNewError(page, baseline, expected);
        return buttons.first().isVisible();
      },
      (visible) => visible,
      { expected, timeoutMs },
    );
  } catch (err) {
    if (err instanceof E2eError && err.message === 'the extension reported an error') throw err;
    throw new E2eError('no modal dialog appeared', {
      expected,
      seen: `notifications: ${JSON.stringify(await notificationTexts(page))}`,
    });
  }
  const message = ((await modal(page).locator('.dialog-message-text').textContent()) || '').trim();
  const detail = (
    (await modal(page)
      .locator('.dialog-message-detail')
      .textContent()
      .catch(() => '')) || ''
  ).trim();
  const labels = (await buttons.allTextContents()).map((b) => b.trim());
  return { message, detail, buttons: labels };
}

/** Clicks the modal's button labelled exactly `buttonLabel` and waits for the dialog to close. */
export async function answerModal(page, buttonLabel) {
  const shown = await readModal(page);
  if (!shown.buttons.includes(buttonLabel)) {
    throw new E2eError(`the dialog has no "${buttonLabel}" button`, {
      expected: `a button "${buttonLabel}"`,
      seen: `buttons ${JSON.stringify(shown.buttons)} on "${shown.message}"`,
    });
  }
  await modal(page)
    .locator('.dialog-buttons .monaco-button', { hasText: exactly(buttonLabel) })
    .first()
    .click();
  await modal(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
  return shown;
}

/** Messages of the error notifications (toasts with the error icon) currently shown. */
export async function errorNotificationTexts(page) {
  return page
    .locator('.notifications-toasts .notification-toast')
    .evaluateAll((toasts) =>
      toasts
        .filter((t) => t.querySelector('.notification-list-item-icon.codicon-error'))
        .map((t) => (t.querySelector('.notification-list-item-message') || t).textContent.trim()),
    )
    .catch(() => []);
}

/**
 * Throws at once when an error notification appears that was not shown before `baseline`:
 * the extension reporting a failure should end a wait, not run out its timeout.
 */
async function failOnNewError(page, baseline, expected) {
  const errors = (await errorNotificationTexts(page)).filter((t) => !baseline.includes(t));
  if (errors.length) {
    throw new E2eError('the extension reported an error', { expected, seen: `error notification: ${JSON.stringify(errors)}` });
  }
}

/** Texts of the notification toasts currently shown. */
export async function notificationTexts(page) {
  return page
    .locator('.notifications-toasts .notification-toast .notification-list-item-message')
    .allTextContents()
    .catch(() => []);
}

/** Waits for a notification toast whose message contains `text`. */
export async function waitForNotification(page, text) {
  return waitUntil(
    () => notificationTexts(page),
    (texts) => texts.some((t) => t.includes(text)),
    { expected: `a notification containing "${text}"`, describe: (texts) => `notifications ${JSON.stringify(texts)}` },
  );
}

/** Closes every notification toast (they would cover later screenshots). */
export async function clearNotifications(page) {
  const toasts = page.locator('.notifications-toasts .notification-toast');
  for (let i = await toasts.count(); i > 0; i--) {
    await toasts
      .first()
      .hover()
      .catch(() => {});
    const close = toasts.first().locator('.codicon-notifications-clear');
    if (await close.isVisible().catch(() => false)) await close.click().catch(() => {});
    else break;
  }
}

/** Waits for an editor tab whose label is exactly `title` to be the active one. */
export async function waitForActiveTab(page, title) {
  // The tab's aria-label is the full name ("name.json", maybe followed by ", preview" or the
  // folder); its visible label splits the extension into another span.
  await waitUntil(
    () => page.locator('.tabs-container .tab.active').evaluateAll((tabs) => tabs.map((t) => t.getAttribute('aria-label') || '')),
    (labels) => labels.some((l) => l === title || l.startsWith(`${title},`)),
    { expected: `the active editor tab "${title}"`, timeoutMs: WORK_TIMEOUT_MS, describe: (l) => `active tabs ${JSON.stringify(l)}` },
  );
}

/**
 * The content frame of a webview panel. A webview is two nested iframes: the outer
 * `iframe.webview` (its src names the owning extension), then the page itself in #active-frame.
 * Waits until the panel's tab is active so the frame is the visible one.
 */
export async function webviewFrame(page, { title, extensionId }) {
  if (title) await waitForActiveTab(page, title);
  const outer = page.locator(`iframe.webview.ready[src*="extensionId=${extensionId}"]`).filter({ visible: true });
  try {
    await outer.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  } catch {
    throw new E2eError(`no webview of ${extensionId} became ready`, {
      expected: `iframe.webview.ready for extension ${extensionId}`,
      seen: `${await page.locator('iframe.webview').count()} webview iframe(s)`,
    });
  }
  return outer.first().contentFrame().frameLocator('#active-frame');
}

/**
 * Moves the pointer to an empty stretch of the status bar, so no hover from the last click
 * (a tab's path, a list row's tooltip) covers the picture.
 */
export async function parkMouse(page) {
  const size = page.viewportSize();
  if (size) await page.mouse.move(Math.round(size.width * 0.45), size.height - 4);
}

/**
 * Hovers a status-bar item and waits for its hover to show; resolves false when the item has
 * no hover (a tooltip is not part of the contract, so its absence is not a failure).
 */
export async function hoverStatusBarItem(page, itemId) {
  await statusBarItem(page, itemId).first().hover();
  return page
    .locator('.workbench-hover, .monaco-hover')
    .filter({ visible: true })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS / 3 })
    .then(
      () => true,
      () => false,
    );
}

/**
 * Numbered screenshots in one folder, so a failed run shows the steps in order. A shot marked
 * `readme` is also saved as readme/<name>.png, the candidates for the README's pictures.
 */
export function screenshotter(dir) {
  mkdirSync(join(dir, 'readme'), { recursive: true });
  let n = 0;
  const taken = [];
  return {
    dir,
    taken,
    async shot(page, name, { readme, clip, keepMouse = false } = {}) {
      n += 1;
      const file = join(dir, `${String(n).padStart(2, '0')}-${name}.png`);
      if (!keepMouse) await parkMouse(page);
      await page.screenshot({ path: file, clip });
      taken.push(file);
      if (readme) copyFileSync(file, join(dir, 'readme', `${readme}.png`));
      return file;
    },
  };
}
