// Files the CLI and the extension write, and what `ctxc` says when it cannot read or write:
// --out never replaces its own input (by path, symlink or hard link), never replaces a device, a
// FIFO, a socket or a symlink; the bytes are flushed before the rename and the folder after it;
// temporary files of dead processes are removed on the next write; unreadable input is exit 2
// with "permission denied" or "a folder"; an output that cannot be written is exit 4 with what
// really failed; `-` reads standard input for count, compact and inspect.

import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_LLM_FALLBACK, EXIT_OK, EXIT_USAGE, EXIT_WRITE_FAILED, type CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { AtomicWriteError, removeStaleTemps, writeFileAtomic } from '../../src/files/atomicWrite';
import { goodSections, llmReply } from '../helpers/llmFixtures';
import { reply, startOpenAiServer } from '../helpers/openaiServer';
import { fixturesDir, repoRoot, transcriptPath } from '../helpers/transcripts';

// Faults and a log of the calls that matter for durability, on the real file system underneath.
const fsHooks = vi.hoisted(() => ({
  /** path (or path prefix ending in '*') → error code its open() fails with */
  openFails: new Map<string, string>(),
  log: [] as string[],
  logging: false,
}));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    open: async (path: string, ...rest: unknown[]) => {
      const code = [...fsHooks.openFails].find(([k]) => (k.endsWith('*') ? String(path).startsWith(k.slice(0, -1)) : k === String(path)))?.[1];
      if (code) throw Object.assign(new Error(`${code}: simulated, open '${path}'`), { code, path });
      const fh = await (real.open as (...a: unknown[]) => Promise<import('node:fs/promises').FileHandle>)(path, ...rest);
      if (!fsHooks.logging) return fh;
      const name = String(path);
      const sync = fh.sync.bind(fh);
      fh.sync = async () => {
        fsHooks.log.push(`sync ${name}`);
        return sync();
      };
      return fh;
    },
    rename: async (from: string, to: string) => {
      if (fsHooks.logging) fsHooks.log.push(`rename ${to}`);
      return real.rename(from, to);
    },
  };
});

