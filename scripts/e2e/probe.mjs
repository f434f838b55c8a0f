// A tiny extension generated on the fly, with its own scenario, used by `run.mjs --probe` to prove the harness against
// this code-server build without depending on the real extension: --install-extension of a
// vsce-built .vsix, a palette command, a status-bar item whose aria-label follows the meter's
// format, a Quick Pick, a modal warning with custom buttons, and a webview panel.
import { join } from 'node:path';
import { packageTestExtension } from './tools.mjs';
import { answerModal, quickPick, readModal, runCommand, waitForMeter, webviewFrame, E2eError } from './page.mjs';

export const PROBE = {
  category: 'E2E Probe',
  titles: { open: 'Open Thing…', shrink: 'Shrink', panel: 'Show Panel' },
  pickTitle: 'Probe Pick',
  panelTitle: 'E2E Probe: Panel',
  before: 52314,
  after: 4980,
  window: 200000,
  headings: ['Primary Request and Intent', 'Current Work'],
};

const manifest = {
  name: 'e2e-probe',
  displayName: 'E2E Probe',
  description: 'Throw-away extension that checks the e2e harness',
  engines: { vscode: '^1.90.0' },
  activationEvents: ['onStartupFinished'],
  contributes: {
    commands: [
      { command: 'e2eProbe.open', title: PROBE.titles.open, category: PROBE.category },
      { command: 'e2eProbe.shrink', title: PROBE.titles.shrink, category: PROBE.category },
      { command: 'e2eProbe.panel', title: PROBE.titles.panel, category: PROBE.category },
    ],
  },
};

const source = `
const vscode = require('vscode');
const P = ${JSON.stringify(PROBE)};
function label(total) {
  return 'E2E Probe: ' + total + ' / ' + P.window + ' tokens (' + (total * 100 / P.window).toFixed(1) + '%)';
}
exports.activate = function (context) {
  const item = vscode.window.createStatusBarItem('e2eProbe.meter', vscode.StatusBarAlignment.Right, 100);
  item.name = 'E2E Probe';
  let total = 0;
  const show = () => {
    item.text = '$(pulse) ' + (total / 1000).toFixed(1) + 'k / 200k';
    item.accessibilityInformation = { label: label(total) };
    item.show();
  };
  context.subscriptions.push(item);
  context.subscriptions.push(vscode.commands.registerCommand('e2eProbe.open', async () => {
    const picked = await vscode.window.showQuickPick(
      [{ label: 'small.json', description: 'transcripts' }, { label: 'Browse…' }],
      { title: P.pickTitle });
    if (picked && picked.label === 'small.json') { total = P.before; show(); }
  }));
  context.subscriptions.push(vscode.commands.registerCommand('e2eProbe.shrink', async () => {
    const answer = await vscode.window.showWarningMessage(
      'Shrink it? ' + total + ' → ' + P.after + ' tokens', { modal: true, detail: 'probe detail' },
      'Compact', 'Inspect First…');
    if (answer === 'Compact') { total = P.after; show(); }
  }));
  context.subscriptions.push(vscode.commands.registerCommand('e2eProbe.panel', () => {
    const panel = vscode.window.createWebviewPanel('e2eProbe.panel', P.panelTitle, vscode.ViewColumn.One, { enableScripts: true });
    panel.webview.html = '<!doctype html><html><body>' +
      P.headings.map((h) => '<section><h2>' + h + '</h2></section>').join('') +
      '<div role="table"><div role="row">user: hello</div><div role="row">assistant: hi</div></div></body></html>';
  }));
};
exports.deactivate = function () {};
`;

/** Writes the probe into `dir` and packages it with vsce; returns the .vsix path. */
export function buildProbeVsix(dir) {
  return packageTestExtension(dir, { manifest, source, readme: '# E2E probe\n' });
}

/** The probe's meter label: the real meter's format under the probe's own name. */
const PROBE_METER = /^E2E Probe: (\d+) \/ (\d+) tokens \((\d+\.\d)%\)$/;

export const probeScenario = {
  name: 'probe',
  extensionId: 'ctxc-e2e.e2e-probe',

  async prepare({ sandbox, step }) {
    const vsix = await step('probe: build the throw-away extension with vsce', () => buildProbeVsix(join(sandbox.root, 'probe')));
    return { vsix };
  },

  async run({ page, step, shots }) {
    const meter = { itemId: 'e2eProbe.meter', pattern: PROBE_METER };
    await step('probe: palette command opens a Quick Pick; picking sets the status-bar label', async () => {
      await runCommand(page, `${PROBE.category}: ${PROBE.titles.open}`, { id: 'e2eProbe.open' });
      const listed = await quickPick(page, 'small.json', { title: PROBE.pickTitle });
      if (listed.at(-1) !== 'Browse…') {
        throw new E2eError('the Quick Pick does not end with Browse…', { expected: 'last item "Browse…"', seen: JSON.stringify(listed) });
      }
      await waitForMeter(page, (m) => m.total === PROBE.before, { ...meter, expected: `total ${PROBE.before}` });
      await shots.shot(page, 'probe-meter');
    });
    await step('probe: declining the modal changes nothing', async () => {
      await runCommand(page, `${PROBE.category}: ${PROBE.titles.shrink}`);
      await answerModal(page, 'Cancel');
      await waitForMeter(page, (m) => m.total === PROBE.before, { ...meter, expected: `total still ${PROBE.before}` });
    });
    await step('probe: modal shows before → after; Compact applies it', async () => {
      await runCommand(page, `${PROBE.category}: ${PROBE.titles.shrink}`);
      const shown = await readModal(page);
      if (!shown.message.includes(`${PROBE.before} → ${PROBE.after}`)) {
        throw new E2eError('the dialog does not show before → after', { expected: `${PROBE.before} → ${PROBE.after}`, seen: shown.message });
      }
      await shots.shot(page, 'probe-modal');
      await answerModal(page, 'Compact');
      await waitForMeter(page, (m) => m.total === PROBE.after, { ...meter, expected: `total ${PROBE.after}` });
    });
    await step('probe: webview headings and rows are readable through the nested frames', async () => {
      await runCommand(page, `${PROBE.category}: ${PROBE.titles.panel}`);
      const frame = await webviewFrame(page, { title: PROBE.panelTitle, extensionId: 'ctxc-e2e.e2e-probe' });
      for (const heading of PROBE.headings) {
        await frame.getByRole('heading', { name: heading, exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
      }
      const rows = await frame.getByRole('row').allTextContents();
      if (!rows.some((r) => /assistant/.test(r))) {
        throw new E2eError('no timeline row names its role', { expected: 'a row containing "assistant"', seen: JSON.stringify(rows) });
      }
      await shots.shot(page, 'probe-webview');
    });
    await step('probe: palette still works with focus inside a webview', async () => {
      await runCommand(page, `${PROBE.category}: ${PROBE.titles.shrink}`);
      await answerModal(page, 'Cancel');
    });
  },
};
