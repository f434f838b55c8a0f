// What the tests need from Debian, installed with apt-get when it is missing: chromium, the real
// browser of the webview tests (never `playwright install`, which downloads and cannot work
// offline), and the sqlite3 shell, through which ctxc on Node 20 writes a compacted Codex
// session's row into Codex's own index (Node 22.13+ has SQLite built in).
import { execFileSync, spawnSync } from 'node:child_process';

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

/** The path of `cmd`, after `apt-get install <pkg>` when it is not on the PATH. */
export function ensureDebianCommand(cmd, pkg = cmd) {
  const found = which(cmd);
  if (found) return found;
  const sudo = process.getuid && process.getuid() === 0 ? [] : ['sudo'];
  const run = (args) => {
    console.log(`[ensure-debian] ${[...sudo, ...args].join(' ')}`);
    execFileSync(sudo.length ? 'sudo' : args[0], sudo.length ? args : args.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  };
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', '--no-install-recommends', pkg]);
  const after = which(cmd);
  if (!after) throw new Error(`${cmd} is still missing after apt-get install ${pkg}`);
  return after;
}

export function ensureChromium() {
  return process.env.CHROMIUM_PATH || which('chromium-browser') || ensureDebianCommand('chromium');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`[ensure-debian] ${ensureChromium()}`);
  console.log(`[ensure-debian] ${ensureDebianCommand('sqlite3')}`);
}
