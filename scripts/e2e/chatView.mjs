// Page helpers for VS Code's chat view (the secondary side bar's Chat), in the style of page.mjs:
// every wait is for a condition in the DOM, and a timeout says what was expected and what was seen.
//
// The chat list is a virtualized tree: each request and each response is a `.monaco-list-row`
// with a data-index (request, response, request, …), the newest one carries
// data-last-element="true", and a response still streaming has `.chat-response-loading` on its
// `.interactive-item-container`. While a request runs, the input's Send action is replaced by a
// Cancel action.
import { E2eError, UI_TIMEOUT_MS, WORK_TIMEOUT_MS, parkMouse, runCommand, waitUntil } from './page.mjs';

const OPEN_CHAT = { id: 'workbench.action.chat.openask', title: 'Chat: Open Chat (Ask)' };

function inputPart(page) {
  return page.locator('.part.auxiliarybar .interactive-input-part').first();
}

function listRows(page) {
  return page.locator('.part.auxiliarybar .interactive-list .monaco-list-row:not(.monaco-tree-sticky-row)');
}

function sendAction(page) {
  return inputPart(page).locator('.action-item a[aria-label^="Send"]').first();
}

/** Opens the Chat view in Ask mode from the Command Palette and waits for its input. */
export async function openChat(page) {
  await runCommand(page, OPEN_CHAT.title, { id: OPEN_CHAT.id });
  try {
    await inputPart(page).locator('.interactive-input-editor').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  } catch {
    throw new E2eError('the Chat view did not open', {
      expected: 'a chat input (.interactive-input-part) in the secondary side bar',
      seen: `${await page.locator('.interactive-input-part').count()} chat input(s) anywhere`,
    });
  }
}

/** Waits until the chat input's model picker shows the model named `name`. */
export async function waitForChatModel(page, name) {
  const picker = inputPart(page).locator('[aria-label^="Models"]').first();
  await waitUntil(
    async () => (await picker.getAttribute('aria-label', { timeout: 1_000 })) || '',
    (label) => label.includes(name),
    { expected: `the chat model picker to show "${name}"`, timeoutMs: WORK_TIMEOUT_MS, describe: (l) => `picker "${l}"` },
  );
}

/**
 * Drags the sash between the editor area and the secondary side bar so that the chat is about
 * `width` pixels wide (the default is too narrow for a readable picture).
 */
export async function widenChat(page, width) {
  const part = page.locator('.part.auxiliarybar');
  const box = await part.boundingBox();
  if (!box) throw new E2eError('the secondary side bar is not visible', { expected: '.part.auxiliarybar', seen: 'no box' });
  if (box.width < width) {
    const x = box.x - 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x - (width - box.width), y, { steps: 8 });
    await page.mouse.up();
  }
  await waitUntil(
    async () => (await part.boundingBox())?.width ?? 0,
    (w) => w >= width - 8,
    { expected: `the Chat view about ${width}px wide`, describe: (w) => `${Math.round(w)}px wide` },
  );
}

async function lastRowIndex(page) {
  const indexes = await listRows(page).evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-index'))));
  return indexes.length ? Math.max(...indexes) : -1;
}

async function inputText(page) {
  const text = await inputPart(page).locator('.interactive-input-editor .view-lines').first().innerText();
  return text.replace(/\u00a0/g, ' ').trim();
}

/**
 * Types `text` into the chat input, sends it, and waits for the answer to finish. Returns the
 * reply's text and its Markdown tables (each an array of rows, each an array of cell texts).
 */
export async function sendChat(page, text) {
  const before = await lastRowIndex(page);
  await inputPart(page).locator('.interactive-input-editor .monaco-editor').first().click();
  await page.keyboard.type(text);
  await waitUntil(
    () => inputText(page),
    (t) => t === text,
    {
      expected: `the chat input to read "${text}"`,
      describe: (t) => `input "${t}"`,
    },
  );
  // The Send button, not Enter: Enter may accept the slash-command suggestion instead. The
  // pointer leaves it at once, so its tooltip does not end up in a screenshot.
  await sendAction(page).click();
  await parkMouse(page);
  const reply = await waitUntil(
    async () => {
      const last = await listRows(page).evaluateAll((rows, after) => {
        const row = rows.find((r) => r.getAttribute('data-last-element') === 'true');
        if (!row) return { state: 'no rows' };
        const index = Number(row.getAttribute('data-index'));
        if (index <= after) return { state: 'request not listed yet' };
        if (!row.classList.contains('response')) return { state: 'no response row yet' };
        const item = row.querySelector('.interactive-item-container');
        if (!item || item.classList.contains('chat-response-loading')) return { state: 'response streaming', text: item?.innerText };
        const tables = [...item.querySelectorAll('table')].map((t) =>
          [...t.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('th,td')].map((c) => c.innerText.trim())),
        );
        const markdown = [...item.querySelectorAll('.rendered-markdown')].map((m) => m.innerText).join('\n');
        return { state: 'done', text: item.innerText, markdown, tables };
      }, before);
      const idle = last.state === 'done' && (await sendAction(page).isVisible());
      return { ...last, idle };
    },
    (r) => r.state === 'done' && r.idle,
    {
      expected: `a finished reply to "${text}"`,
      timeoutMs: WORK_TIMEOUT_MS,
      describe: (r) => `${r.state}${r.state === 'done' ? ' (the request is still running)' : ''}${r.text ? `: ${JSON.stringify(r.text.slice(0, 200))}` : ''}`,
    },
  );
  await waitUntil(
    () => page.locator('.workbench-hover, .monaco-hover').filter({ visible: true }).count(),
    (n) => n === 0,
    { expected: 'no hover left over the chat', describe: (n) => `${n} visible hover(s)` },
  );
  return { text: reply.text, markdown: reply.markdown, tables: reply.tables };
}

/** Parses "1,427" (and "1427") to 1427; NaN when it is not a grouped integer. */
export function groupedInt(text) {
  const t = String(text).trim();
  return /^\d{1,3}(,\d{3})*$|^\d+$/.test(t) ? Number(t.replace(/,/g, '')) : NaN;
}
