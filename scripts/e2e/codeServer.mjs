// A throw-away code-server: its own user-data dir (with settings that keep the workbench quiet
// and deterministic), its own extensions dir, XDG dirs and config file under one temp folder, so
// a run touches nothing in $HOME and leaves nothing behind.
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnGroup, stopGroup } from './processes.mjs';

/** Installing a .vsix is a short unzip, but code-server's first start scans its built-ins. */
const INSTALL_EXTENSION_TIMEOUT_MS = 120_000;
/** code-server binds within a couple of seconds; minutes mean it is stuck. */
const LISTEN_TIMEOUT_MS = 60_000;

/**
 * User settings for the test's workbench: no welcome page, no trust prompt, no telemetry, no
 * update checks, tips or AI/chat UI (its sign-in prompt would cover the status bar; the chat
 * steps turn chat on at the end), and the simple file dialog so that showOpenDialog stays inside
 * the page.
 */
export const WORKBENCH_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.colorTheme': 'Default Dark Modern',
  'security.workspace.trust.enabled': false,
  'files.simpleDialog.enable': true,
  'telemetry.telemetryLevel': 'off',
  'telemetry.feedback.enabled': false,
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  // For the chat steps (scripts/e2e/chatModel.mjs): the built-in Copilot Chat extension would
  // cover the chat input with "Set BYOK utility models" once the test model exists.
  'chat.byokUtilityModelDefault': 'mainAgent',
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  // For the sessions steps: the terminal draws its text into the DOM (readable by the test), keeps
  // no sessions across reloads, and asks nothing when a terminal with a running agent is killed.
  'terminal.integrated.gpuAcceleration': 'off',
  'terminal.integrated.enablePersistentSessions': false,
  'terminal.integrated.confirmOnKill': 'never',
};

/** A fresh temp layout: user data (with settings.json), extensions, workspace, XDG homes. */
export function makeSandbox(prefix = 'ctxc-e2e-') {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const dirs = {
    root,
    userData: join(root, 'user-data'),
    extensions: join(root, 'extensions'),
    workspace: join(root, 'workspace'),
    xdg: join(root, 'xdg'),
    browserProfile: join(root, 'browser-profile'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeFileSync(join(dirs.userData, 'User', 'settings.json'), JSON.stringify(WORKBENCH_SETTINGS, null, 2) + '\n');
  dirs.config = join(root, 'code-server.yaml');
  writeFileSync(dirs.config, 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
  return dirs;
}

/** code-server's environment; `extra` (a scenario's, e.g. a temporary HOME and an agent's model
 *  server) reaches the extension host and every terminal. */
function codeServerEnv(sandbox, extra = {}) {
  const env = {};
  // Nothing from `npm run` (npm_*), and no editor hooks from a developer's shell.
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(npm_|VSCODE_|ELECTRON_)/i.test(k)) env[k] = v;
  }
  return {
    ...env,
    ...extra,
    XDG_CONFIG_HOME: join(sandbox.xdg, 'config'),
    XDG_DATA_HOME: join(sandbox.xdg, 'data'),
    XDG_CACHE_HOME: join(sandbox.xdg, 'cache'),
    // No extension gallery: the machine has no internet, and a gallery query is only noise.
    EXTENSIONS_GALLERY: '{}',
  };
}

function baseArgs(tools, sandbox) {
  return [tools.codeServer.entry, '--config', sandbox.config, '--user-data-dir', sandbox.userData, '--extensions-dir', sandbox.extensions];
}

/** `code-server --install-extension <vsix>` into the sandbox's extensions dir. */
export function installExtension(tools, sandbox, vsix) {
  const r = spawnSync(tools.node.bin, [...baseArgs(tools, sandbox), '--install-extension', vsix], {
    env: codeServerEnv(sandbox),
    encoding: 'utf8',
    timeout: INSTALL_EXTENSION_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
  const out = `${r.stdout || ''}${r.stderr || ''}`;
  if (r.status !== 0 || !/successfully installed/i.test(out)) {
    throw new Error(`code-server --install-extension ${vsix} failed (${r.error ? r.error.message : `exit ${r.status}`}):\n${out.trim()}`);
  }
  return out.trim();
}

/**
 * Starts code-server on 127.0.0.1 with a port the kernel picks (bind-addr :0), and resolves once
 * its log names the address. The log goes to `logFile` for the failure report.
 */
export async function startCodeServer(tools, sandbox, logFile, extraEnv = {}) {
  const args = [
    ...baseArgs(tools, sandbox),
    '--bind-addr',
    '127.0.0.1:0',
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    sandbox.workspace,
  ];
  const child = spawnGroup('code-server', tools.node.bin, args, {
    env: codeServerEnv(sandbox, extraEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = createWriteStream(logFile);
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const stop = () => stopGroup(child.pid);

  const url = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      finish(new Error(`code-server did not report a listening address within ${LISTEN_TIMEOUT_MS / 1000}s; log: ${logFile}`));
    }, LISTEN_TIMEOUT_MS);
    const onData = (chunk) => {
      seen += chunk.toString();
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\/?/.exec(seen);
      if (m) finish(null, m[1]);
    };
    const onExit = (code, signal) => {
      finish(new Error(`code-server exited before listening (${signal || `exit ${code}`}); log: ${logFile}\n${seen.trim()}`));
    };
    function finish(err, value) {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(value);
    }
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', onExit);
  });
  return { url, pid: child.pid, stop, logFile };
}

/** The workbench URL that opens `folder`. */
export function workbenchUrl(server, folder) {
  return `${server.url}/?folder=${encodeURIComponent(folder)}`;
}

/** Reads a log file if there is one (for failure messages). */
export function readLogTail(file, lines = 30) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
