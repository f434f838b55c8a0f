// Writing a file whole or not at all, for the CLI, the benchmarks and the extension (whose
// persistence/atomicFile.ts adds the vscode Uri case): the bytes go to a temporary file beside
// the target, are flushed to disk, and the temporary file is renamed over the target (then the
// folder is flushed too). A crash, a full disk or a cancelled run leaves the previous file
// intact, never a half-written one.
//
// What it never does: replace anything but a regular file (a device, a FIFO, a socket or a
// folder is an error; `--out /dev/null` must not delete /dev/null), replace a symlink (the write
// goes to the file the link points to), or replace a file the caller protects (the transcript
// being read, also through a hard link or a symlink). Temporary files of processes that no
// longer exist (`kill -9` mid-write) are removed by the next write to the same folder.

import { link, lstat, mkdir, open, readdir, readlink, realpath, rename, rm, stat, unlink } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

let sequence = 0;

/** Symlinks followed from the path given before giving up (Linux's own limit is 40). */
const MAX_SYMLINK_HOPS = 40;
/** `.NAME.PID.N.tmp`: the temporary files this module writes. */
const TEMP_NAME = /^\.(.+)\.(\d+)\.(\d+)\.tmp$/;
/** Taken temporary names skipped before giving up. */
const MAX_TEMP_NAME_TRIES = 100;

export interface AtomicWriteOptions {
  /** Files this write must never replace (the transcripts being read). Compared by real path and
   *  by device and inode, so a symlink or a hard link to one of them is refused too. */
  protect?: readonly string[];
  /** Permissions of a new file (default 0o666, less the umask). Agents' session files are 0o600:
   *  they hold code, paths and keys pasted by mistake. */
  mode?: number;
  /** The file must not exist: the write fails with EEXIST rather than replace one, also when another
   *  process creates it meanwhile (the temporary file is linked into place, not renamed). */
  exclusive?: boolean;
}

/** Why a write was refused or failed, in words for the one line a person reads. */
export type WriteFailure =
  /** The target is one of the protected files. */
  | 'protected'
  /** The target exists and is not a regular file (device, FIFO, socket, folder). */
  | 'notRegularFile'
  /** An exclusive write found a file there. */
  | 'exists'
  /** A system call failed; `code` and `step` say which. */
  | 'io';

/** The step a system call failed in: it decides what the error means ("ENOENT" while creating the
 *  folder is a folder that cannot be made; while creating the temporary file, a folder that takes
 *  no new files). */
export type WriteStep = 'resolve' | 'folder' | 'create' | 'write' | 'rename' | 'link';

export interface AtomicWriteErrorDetails {
  /** The system error code (ENOSPC, EACCES, …), when a system call failed. */
  code?: string;
  step?: WriteStep;
  /** The protected file the target is. */
  protectedPath?: string;
  cause?: unknown;
}

