// `npm run test:e2e`: the packaged extension in real VS Code (code-server), driven by
// playwright-core through Debian's chromium. Installs its own tools (cached in .cache/e2e/),
// runs every step with a timing, writes screenshots and logs to test-artifacts/e2e/, stops every
// process it started by process group, and exits 0 only when every step passed.
//
//   node scripts/e2e/run.mjs                      the Context Compactor scenario
//   node scripts/e2e/run.mjs --probe              the harness against a throw-away extension
//   options: --no-package (reuse dist/context-compactor.vsix), --keep (keep the temp folder),
//            --update-screenshots (copy the README pictures to media/screenshots/)
import { chromium } from 'playwright-core';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { installExtension, makeSandbox, readLogTail, startCodeServer, workbenchUrl } from './codeServer.mjs';
import { screenshotter, waitForWorkbench } from './page.mjs';
import { killAllGroupsNow, stopAllGroups } from './processes.mjs';
import { probeScenario } from './probe.mjs';
import { compactorScenario } from './scenario.mjs';
import { StepFailed, createStepRunner } from './steps.mjs';
import { ensureTools, repoRoot } from './tools.mjs';

/** Chromium flags for a headless run with no network of its own and no first-run work. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];
/** Big enough that the status bar, a dialog and the inspector fit in one readable picture. */
const VIEWPORT = { width: 1400, height: 900 };
/** The whole run after the tools are installed; a hang anywhere ends as a failure, not a stuck CI. */
const RUN_TIMEOUT_MS = 20 * 60_000;
/** Closing the browser should take a second; never let teardown itself hang. */
const CLOSE_TIMEOUT_MS = 15_000;

const argv = new Set(process.argv.slice(2));
const known = new Set(['--probe', '--no-package', '--keep', '--update-screenshots']);
for (const a of argv) {
  if (!known.has(a)) {
    console.error(`[e2e] unknown option ${a}; known: ${[...known].join(' ')}`);
    process.exit(2);
  }
}
const options = {
  probe: argv.has('--probe'),
  skipPackage: argv.has('--no-package'),
  keep: argv.has('--keep'),
  updateScreenshots: argv.has('--update-screenshots'),
};
const scenario = options.probe ? probeScenario : compactorScenario;
const artifacts = join(repoRoot, 'test-artifacts', 'e2e');

const state = { sandbox: null, server: null, context: null, page: null, prepared: null };

function rel(p) {
  return relative(process.cwd(), p) || p;
}

/** The output-channel log VS Code keeps for an extension, in the sandbox's user-data logs. */
function findExtensionLog(sandbox, extensionId) {
  const root = join(sandbox.userData, 'logs');
  if (!existsSync(root)) return null;
  for (const entry of readdirSync(root, { recursive: true })) {
    const parts = entry.split('/');
    if (parts.length >= 2 && parts.at(-2) === extensionId && entry.endsWith('.log')) return join(root, entry);
  }
  return null;
}

