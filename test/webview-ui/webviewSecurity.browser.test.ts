// Conversation text is untrusted. A hostile corpus in messages, section texts, missing facts
// and the conversation label must execute nothing (the flag its payloads would set stays unset,
// no dialog opens, no element of theirs appears) and must show as the literal text it is.

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Message } from '../../src/engine/conversation/model';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { buildInspectorModel } from '../../src/extension/inspector/inspectorModel';
import type { InspectorModel } from '../../src/shared/protocol';
import { fixtureResult } from '../webview/compactionFixture';
import { ensureWebviewBundle, launchBrowser, openHarness, type Harness } from '../webview/harness';
import { compactionFigures } from '../../src/engine/figures';

/** Each payload would set window.__pwned if it ever ran. */
const PAYLOADS = [
  `<script>window.__pwned = 'script'</script>`,
  `<img src=x onerror="window.__pwned='img'">`,
  `<a href="javascript:window.__pwned='link'">click me</a> javascript:window.__pwned='bare'`,
  `</style><style>body{display:none}</style>`,
  `</textarea><script>window.__pwned='textarea'</script><textarea>`,
  `<svg onload="window.__pwned='svg'"></svg><iframe src="javascript:window.__pwned='iframe'"></iframe>`,
  `"><body onload="window.__pwned='attr'"><div style="background:url(javascript:alert(1))">`,
  `&lt;b&gt;escaped entities stay literal&lt;/b&gt; &amp; &#x3C;script&#x3E;`,
  `{{constructor.constructor('window.__pwned=1')()}} \${window.__pwned='template'}`,
  `report\u202Eexe.txt — a right-to-left override \u2066isolate\u2069 inside`,
];
const BIG_LINE = `BIG-LINE-START ${'x'.repeat(1_000_000)} BIG-LINE-END`;

function hostileConversation(): Conversation {
  const messages: Message[] = [{ id: 'sys', role: 'system', itemType: 'SYSTEM_PROMPT', content: [{ type: 'text', text: `You are helpful. ${PAYLOADS[0]}` }] }];
  PAYLOADS.forEach((p, i) => {
    messages.push({ id: `u${i}`, role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text: p }] });
    messages.push({ id: `a${i}`, role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: [{ type: 'text', text: `Echo: ${p}` }] });
  });
  messages.push({ id: 'big', role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text: BIG_LINE }] });
  messages.push({ id: 'last', role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: [{ type: 'text', text: 'Done.' }] });
  return { id: 'hostile', format: 'openai', messages, meta: {} };
}

let browser: Browser;
let model: InspectorModel;

beforeAll(async () => {
  ensureWebviewBundle();
  browser = await launchBrowser();
  const conv = hostileConversation();
  const counter = await createTokenCounter('gpt-4o');
  const result = fixtureResult(conv, counter);
  // Hostile text in every other place the inspector shows text too.
  result.summary.sections = result.summary.sections.map((s, i) => ({ ...s, text: `${PAYLOADS[i % PAYLOADS.length]}\n${s.text}` }));
  result.loss.missing = PAYLOADS.map((p, i) => ({ kind: 'keyword' as const, value: p, sourceId: `u${i}` }));
  // A warning quotes a model's words (an LLM summary's claim): hostile text in its parameters.
  result.warnings = [{ code: 'unsupportedClaim', summarizer: 'openai', kind: 'filePath', section: 'Files and Code Sections', text: PAYLOADS[1]! }];
  model = buildInspectorModel({
    key: 'hostile',
    label: `<img src=x onerror="window.__pwned='label'">.jsonl`,
    phase: 'preview',
    before: conv,
    compaction: { result, figures: compactionFigures({ overhead: 0, window: 128_000 }, result) },
    model: `<script>window.__pwned='model'</script>`,
    canUndo: false,
  });
});

afterAll(async () => {
  await browser?.close();
});

async function pwned(h: Harness): Promise<unknown> {
  return h.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
}

