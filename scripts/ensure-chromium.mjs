// The webview tests need a real browser: Debian's chromium, installed with apt-get when it is
// missing (never `playwright install`, which downloads and cannot work offline).
import { execFileSync, spawnSync } from 'node:child_process';

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

export function ensureChromium() {
  const found = process.env.CHROMIUM_PATH || which('chromium') || which('chromium-browser');
  if (found) return found;
  const sudo = process.getuid && process.getuid() === 0 ? [] : ['sudo'];
  const run = (args) => {
    console.log(`[ensure-chromium] ${[...sudo, ...args].join(' ')}`);
    execFileSync(sudo.length ? 'sudo' : args[0], sudo.length ? args : args.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  };
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium']);
  const after = which('chromium');
  if (!after) throw new Error('chromium is still missing after apt-get install chromium');
  return after;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`[ensure-chromium] ${ensureChromium()}`);
}