const tmp = mkdtempSync(join(tmpdir(), 'ctxc-files-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
beforeEach(() => {
  fsHooks.openFails.clear();
  fsHooks.log.length = 0;
  fsHooks.logging = false;
});

const aider = join(fixturesDir, 'afi-core.aider.chat.history.md');
/** Read every chat session of it: no warning about the earlier ones on stderr. */
const WHOLE = '--whole-file';
const isRoot = process.getuid?.() === 0;

type Run = { code: number; out: string; err: string };

async function run(args: string[], stdin?: string | Buffer, env: Record<string, string | undefined> = {}): Promise<Run> {
  let out = '';
  let err = '';
  const io: CliIO = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    env,
    cwd: tmp,
    ...(stdin !== undefined ? { stdin: Readable.from([Buffer.from(stdin)]) } : {}),
  };
  const code = await main(args, io);
  return { code, out, err };
}

function noStack(text: string): void {
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

function copyOf(src: string, name: string): string {
  const p = join(tmp, name);
  writeFileSync(p, readFileSync(src));
  return p;
}

/** A pid no process has: a child that has already exited (pids are not reused this fast). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('writeFileAtomic', () => {
  it('writes through a symlink to the file it points to; the link stays a link', async () => {
    const dir = join(tmp, 'link');
    mkdirSync(dir);
    const real = join(dir, 'real.md');
    writeFileSync(real, 'old');
    const link = join(dir, 'link.md');
    symlinkSync('real.md', link);
    await writeFileAtomic(link, 'new');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('real.md');
    expect(readFileSync(real, 'utf8')).toBe('new');
    // A dangling link: the file it names is created.
    const dangling = join(dir, 'dangling.md');
    symlinkSync('later.md', dangling);
    await writeFileAtomic(dangling, 'made');
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'later.md'), 'utf8')).toBe('made');
    expect(readdirSync(dir).sort()).toEqual(['dangling.md', 'later.md', 'link.md', 'real.md']);
  });

  it('never replaces a device, a FIFO, a socket or a folder, also through a symlink', async () => {
    const dir = join(tmp, 'special');
    mkdirSync(dir);
    const fifo = join(dir, 'fifo');
    spawnSync('mkfifo', [fifo]);
    const sock = join(dir, 'sock');
    const server = createServer();
    await new Promise<void>((r) => server.listen(sock, r));
    const toNull = join(dir, 'to-null');
    symlinkSync('/dev/null', toNull);
    try {
      const cases: [string, RegExp][] = [
        ['/dev/null', /it is a character device, not a regular file/],
        [toNull, /it is a character device, not a regular file/],
        [fifo, /it is a named pipe \(FIFO\), not a regular file/],
        [sock, /it is a socket, not a regular file/],
        [dir, /it is a folder, not a regular file/],
      ];
      for (const [path, reason] of cases) {
        if (path === fifo && !existsSync(fifo)) continue;
        const e = await writeFileAtomic(path, 'x').catch((err: unknown) => err);
        expect(e, path).toBeInstanceOf(AtomicWriteError);
        expect((e as AtomicWriteError).failure).toBe('notRegularFile');
        expect((e as AtomicWriteError).message).toMatch(reason);
      }
      expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
      expect(lstatSync(toNull).isSymbolicLink()).toBe(true);
      if (existsSync(fifo)) expect(statSync(fifo).isFIFO()).toBe(true);
      expect(statSync(sock).isSocket()).toBe(true);
      expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    } finally {
      server.close();
    }
  });

  it('refuses a protected file by path, through a symlink and through a hard link', async () => {
    const dir = join(tmp, 'protect');
    mkdirSync(dir);
    const input = join(dir, 'input.jsonl');
    writeFileSync(input, 'transcript');
    symlinkSync('input.jsonl', join(dir, 'sym.jsonl'));
    linkSync(input, join(dir, 'hard.jsonl'));
    for (const target of [input, join(dir, 'sym.jsonl'), join(dir, 'hard.jsonl'), join(dir, '.', 'input.jsonl')]) {
      const e = await writeFileAtomic(target, 'summary', { protect: [input] }).catch((err: unknown) => err);
      expect(e, target).toBeInstanceOf(AtomicWriteError);
      expect((e as AtomicWriteError).failure).toBe('protected');
      expect((e as AtomicWriteError).protectedPath).toBe(input);
    }
    expect(readFileSync(input, 'utf8')).toBe('transcript');
    // Another file is written as usual.
    await writeFileAtomic(join(dir, 'other.md'), 'summary', { protect: [input] });
    expect(readFileSync(join(dir, 'other.md'), 'utf8')).toBe('summary');
  });

  it('flushes the file before the rename and the folder after it', async () => {
    const dir = join(tmp, 'sync');
    mkdirSync(dir);
    const target = join(dir, 'out.md');
    fsHooks.logging = true;
    await writeFileAtomic(target, 'flushed');
    fsHooks.logging = false;
    const renameAt = fsHooks.log.indexOf(`rename ${target}`);
    const fileSync = fsHooks.log.findIndex((l) => /^sync .*\.out\.md\.\d+\.\d+\.tmp$/.test(l));
    const dirSync = fsHooks.log.indexOf(`sync ${dir}`);
    expect(fsHooks.log).toHaveLength(3);
    expect(fileSync).toBeGreaterThanOrEqual(0);
    expect(fileSync).toBeLessThan(renameAt);
    expect(dirSync).toBeGreaterThan(renameAt);
    expect(readFileSync(target, 'utf8')).toBe('flushed');
  });

  it("removes the temporary files of dead processes on the next write, never a live process's", async () => {
    const dir = join(tmp, 'stale');
    mkdirSync(dir);
    const dead = deadPid();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const live = sleeper.pid!;
      const names = {
        dead: `.result.md.${dead}.3.tmp`,
        deadOther: `.other.json.${dead}.1.tmp`,
        live: `.result.md.${live}.1.tmp`,
        mine: `.result.md.${process.pid}.999.tmp`,
        notOurs: `.result.md.tmp`,
      };
      for (const n of Object.values(names)) writeFileSync(join(dir, n), 'x'.repeat(1000));
      await writeFileAtomic(join(dir, 'result.md'), 'done');
      const left = readdirSync(dir).sort();
      expect(left).toEqual([names.live, names.mine, names.notOurs, 'result.md'].sort());
      // Removing is also there on its own, for a folder no write touches.
      writeFileSync(join(dir, names.dead), 'x');
      expect(await removeStaleTemps(dir)).toEqual([join(dir, names.dead)]);
    } finally {
      sleeper.kill();
    }
  });

  it('an existing file keeps its permissions', async () => {
    const target = join(tmp, 'mode.md');
    writeFileSync(target, 'old', { mode: 0o640 });
    await writeFileAtomic(target, 'new');
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });
});

describe('ctxc --out: never over the input, never over a device', () => {
  it('--out naming the input (or a symlink or hard link to it) is exit 2 and the input is untouched', async () => {
    const input = copyOf(aider, 'self.aider.chat.history.md');
    const before = readFileSync(input);
    symlinkSync(input, join(tmp, 'self-link.md'));
    linkSync(input, join(tmp, 'self-hard.md'));
    for (const out of [input, 'self.aider.chat.history.md', 'self-link.md', 'self-hard.md']) {
      const r = await run(['compact', input, '--out', out]);
      expect(r.code, out).toBe(EXIT_BAD_INPUT);
      expect(r.err).toBe(`ctxc compact: --out ${out} is the transcript being read (${input}); write the result to another file; nothing was written\n`);
      expect(r.out).toBe('');
    }
    expect(readFileSync(input).equals(before)).toBe(true);
    expect(lstatSync(join(tmp, 'self-link.md')).isSymbolicLink()).toBe(true);
  });

  it('undo --out may not replace the archive entry it reads', async () => {
    const archive = join(tmp, 'undo-archive');
    const c = await run(['compact', aider, '--archive', archive]);
    const id = /archive: (conv-[0-9a-f.]+) /.exec(c.err)![1]!;
    const entry = join(archive, `${id}.json`);
    const before = readFileSync(entry);
    const r = await run(['undo', id, '--archive', archive, '--format', 'md', '--out', entry]);
    expect(r.code).toBe(EXIT_BAD_INPUT);
    expect(r.err).toMatch(/is the transcript being read/);
    expect(readFileSync(entry).equals(before)).toBe(true);
  });

  it('--out /dev/null, a FIFO or a folder: exit 4, the reason and how to send output there instead', async () => {
    const fifo = join(tmp, 'out.fifo');
    spawnSync('mkfifo', [fifo]);
    const r = await run(['compact', aider, '--out', '/dev/null']);
    expect(r.code).toBe(EXIT_WRITE_FAILED);
    expect(r.err).toBe(
      "ctxc compact: cannot write /dev/null: it is a character device, not a regular file (--out replaces a regular file atomically; for a device or a pipe, redirect standard output: '> FILE'); nothing was written\n",
    );
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    if (existsSync(fifo)) {
      const f = await run(['compact', aider, '--out', fifo]);
      expect(f.code).toBe(EXIT_WRITE_FAILED);
      expect(f.err).toMatch(/it is a named pipe \(FIFO\), not a regular file/);
      expect(statSync(fifo).isFIFO()).toBe(true);
    }
    const d = await run(['compact', aider, '--out', tmp]);
    expect(d.code).toBe(EXIT_WRITE_FAILED);
    expect(d.err).toMatch(/cannot write .*: it is a folder, not a regular file; nothing was written/);
  });

  it('says what really failed: a folder that takes no files is not "a folder that does not exist"', async () => {
    if (!existsSync('/proc/self')) return;
    const r = await run(['compact', aider, WHOLE, '--out', '/proc/x']);
    expect(r.code).toBe(EXIT_WRITE_FAILED);
    expect(r.err).toBe('ctxc compact: cannot write /proc/x: the folder /proc does not accept new files (ENOENT); nothing was written\n');
  });

  it('a folder that refuses new files, and a full disk, are named as such', async () => {
    const perm = join(tmp, 'no-write');
    mkdirSync(perm);
    // The temporary file beside the target cannot be created (a read-only folder, as non-root sees it).
    fsHooks.openFails.set(join(perm, '.out.md.*'), 'EACCES');
    const p = await run(['compact', aider, WHOLE, '--out', join(perm, 'out.md')]);
    expect(p.code).toBe(EXIT_WRITE_FAILED);
    expect(p.err).toBe(`ctxc compact: cannot write ${join(perm, 'out.md')}: permission denied writing in the folder ${perm} (EACCES); nothing was written\n`);
    fsHooks.openFails.set(join(perm, '.out.md.*'), 'ENOSPC');
    expect((await run(['compact', aider, '--out', join(perm, 'out.md')])).err).toMatch(/: the disk is full \(ENOSPC\); nothing was written/);
    expect(readdirSync(perm)).toEqual([]);
  });
});

describe('ctxc on input it cannot read: exit 2, naming the file and why', () => {
  it('permission denied', async () => {
    const secret = copyOf(aider, 'secret.md');
    fsHooks.openFails.set(secret, 'EACCES');
    for (const cmd of ['count', 'compact', 'inspect']) {
      const r = await run([cmd, secret]);
      expect(r.code, cmd).toBe(EXIT_BAD_INPUT);
      expect(r.err).toBe(`ctxc ${cmd}: ${secret}: path: expected a readable file, found permission denied (EACCES)\n`);
      expect(r.out).toBe('');
    }
    fsHooks.openFails.set(secret, 'EPERM');
    expect((await run(['count', secret])).err).toMatch(/permission denied \(EPERM\)/);
  });

  it('a folder', async () => {
    const r = await run(['count', tmp]);
    expect(r.code).toBe(EXIT_BAD_INPUT);
    expect(r.err).toBe(`ctxc count: ${tmp}: path: expected a transcript file, found a folder (EISDIR)\n`);
  });

  it('as a process: a real file this user may not read (as root, run as nobody)', () => {
    const dir = join(tmp, 'unreadable');
    mkdirSync(dir, { mode: 0o755 });
    spawnSync('chmod', ['755', tmp, dir]);
    const secret = copyOf(aider, join('unreadable', 'secret.md'));
    spawnSync('chmod', ['000', secret]);
    const cli = join(repoRoot, 'dist', 'cli.js');
    const r = isRoot
      ? spawnSync('su', ['nobody', '-s', '/bin/sh', '-c', `"${process.execPath}" "${cli}" count "${secret}"`], { encoding: 'utf8' })
      : spawnSync(process.execPath, [cli, 'count', secret], { encoding: 'utf8' });
    // No su, or nobody cannot run node from here: nothing to learn on this machine.
    if (isRoot && (r.error || (/not found|cannot|No such|authentication/i.test(r.stderr) && !/permission denied \(EACCES\)/.test(r.stderr)))) return;
    expect(r.stderr).toBe(`ctxc count: ${secret}: path: expected a readable file, found permission denied (EACCES)\n`);
    noStack(r.stderr);
    expect(r.status).toBe(EXIT_BAD_INPUT);
  });
});

describe('FILE - reads standard input, the format detected from the content', () => {
  const claude = transcriptPath('claude-code/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');

  it('count, inspect and compact read the same conversation as from the file', async () => {
    for (const file of [aider, claude]) {
      const bytes = readFileSync(file);
      const fromFile = JSON.parse((await run(['count', file, '--json'])).out);
      const fromStdin = await run(['count', '-', '--json'], bytes);
      expect(fromStdin.code, fromStdin.err).toBe(EXIT_OK);
      const j = JSON.parse(fromStdin.out);
      expect(j.total).toBe(fromFile.total);
      expect(j.format).toBe(fromFile.format);
      expect(j.file).toBe('standard input');
      const inspect = await run(['inspect', '-', '--json'], bytes);
      expect(inspect.code).toBe(EXIT_OK);
      expect(JSON.parse(inspect.out).messages.length).toBe(JSON.parse((await run(['inspect', file, '--json'])).out).messages.length);
      const compact = await run(['compact', '-', '--format', 'json'], bytes);
      expect(compact.code).toBe(EXIT_OK);
      expect(JSON.parse(compact.out).tokensAfter).toBe(JSON.parse((await run(['compact', file, '--format', 'json'])).out).tokensAfter);
    }
  });

  it('compact - --archive keeps the bytes read from standard input for undo', async () => {
    const archive = join(tmp, 'stdin-archive');
    const bytes = readFileSync(aider);
    const c = await run(['compact', '-', '--archive', archive], bytes);
    expect(c.code, c.err).toBe(EXIT_OK);
    const id = /archive: (conv-[0-9a-f.]+) /.exec(c.err)![1]!;
    const back = await run(['undo', id, '--archive', archive]);
    expect(Buffer.from(back.out, 'utf8').equals(bytes)).toBe(true);
  });

  it('bad input on standard input is named as such; too much of it is refused', async () => {
    const r = await run(['count', '-'], '{"messages": [');
    expect(r.code).toBe(EXIT_BAD_INPUT);
    expect(r.err).toMatch(/^ctxc count: standard input: line 1, column 15: expected/);
    const big = await run(['count', '-', '--max-size', '0.001'], 'x'.repeat(5000));
    expect(big.code).toBe(EXIT_BAD_INPUT);
    expect(big.err).toMatch(/standard input: byte 1048: expected a file of at most 0 MB .*found more than 0 MB/);
  });

  it('as a process: ctxc count - < FILE, and compact - --out FILE < FILE is refused', () => {
    const cli = join(repoRoot, 'dist', 'cli.js');
    const r = spawnSync(process.execPath, [cli, 'count', '-'], { input: readFileSync(aider), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(EXIT_OK);
    expect(r.stdout).toMatch(/^standard input — aider, \d+ messages/);
    const input = copyOf(aider, 'redirected.md');
    const before = readFileSync(input);
    const sh = spawnSync('sh', ['-c', `"${process.execPath}" "${cli}" compact - --out "${input}" < "${input}"`], { encoding: 'utf8' });
    if (existsSync('/dev/stdin')) {
      expect(sh.status).toBe(EXIT_BAD_INPUT);
      expect(sh.stderr).toMatch(/is the transcript being read \(standard input\)/);
      expect(readFileSync(input).equals(before)).toBe(true);
    }
  });
});

describe('exit codes', () => {
  let server: Awaited<ReturnType<typeof startOpenAiServer>>;
  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('--require-llm: a fallback writes nothing and exits 3 with the reason; a good LLM summary exits 0', async () => {
    const out = join(tmp, 'llm.md');
    const file = transcriptPath('openhands/basic_gui_mode.json');
    const llm = ['--summarizer', 'openai', '--base-url', server.baseURL, '--model', 'fake', '--no-stream'];
    server.script(reply.raw(200, '<!DOCTYPE html><html><head><title>Sign in</title></head><body>proxy</body></html>', { 'content-type': 'text/html' }));
    const r = await run(['compact', file, ...llm, '--require-llm', '--out', out]);
    expect(r.code).toBe(EXIT_LLM_FALLBACK);
    expect(r.err).toMatch(/ctxc compact: --require-llm: the LLM summary was not used \(.*HTML page.*\); nothing was written\n$/);
    expect(existsSync(out)).toBe(false);
    // Without --require-llm the same fallback is a warning and exit 0.
    const plain = await run(['compact', file, ...llm, '--out', out]);
    expect(plain.code).toBe(EXIT_OK);
    expect(existsSync(out)).toBe(true);
    expect((await run(['compact', file, '--require-llm'])).code).toBe(EXIT_USAGE);
    server.script(reply.completion(llmReply(goodSections([]))));
    const good = await run(['compact', file, ...llm, '--require-llm', '--out', out]);
    expect(good.code, good.err).toBe(EXIT_OK);
  });

  it('the README lists every exit code io.ts defines, with its number', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    for (const [code, words] of [
      [EXIT_OK, /success/],
      [EXIT_INTERNAL, /internal error/],
      [EXIT_BAD_INPUT, /permission denied/],
      [EXIT_LLM_FALLBACK, /--require-llm/],
      [EXIT_WRITE_FAILED, /could not be written/],
      [EXIT_USAGE, /usage error/],
    ] as const) {
      const row = readme.split('\n').find((l) => l.startsWith(`| ${code} |`));
      expect(row, `exit ${code}`).toBeDefined();
      expect(row).toMatch(words);
    }
  });
});

describe('set-up', () => {
  it('npm install runs the prepare build; without dev dependencies it says how to build and does not fail the install', () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts.prepare).toBe('node scripts/prepare.mjs');
    const bare = join(tmp, 'bare-clone');
    mkdirSync(join(bare, 'scripts'), { recursive: true });
    writeFileSync(join(bare, 'package.json'), '{"name":"bare","version":"0.0.0"}');
    writeFileSync(join(bare, 'scripts', 'prepare.mjs'), readFileSync(join(repoRoot, 'scripts', 'prepare.mjs')));
    const r = spawnSync(process.execPath, [join(bare, 'scripts', 'prepare.mjs')], { cwd: bare, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/esbuild is not installed.*npm run build/);
    // The bin npx runs is built and executable (npm test built it the same way).
    expect(statSync(join(repoRoot, 'dist', 'cli.js')).mode & 0o111).not.toBe(0);
  });
});