describe('hostile conversation text', () => {
  it('executes nothing, adds no element of its own and renders every payload as literal text', async () => {
    const h = await openHarness(browser);
    await h.send({ type: 'init', model });
    await h.page.waitForFunction((n) => document.querySelectorAll('[role="row"]').length === n, model.messages.length);
    await h.page.waitForFunction(() => /lines removed/.test(document.querySelector('.diff-summary')?.textContent ?? ''));

    // Visit the places that show full text: details of each hostile message, its own diff,
    // a section editor (a <textarea> whose content tries to close it), the search box.
    for (const id of ['u0', 'u1', 'u4', 'a3', 'u9']) {
      await h.page.click(`[role="row"][data-id="${id}"] .preview`);
      await h.page.click(`[role="row"][data-id="${id}"] [data-action="diff"]`);
    }
    await h.page.click('.card[data-section="Errors and fixes"] [data-action="edit-section"]');
    await h.page.fill('input.search', '<script>');
    await h.page.waitForFunction(
      () =>
        /^\d+ of \d+ messages/.test(document.querySelector('.match-count')?.textContent ?? '') && document.querySelectorAll('[role="row"][hidden]').length > 0,
    );

    expect(await pwned(h)).toBeUndefined();
    expect(h.dialogs).toEqual([]);
    expect(h.errors).toEqual([]);
    expect(h.foreignRequests).toEqual([]);
    const dom = await h.page.evaluate(() => ({
      bodyDisplay: getComputedStyle(document.body).display,
      styles: document.querySelectorAll('style').length,
      scripts: document.querySelectorAll('script').length,
      // Row groups get their stand-in height through the CSSOM (timeline.ts), as importance bars do.
      foreign: document.querySelectorAll('img, svg, iframe, a, object, embed, body div[style]:not(.row-group), [onerror], [onload]').length,
      textareas: document.querySelectorAll('textarea').length,
      violations: (window as unknown as { __cc: { cspViolations: unknown[] } }).__cc.cspViolations,
    }));
    expect(dom).toEqual({ bodyDisplay: 'block', styles: 0, scripts: 3, foreign: 0, textareas: 1, violations: [] });

    // Every payload is on the page as text: in the timeline rows (as the search left them: the
    // ones containing "<script>"), in the diff, the section cards, the missing-fact list.
    await h.page.fill('input.search', '');
    await h.page.waitForFunction(() => document.querySelectorAll('[role="row"][hidden]').length === 0);
    const pageText = await h.page.evaluate(() => document.body.innerText);
    for (const p of PAYLOADS) expect(pageText).toContain(p.replace(/\s+/g, ' ').trim().slice(0, 60));
    for (let i = 0; i < PAYLOADS.length; i++) {
      const preview = await h.page.textContent(`[role="row"][data-id="u${i}"] .preview-text`);
      expect(preview).toBe(PAYLOADS[i]!.replace(/\s+/g, ' ').trim().slice(0, 240));
    }
    expect(await h.page.inputValue('.card[data-section="Errors and fixes"] textarea')).toBe(model.sections[3]!.text);
    expect(await h.page.textContent('h1')).toContain(`<img src=x onerror="window.__pwned='label'">.jsonl`);
    expect(await h.page.textContent('dl.stats')).toContain(`<script>window.__pwned='model'</script>`);

    // The right-to-left override stays inside its message: the row's role cell still reads "user".
    expect(await h.page.textContent('[role="row"][data-id="u9"] .role')).toBe('user');
    expect(await h.page.locator('[role="row"][data-id="u9"] .bidi-flag').count()).toBe(1);
    expect(await pwned(h)).toBeUndefined();
    await h.close();
  });

  it('shows a 1 MB single line without stalling: a preview in the row, the start in the details, the rest on request', async () => {
    const h = await openHarness(browser);
    await h.send({ type: 'init', model });
    const row = '[role="row"][data-id="big"]';
    await h.page.waitForSelector(row);
    expect((await h.page.textContent(`${row} .preview-text`))!.startsWith('BIG-LINE-START x')).toBe(true);
    expect((await h.page.textContent(`${row} .preview-text`))!.length).toBeLessThanOrEqual(241);
    await h.page.click(`${row} .preview`);
    const shown = await h.page.textContent('.details .message-text');
    expect(shown!.startsWith('BIG-LINE-START')).toBe(true);
    expect(shown!.length).toBe(20_000);
    await h.page.click('[data-action="details-more"]');
    expect((await h.page.textContent('.details .message-text'))!.endsWith('BIG-LINE-END')).toBe(true);
    await h.page.click(`${row} [data-action="diff"]`);
    await h.page.waitForSelector('.diff-content .block[data-id="big"] .cut');
    expect(await h.page.textContent('.diff-content .block[data-id="big"] .cut')).toContain('more characters');
    expect(h.errors).toEqual([]);
    await h.close();
  });

  it('the CSP is live: a script without the nonce does not run, and the violation is reported', async () => {
    const h = await openHarness(browser);
    await h.page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = `window.__pwned = 'no nonce'`;
      document.body.appendChild(s);
    });
    await h.page.waitForFunction(() => (window as unknown as { __cc: { cspViolations: unknown[] } }).__cc.cspViolations.length > 0);
    expect(await pwned(h)).toBeUndefined();
    const violations = await h.page.evaluate(() => (window as unknown as { __cc: { cspViolations: { directive: string }[] } }).__cc.cspViolations);
    expect(violations.map((v) => v.directive)).toContain('script-src-elem');
    await h.close();
  });
});
