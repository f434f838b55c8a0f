// The real agent CLIs the agents test runs, installed from the npm registry at pinned versions into
// .cache/agents/ (gitignored; never dependencies of the project). Each ships its native binary in a
// registry package (about 360 MB and 400 MB installed). A stamp records what was installed and
// verified (`--version` printed the pinned version), so a warm run is a few stat calls.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanNpmEnv, npmCli, repoRoot, runLogged } from '../e2e/tools.mjs';

export const CLAUDE_CODE_VERSION = '2.1.328';
export const CODEX_VERSION = '0.169.0';

export const agentsCacheDir = join(repoRoot, '.cache', 'agents');
const installDir = join(agentsCacheDir, `claude-code-${CLAUDE_CODE_VERSION}_codex-${CODEX_VERSION}`);
const stampPath = join(agentsCacheDir, 'stamp.json');
const logsDir = join(agentsCacheDir, 'logs');
/** The install took 8–20 s here; allow a slow registry on top. */
const INSTALL_TIMEOUT_MS = 10 * 60_000;

function log(msg) {
  console.log(`[agents:tools] ${msg}`);
}

function bins(dir) {
  return { claude: join(dir, 'node_modules', '.bin', 'claude'), codex: join(dir, 'node_modules', '.bin', 'codex') };
}

function versionOf(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  return r.status === 0 ? r.stdout.trim() : `(exit ${r.status}) ${r.stderr.trim().slice(0, 200)}`;
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(stampPath, 'utf8'));
  } catch {
    return {};
  }
}

/** Both CLIs at their pinned versions; installed when missing. */
export async function ensureAgents() {
  const b = bins(installDir);
  const stamp = readStamp();
  if (stamp.claudeCode === CLAUDE_CODE_VERSION && stamp.codex === CODEX_VERSION && existsSync(b.claude) && existsSync(b.codex)) return b;
  const t0 = Date.now();
  log(`installing @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} and @openai/codex@${CODEX_VERSION} from the npm registry into ${installDir}`);
  const work = `${installDir}.partial`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  // A project of its own, so nothing lands in the repository's node_modules or lock file. Claude
  // Code's postinstall only links its native binary; the binary works without it.
  writeFileSync(join(work, 'package.json'), `${JSON.stringify({ name: 'ctxc-agents-cache', private: true }, null, 2)}\n`);
  await runLogged(
    process.execPath,
    [
      npmCli(),
      'install',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
      `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
      `@openai/codex@${CODEX_VERSION}`,
    ],
    {
      cwd: work,
      env: cleanNpmEnv({}),
      logName: 'agents-install.log',
      timeoutMs: INSTALL_TIMEOUT_MS,
      logDir: logsDir,
    },
  );
  const got = bins(work);
  const claude = versionOf(got.claude);
  const codex = versionOf(got.codex);
  if (!claude.startsWith(CLAUDE_CODE_VERSION)) throw new Error(`claude --version printed "${claude}", expected ${CLAUDE_CODE_VERSION}`);
  if (!codex.includes(CODEX_VERSION)) throw new Error(`codex --version printed "${codex}", expected ${CODEX_VERSION}`);
  rmSync(installDir, { recursive: true, force: true });
  renameSync(work, installDir);
  writeFileSync(stampPath, `${JSON.stringify({ claudeCode: CLAUDE_CODE_VERSION, codex: CODEX_VERSION, dir: installDir }, null, 2)}\n`);
  log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)}s: ${claude}; ${codex}`);
  return bins(installDir);
}