export class AtomicWriteError extends Error {
  override readonly name = 'AtomicWriteError';
  readonly code: string | undefined;
  readonly step: WriteStep | undefined;
  readonly protectedPath: string | undefined;
  constructor(
    readonly failure: WriteFailure,
    /** The file that was to be written (after following symlinks). */
    readonly target: string,
    /** One clause saying what went wrong, without the path: "it is a character device, not a regular file". */
    readonly reason: string,
    details: AtomicWriteErrorDetails = {},
  ) {
    super(`cannot write ${target}: ${reason}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = details.code;
    this.step = details.step;
    this.protectedPath = details.protectedPath;
  }
}

export function isAtomicWriteError(e: unknown): e is AtomicWriteError {
  return e instanceof AtomicWriteError;
}

/**
 * Writes `data` to `path` atomically (to the file it points to when `path` is a symlink): text,
 * bytes, or text in pieces (written one after the other as they come, never joined).
 * Rejects with an AtomicWriteError; the previous file, if any, is intact.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array | Iterable<string>, opts: AtomicWriteOptions = {}): Promise<void> {
  const { target, existing } = await checkWriteTarget(path, opts);
  const dir = dirname(target);
  await step('folder', target, () => ensureDir(dir));
  await removeStaleTemps(dir);
  if (existing && opts.exclusive) throw new AtomicWriteError('exists', target, 'a file is already there', { code: 'EEXIST' });
  // An existing file keeps its permissions; a new one gets the asked mode, else the default (0666
  // less the umask).
  const mode = existing ? existing.mode & 0o7777 : (opts.mode ?? 0o666);
  const { temp, fh } = await step('create', target, () => createTemp(dir, basename(target), mode));
  let created = true;
  try {
    try {
      await step('write', target, async () => {
        if (typeof data === 'string' || data instanceof Uint8Array) await fh.writeFile(data);
        else for (const piece of data) await fh.write(piece);
        await fh.sync();
      });
    } finally {
      await fh.close();
    }
    if (opts.exclusive) {
      // link() fails when the name is taken, where rename() would replace the file. A file system
      // without hard links gets the check and the rename instead.
      await step('link', target, () => linkOrRename(temp, target));
    } else {
      await step('rename', target, () => rename(temp, target));
      created = false;
    }
  } finally {
    if (created) await rm(temp, { force: true }).catch(() => undefined);
  }
  await syncFolder(dir);
}

async function linkOrRename(temp: string, target: string): Promise<void> {
  try {
    await link(temp, target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || !(code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EMLINK')) throw e;
    if (await lstatIfExists(target)) throw Object.assign(new Error(`${target} exists`), { code: 'EEXIST' });
    await rename(temp, target);
  }
}

export interface WriteTarget {
  /** The file a write to the path replaces or creates (symlinks followed). */
  target: string;
  /** The regular file there now, if any. */
  existing?: Stats;
}

/** What writeFileAtomic checks before it writes: the path's symlinks followed, the target a
 *  regular file or nothing, and none of the protected files. Rejects with an AtomicWriteError. */
export async function checkWriteTarget(path: string, opts: AtomicWriteOptions = {}): Promise<WriteTarget> {
  const target = await step('resolve', resolve(path), () => followSymlinks(resolve(path)));
  const existing = await step('resolve', target, () => lstatIfExists(target));
  if (!existing) return { target };
  if (!existing.isFile()) {
    throw new AtomicWriteError('notRegularFile', target, `it is ${fileKind(existing)}, not a regular file`, existing.isDirectory() ? { code: 'EISDIR' } : {});
  }
  const hit = opts.protect?.length ? await protectedMatch(target, existing, opts.protect) : undefined;
  if (hit !== undefined) throw new AtomicWriteError('protected', target, 'it is a file being read', { protectedPath: hit });
  return { target, existing };
}

/** A new temporary file beside the target, opened exclusively: a name left by an earlier process
 *  with the same id is skipped, never written into. */
async function createTemp(dir: string, name: string, mode: number): Promise<{ temp: string; fh: FileHandle }> {
  for (let tries = 0; ; tries++) {
    const temp = join(dir, `.${name}.${process.pid}.${++sequence}.tmp`);
    try {
      return { temp, fh: await open(temp, 'wx', mode) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || tries >= MAX_TEMP_NAME_TRIES) throw e;
    }
  }
}

/** Runs one system call, turning its error into an AtomicWriteError that names the step. */
async function step<T>(name: WriteStep, target: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AtomicWriteError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const where = (e as NodeJS.ErrnoException).path;
    throw new AtomicWriteError('io', target, describeIoFailure(name, code, target, typeof where === 'string' ? where : undefined, e), {
      ...(code ? { code } : {}),
      step: name,
      cause: e,
    });
  }
}

/** What a failed system call means for the person who asked for the file. */
function describeIoFailure(name: WriteStep, code: string | undefined, target: string, where: string | undefined, e: unknown): string {
  const dir = dirname(target);
  const tag = code ? ` (${code})` : '';
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      if (name === 'folder') return `permission denied creating the folder ${where ?? dir}${tag}`;
      if (name === 'rename') return `permission denied replacing it${tag}`;
      return `permission denied writing in the folder ${dir}${tag}`;
    case 'ENOENT':
      if (name === 'folder') return `its folder does not exist and cannot be created${where && where !== dir ? ` (${where}: ENOENT)` : tag}`;
      return `the folder ${dir} does not accept new files${tag}`;
    case 'ENOTDIR':
      return `a part of the path is a file, not a folder${tag}`;
    case 'EISDIR':
      return `it is a folder${tag}`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `the disk is full${tag}`;
    case 'EROFS':
      return `the file system is read-only${tag}`;
    case 'ELOOP':
      return `too many symbolic links in the path${tag}`;
    case 'ENAMETOOLONG':
      return `the name is too long${tag}`;
    case 'EXDEV':
      return `the temporary file and the target are on different file systems${tag}`;
    case 'EEXIST':
      return `a file is already there${tag}`;
    default:
      return `${name} failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** The file a path names once its symlinks are followed (the path itself when it is no symlink or
 *  does not exist). Only the last component is followed: folders on the way may be links. */
async function followSymlinks(path: string): Promise<string> {
  let current = path;
  for (let hops = 0; hops < MAX_SYMLINK_HOPS; hops++) {
    const s = await lstatIfExists(current);
    if (!s?.isSymbolicLink()) return current;
    const to = await readlink(current);
    current = isAbsolute(to) ? to : resolve(dirname(current), to);
  }
  throw Object.assign(new Error(`ELOOP: too many symbolic links, ${path}`), { code: 'ELOOP', path });
}

async function lstatIfExists(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

function fileKind(s: Stats): string {
  if (s.isDirectory()) return 'a folder';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isFIFO()) return 'a named pipe (FIFO)';
  if (s.isSocket()) return 'a socket';
  return 'not a plain file';
}

/** The protected path the target is (same device and inode, or the same real path), if any. */
async function protectedMatch(target: string, existing: Stats, protect: readonly string[]): Promise<string | undefined> {
  const realTarget = await realpath(target).catch(() => target);
  for (const p of protect) {
    const s = await stat(p).catch(() => undefined);
    if (s && s.dev === existing.dev && s.ino === existing.ino) return p;
    const real = await realpath(p).catch(() => undefined);
    if (real !== undefined && real === realTarget) return p;
  }
  return undefined;
}

/** Whether a process id names no running process. Only ESRCH says so: EPERM is a live process
 *  of another user, and this process's own files may be writes in flight. */
export function processIsGone(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Removes `.NAME.PID.N.tmp` files in `dir` whose process no longer exists. Best effort: a
 *  folder that cannot be listed or a file that cannot be removed is left as it is. */
export async function removeStaleTemps(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m || !processIsGone(Number(m[2]))) continue;
    const p = join(dir, name);
    try {
      if (!(await lstat(p)).isFile()) continue;
      await unlink(p);
      removed.push(p);
    } catch {
      // Gone already, or not ours to remove.
    }
  }
  return removed;
}

/** Flushes a folder's entries (the rename) to disk. Platforms that cannot open a folder for
 *  syncing (Windows) skip it. */
async function syncFolder(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch {
    // EISDIR/EPERM/EINVAL where folders cannot be synced: the rename itself is still atomic.
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** Creates the missing folders of `dir`, parents first. Not mkdir({ recursive: true }): on Node 20
 *  that spins forever where the kernel answers ENOENT to a mkdir whose parent exists (under
 *  /proc, for one); this walks up at most once per path segment and reports the error. */
export async function ensureDir(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    try {
      if ((await stat(d)).isDirectory()) break;
      throw Object.assign(new Error(`ENOTDIR: not a directory, ${d}`), { code: 'ENOTDIR', path: d });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      missing.push(d);
      if (dirname(d) === d) break;
    }
  }
  for (const d of missing.reverse()) {
    try {
      await mkdir(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
