// The real agent CLIs the agents test runs, installed from the npm registry into .cache/agents/
// (gitignored; never dependencies of the project), one folder per agent and version. Which versions
// are tested is one list, src/sessions/agents/testedVersions.json (the oldest supported and the
// newest known of each agent; the product reads the same list to say when a session comes from a
// newer version). Each CLI ships its native binary in a registry package (Claude Code and Codex
// about 360 MB and 400 MB installed). A stamp records what was installed and verified (`--version`
// printed the version), so a warm run is a few stat calls.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanNpmEnv, npmCli, repoRoot, runLogged } from '../e2e/tools.mjs';

/** { agentId: { package, bin, oldest, newest } } */
export const TESTED_VERSIONS = JSON.parse(readFileSync(join(repoRoot, 'src', 'sessions', 'agents', 'testedVersions.json'), 'utf8'));

export const agentsCacheDir = join(repoRoot, '.cache', 'agents');
const logsDir = join(agentsCacheDir, 'logs');
/** An install took 8–30 s here; allow a slow registry on top. */
const INSTALL_TIMEOUT_MS = 10 * 60_000;

function log(msg) {
  console.log(`[agents:tools] ${msg}`);
}

/** What `bin --version` prints, run with a throwaway HOME (some CLIs unpack themselves or write
 *  their config into the home folder on first start). */
function versionOf(bin) {
  const home = mkdtempSync(join(tmpdir(), 'ctxc-agent-version-'));
  try {
    const env = { PATH: process.env.PATH, HOME: home, TMPDIR: process.env.TMPDIR || tmpdir(), LANG: 'C.UTF-8', NO_COLOR: '1' };
    const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 120_000, env, stdio: ['ignore', 'pipe', 'pipe'] });
    return r.status === 0 ? r.stdout.trim() : `(exit ${r.status}) ${r.stderr.trim().slice(0, 200)}`;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The registry's newest version of an agent's package (`npm view`). */
export function registryNewest(agent) {
  const spec = TESTED_VERSIONS[agent];
  const r = spawnSync(process.execPath, [npmCli(), 'view', spec.package, 'version'], { encoding: 'utf8', timeout: 120_000, env: cleanNpmEnv({}) });
  if (r.status !== 0) throw new Error(`npm view ${spec.package} version failed: ${r.stderr.trim().slice(0, 300)}`);
  return r.stdout.trim().split('\n').pop().trim();
}

/**
 * One agent's CLI at one version ('oldest', 'newest' or an exact version), installed when missing.
 * Returns the path of its bin.
 */
export async function ensureAgent(agent, which = 'oldest') {
  const spec = TESTED_VERSIONS[agent];
  if (!spec) throw new Error(`no such agent in testedVersions.json: ${agent}`);
  const version = which === 'oldest' || which === 'newest' ? spec[which] : which;
  const dir = join(agentsCacheDir, `${agent}@${version}`);
  const bin = join(dir, 'node_modules', '.bin', spec.bin);
  const stamp = readJson(join(dir, 'stamp.json'));
  if (stamp?.version === version && existsSync(bin)) return bin;
  const t0 = Date.now();
  log(`installing ${spec.package}@${version} from the npm registry into ${dir}`);
  const work = `${dir}.partial`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  // A project of its own, so nothing lands in the repository's node_modules or lock file. The
  // CLIs' install scripts only link or unpack their native binaries; the binaries work without them.
  writeFileSync(join(work, 'package.json'), `${JSON.stringify({ name: `ctxc-agents-${agent}`, private: true }, null, 2)}\n`);
  await runLogged(process.execPath, [npmCli(), 'install', '--no-audit', '--no-fund', '--no-update-notifier', `${spec.package}@${version}`], {
    cwd: work,
    env: cleanNpmEnv({}),
    logName: `install-${agent}@${version}.log`,
    timeoutMs: INSTALL_TIMEOUT_MS,
    logDir: logsDir,
  });
  const got = join(work, 'node_modules', '.bin', spec.bin);
  const printed = versionOf(got);
  if (!printed.includes(version)) throw new Error(`${spec.bin} --version printed "${printed}", expected ${version}`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
  writeFileSync(join(dir, 'stamp.json'), `${JSON.stringify({ agent, package: spec.package, version, printed }, null, 2)}\n`);
  log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)}s: ${printed}`);
  return bin;
}

/** Claude Code and Codex at one end of the tested list ('oldest' or 'newest'), or at the versions a
 *  map names ({ 'claude-code': '2.1.340', codex: … }), as the scenarios that drive both take them. */
export async function ensureAgents(which = 'oldest') {
  const at = (agent) => (typeof which === 'string' ? which : (which[agent] ?? 'newest'));
  return { claude: await ensureAgent('claude-code', at('claude-code')), codex: await ensureAgent('codex', at('codex')) };
}