function withTimeout(promise, ms) {
  return Promise.race([promise, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
}

let teardownPromise = null;
/** Idempotent: closes the browser, stops code-server's process group, keeps logs, removes temp dirs. */
function teardown() {
  teardownPromise ??= (async () => {
    if (state.context)
      await withTimeout(
        state.context.close().catch(() => {}),
        CLOSE_TIMEOUT_MS,
      );
    await stopAllGroups();
    // What the scenario started in this process (a fake model server).
    if (state.prepared?.close)
      await withTimeout(
        state.prepared.close().catch(() => {}),
        CLOSE_TIMEOUT_MS,
      );
    if (state.server && existsSync(state.server.logFile)) copyFileSync(state.server.logFile, join(artifacts, 'code-server.log'));
    if (state.sandbox) {
      const logs = join(state.sandbox.userData, 'logs');
      if (existsSync(logs)) cpSync(logs, join(artifacts, 'vscode-logs'), { recursive: true });
      if (options.keep) console.log(`[e2e] kept ${state.sandbox.root}`);
      else rmSync(state.sandbox.root, { recursive: true, force: true });
    }
  })();
  return teardownPromise;
}

function exitAfterTeardown(code) {
  teardown()
    .catch((err) => console.error(`[e2e] teardown: ${err.message}`))
    .finally(() => process.exit(code));
}

// Last resort when the process ends without the async teardown having finished.
process.on('exit', () => {
  killAllGroupsNow();
  if (state.sandbox && !options.keep) rmSync(state.sandbox.root, { recursive: true, force: true });
});
process.on('SIGINT', () => {
  console.error('[e2e] interrupted (SIGINT); stopping what was started');
  exitAfterTeardown(130);
});
process.on('SIGTERM', () => {
  console.error('[e2e] terminated (SIGTERM); stopping what was started');
  exitAfterTeardown(143);
});
process.on('uncaughtException', (err) => {
  console.error(`[e2e] uncaught error: ${err.stack || err}`);
  exitAfterTeardown(1);
});
process.on('unhandledRejection', (err) => {
  console.error(`[e2e] unhandled rejection: ${(err && err.stack) || err}`);
  exitAfterTeardown(1);
});

rmSync(artifacts, { recursive: true, force: true });
mkdirSync(artifacts, { recursive: true });
const shots = screenshotter(artifacts);
const consoleLog = join(artifacts, 'browser-console.log');
const runner = createStepRunner({
  onFailure: async () => {
    const out = { artifacts, lines: [] };
    if (state.page) out.screenshot = await shots.shot(state.page, 'FAILED').catch(() => undefined);
    if (state.server) {
      out.lines.push(`code-server log: ${rel(join(artifacts, 'code-server.log'))} (extension host logs in ${rel(join(artifacts, 'vscode-logs'))})`);
      const tail = readLogTail(state.server.logFile, 8).trim();
      if (tail) out.lines.push(`last code-server lines:\n    ${tail.split('\n').join('\n    ')}`);
    }
    const extLog = state.sandbox && findExtensionLog(state.sandbox, scenario.extensionId);
    if (extLog) {
      const tail = readLogTail(extLog, 12).trim();
      out.lines.push(`the extension's own log (${scenario.extensionId}), last lines:\n    ${tail ? tail.split('\n').join('\n    ') : '(empty)'}`);
    }
    return out;
  },
});

async function main() {
  const step = runner.step;

  const tools = await step('install tools (Node 24, code-server, chromium; cached in .cache/e2e)', () => ensureTools());
  const watchdog = setTimeout(() => {
    console.error(`[e2e] the run exceeded ${RUN_TIMEOUT_MS / 60_000} minutes; stopping it`);
    exitAfterTeardown(1);
  }, RUN_TIMEOUT_MS);

  state.sandbox = makeSandbox();
  const prepared = await scenario.prepare({ sandbox: state.sandbox, step, options, artifacts });
  state.prepared = prepared;

  await step('install the .vsix into a temporary extensions dir', () => {
    const out = installExtension(tools, state.sandbox, prepared.vsix);
    console.log(`[e2e]   ${out.split('\n').at(-1)}`);
  });
  // Test-only helpers a scenario builds (never part of the product .vsix), in the same dir.
  for (const extra of prepared.extraVsix ?? []) {
    await step(`install ${extra.label} into the same extensions dir`, () => {
      const out = installExtension(tools, state.sandbox, extra.vsix);
      console.log(`[e2e]   ${out.split('\n').at(-1)}`);
    });
  }

  state.server = await step('start code-server on 127.0.0.1', async () => {
    const server = await startCodeServer(tools, state.sandbox, join(state.sandbox.root, 'code-server.log'), prepared.env);
    console.log(`[e2e]   ${server.url} (pid ${server.pid})`);
    return server;
  });

  state.page = await step('launch chromium and open the workbench', async () => {
    state.context = await chromium.launchPersistentContext(state.sandbox.browserProfile, {
      executablePath: tools.chromium,
      args: CHROMIUM_ARGS,
      headless: true,
      viewport: VIEWPORT,
      // Our own handlers stop everything in order; Playwright's would exit mid-teardown.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const page = state.context.pages()[0] || (await state.context.newPage());
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') appendFileSync(consoleLog, `[${msg.type()}] ${msg.text()}\n`);
    });
    page.on('pageerror', (err) => appendFileSync(consoleLog, `[pageerror] ${err.message}\n`));
    await page.goto(workbenchUrl(state.server, state.sandbox.workspace));
    await waitForWorkbench(page);
    await shots.shot(page, 'workbench');
    return page;
  });

  await scenario.run({ page: state.page, step, shots, prepared, sandbox: state.sandbox, options });
  clearTimeout(watchdog);

  if (options.updateScreenshots) {
    const target = join(repoRoot, 'media', 'screenshots');
    mkdirSync(target, { recursive: true });
    for (const f of readdirSync(join(artifacts, 'readme'))) copyFileSync(join(artifacts, 'readme', f), join(target, f));
    console.log(`[e2e] README screenshots copied to ${rel(target)}`);
  }
}

let exitCode = 0;
const t0 = Date.now();
try {
  await main();
} catch (err) {
  exitCode = 1;
  if (err instanceof StepFailed) console.error(err.message);
  else console.error(`[e2e] ${err && err.stack ? err.stack : err}`);
}
console.log(`[e2e] timings:\n${runner.summary()}`);
console.log(`[e2e] screenshots and logs: ${rel(shots.dir)} (${shots.taken.length} screenshots)`);
const passed = runner.done.filter((d) => d.ok).length;
console.log(`e2e: ${passed} passed, ${exitCode === 0 ? 0 : 1} failed`);
await teardown().catch((e) => console.error(`[e2e] teardown: ${e.message}`));
console.log(`[e2e] total ${((Date.now() - t0) / 1000).toFixed(1)}s, exit ${exitCode}`);
writeFileSync(join(artifacts, 'result.txt'), exitCode === 0 ? 'passed\n' : 'failed\n');
process.exit(exitCode);
