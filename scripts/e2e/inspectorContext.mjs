// The inspector's Context pane in real VS Code: the chart of the context over time, what
// compacting costs and the biggest items are shown for the open conversation, and "Compact up to
// here" on a timeline message previews a compaction of that part only (nothing is applied: the
// pane goes back to the whole conversation before the next step).
import { E2eError, UI_TIMEOUT_MS, waitUntil, WORK_TIMEOUT_MS } from './page.mjs';

const HEADINGS = ['Context over time', 'What compacting costs', 'Biggest items'];

/** `frame`: the inspector's content frame (webviewFrame). Resolves with what it saw, for the log. */
export async function checkInspectorContext(page, frame, shots) {
  for (const heading of HEADINGS) {
    try {
      await frame.getByRole('heading', { name: heading, exact: true }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    } catch {
      throw new E2eError(`the inspector's Context pane shows no heading "${heading}"`, { expected: JSON.stringify(HEADINGS), seen: 'not visible' });
    }
  }
  const caption = (await frame.locator('.chart-caption').textContent()) ?? '';
  if (!/(requests|assistant messages).*: the last [\d,]+ tokens/.test(caption) || (await frame.locator('.chart .usage-line').count()) !== 1) {
    throw new E2eError('the context chart is not drawn', { expected: 'a line and "N requests…: the last T tokens"', seen: JSON.stringify(caption) });
  }
  const cost = (await frame.locator('.cost').textContent()) ?? '';
  if (!cost.includes('The next request writes')) {
    throw new E2eError('the cost of compacting is not said', {
      expected: '"The next request writes … tokens … to the prompt cache"',
      seen: JSON.stringify(cost.slice(0, 200)),
    });
  }
  const items = await frame.locator('.biggest li').count();
  if (items === 0) throw new E2eError('the biggest items list is empty', { expected: 'items, or the line saying there are none', seen: 'no list items' });

  // Compact up to a message in the middle of the timeline.
  const rows = frame.locator('[role="row"]');
  const n = await rows.count();
  const row = rows.nth(Math.floor(n / 2));
  const index = await row.getAttribute('data-index');
  await row.locator('.preview').click();
  await frame.locator('[data-action="details-up-to"]').click();
  const scope = frame.locator('.scope');
  const wanted = `Compacting up to message #${index}`;
  await waitUntil(
    async () => ((await scope.isVisible()) ? ((await scope.textContent()) ?? '') : ''),
    (t) => t.includes(wanted),
    { expected: wanted, timeoutMs: UI_TIMEOUT_MS },
  );
  // The preview of that range comes back: every later message is kept.
  await waitUntil(
    async () =>
      frame
        .locator(`[role="row"]`)
        .evaluateAll((els, at) => els.filter((e) => Number(e.dataset.index) > at).map((e) => e.querySelector('.decision .badge')?.textContent), Number(index)),
    (fates) => fates.length > 0 && fates.every((f) => f === 'kept'),
    { expected: `every message after #${index} kept`, timeoutMs: WORK_TIMEOUT_MS, describe: (f) => JSON.stringify(f) },
  );
  await shots.shot(page, 'inspector-context', { readme: 'inspector-context-vscode' });
  await frame.locator('[data-action="whole"]').click();
  await scope.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
  return { caption, items, upTo: Number(index), rows: n };
}
