// Loads the real inspector bundle (dist/webview.js + dist/webview.css) in headless Chromium,
// inside the page the panel host renders (same HTML, same CSP, a fresh nonce), with a stub
// acquireVsCodeApi (stubVsCodeApi.js). The test plays the extension host: it reads what the
// page posts and answers with window.postMessage, through the real protocol.
//
// The page is served from a made-up https origin through request interception, so the CSP's
// source expressions behave as in VS Code; any request elsewhere is refused and recorded.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { INSPECTOR_TITLE, createNonce, renderInspectorHtml } from '../../src/extension/inspector/inspectorHtml';
import type { HostToWebview, WebviewToHost } from '../../src/shared/protocol';
import { THEMES, type ThemeKind } from './themes';

export const HARNESS_ORIGIN = 'https://webview.test';

/** The repository root: the folder holding this project's package.json, from the working
 *  directory up (vitest and `npm run bench` both run inside the repository; no import.meta,
 *  so the benchmark bundle can use this file too). */
function findRepoRoot(): string {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'context-compactor') return dir;
    } catch {
      // not here
    }
    if (dirname(dir) === dir) throw new Error(`harness: no context-compactor package.json above ${process.cwd()}`);
  }
}

export const repoRoot = findRepoRoot();
export const artifactsDir = join(repoRoot, 'test-artifacts', 'webview');

/** Debian's chromium (scripts/ensure-debian.mjs installs it), or CHROMIUM_PATH. */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const cmd of ['chromium', 'chromium-browser']) {
    const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
  }
  throw new Error('chromium not found: run `node scripts/ensure-debian.mjs` or set CHROMIUM_PATH');
}

/** playwright-core, loaded at run time: it finds its own files next to itself, so the
 *  benchmark bundle must not inline it. */
function playwright(): typeof import('playwright-core') {
  return createRequire(join(repoRoot, 'package.json'))('playwright-core') as typeof import('playwright-core');
}

export async function launchBrowser(): Promise<Browser> {
  return playwright().chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    const s = statSync(full);
    newest = Math.max(newest, s.isDirectory() ? newestMtime(full) : s.mtimeMs);
  }
  return newest;
}

/** Builds the bundles with the project's build script when the webview sources are newer. */
export function ensureWebviewBundle(): void {
  const js = join(repoRoot, 'dist', 'webview.js');
  const css = join(repoRoot, 'dist', 'webview.css');
  let built: number;
  try {
    built = Math.min(statSync(js).mtimeMs, statSync(css).mtimeMs);
  } catch {
    built = 0;
  }
  // The engine files the bundle takes values from (section names, decisions) count too.
  const engineValues = ['sections.ts', 'result.ts'].map((f) => statSync(join(repoRoot, 'src', 'engine', f)).mtimeMs);
  const sources = Math.max(newestMtime(join(repoRoot, 'webview-ui', 'src')), newestMtime(join(repoRoot, 'src', 'shared')), ...engineValues);
  if (built > sources) return;
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'pipe' });
}

export interface HarnessOptions {
  theme?: ThemeKind;
  /** What vscode.getState() returns at load (a reload's saved state). */
  savedState?: unknown;
  width?: number;
  height?: number;
}

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value ?? null).replace(/</g, '\\u003c');
}

/** The page: the panel host's HTML with the stub injected before the bundle, under the same nonce. */
export function harnessHtml(opts: HarnessOptions = {}): string {
  const nonce = createNonce();
  const html = renderInspectorHtml({
    cspSource: HARNESS_ORIGIN,
    nonce,
    scriptUri: `${HARNESS_ORIGIN}/dist/webview.js`,
    styleUri: `${HARNESS_ORIGIN}/dist/webview.css`,
    title: INSPECTOR_TITLE,
  });
  const theme = THEMES[opts.theme ?? 'dark'];
  const setup = `window.__ccInitialState = ${opts.savedState === undefined ? 'undefined' : scriptJson(opts.savedState)};
(function () {
  var vars = ${scriptJson(theme.vars)};
  for (var k in vars) document.documentElement.style.setProperty(k, vars[k]);
  document.addEventListener('DOMContentLoaded', function () { document.body.classList.add(${scriptJson(theme.bodyClass)}); });
})();`;
  const stub = readFileSync(join(repoRoot, 'test', 'webview', 'stubVsCodeApi.js'), 'utf8');
  const injected = `<script nonce="${nonce}">${setup}</script>\n<script nonce="${nonce}">${stub}</script>\n`;
  const at = html.indexOf('<script nonce=');
  if (at < 0) throw new Error('harness: the inspector page has no script tag to inject before');
  return html.slice(0, at) + injected + html.slice(at);
}

export interface Harness {
  page: Page;
  /** Requests the page tried to make outside the harness origin (all refused). */
  foreignRequests: string[];
  /** console.error messages and uncaught page errors. */
  errors: string[];
  dialogs: string[];
  /** Sends a host → webview message. */
  send(message: HostToWebview): Promise<void>;
  /** Everything the page posted so far. */
  posted(): Promise<WebviewToHost[]>;
  /** Waits for a posted message that matches, returns it. */
  waitForPost<T extends WebviewToHost>(match: (m: WebviewToHost) => m is T, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export async function openHarness(browser: Browser, opts: HarnessOptions = {}): Promise<Harness> {
  const page = await browser.newPage({ viewport: { width: opts.width ?? 1400, height: opts.height ?? 1000 } });
  const foreignRequests: string[] = [];
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  const html = harnessHtml(opts);
  writeHarnessCopy(html);
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (!url.startsWith(`${HARNESS_ORIGIN}/`)) {
      foreignRequests.push(url);
      return route.abort();
    }
    const path = new URL(url).pathname;
    if (path === '/' || path === '/index.html') return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
    if (path === '/dist/webview.js' || path === '/dist/webview.css') {
      const body = readFileSync(join(repoRoot, path.slice(1)));
      return route.fulfill({ status: 200, contentType: path.endsWith('.js') ? 'text/javascript' : 'text/css', body });
    }
    foreignRequests.push(url);
    return route.fulfill({ status: 404, body: '' });
  });
  await page.goto(`${HARNESS_ORIGIN}/`);
  const harness: Harness = {
    page,
    foreignRequests,
    errors,
    dialogs,
    send: async (message) => {
      await page.evaluate((m) => window.postMessage(m, '*'), message as unknown as Record<string, unknown>);
    },
    posted: () => page.evaluate(() => (window as unknown as { __cc: { posted: WebviewToHost[] } }).__cc.posted),
    waitForPost: async <T extends WebviewToHost>(match: (m: WebviewToHost) => m is T, timeoutMs = 10_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = (await harness.posted()).find(match);
        if (found) return found;
        if (Date.now() > until)
          throw new Error(`harness: no matching message posted within ${timeoutMs} ms; posted: ${JSON.stringify(await harness.posted()).slice(0, 500)}`);
        await page.waitForTimeout(20);
      }
    },
    close: () => page.close(),
  };
  await harness.waitForPost((m): m is WebviewToHost => m.type === 'ready');
  return harness;
}

function writeHarnessCopy(html: string): void {
  // For opening by hand: the page as the tests load it (serve the repo root at the harness origin).
  mkdirSync(artifactsDir, { recursive: true });
  writeFileSync(join(artifactsDir, 'harness.html'), html);
}

export function isType<K extends WebviewToHost['type']>(type: K) {
  return (m: WebviewToHost): m is Extract<WebviewToHost, { type: K }> => m.type === type;
}
