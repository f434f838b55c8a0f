// One session's state is read, changed and written by one hook run at a time: Claude Code starts a
// hook process per event, and several can run at once (a loop of automatic compactions, two
// windows on one session). Without a lock, runs that read the same state each add their entry and
// the last write wins: the loop guard then counts one compaction where there were fifty.
//
// The lock is a file created exclusively (O_CREAT|O_EXCL) beside the state, holding the holder's
// pid. A run waits for it, briefly; a lock whose holder is gone (a run killed mid-write) or that
// is older than LOCK_STALE_MS is taken over. A run that cannot get it within LOCK_WAIT_MS goes on
// without it and says so: the hook must never hold a session up over its own bookkeeping.

import { mkdir, open, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Longest a run waits for the lock: fifty runs at once on a busy machine take seconds in turn. */
export const LOCK_WAIT_MS = 30_000;
/** A lock older than this is a leftover (a run holds it for milliseconds). */
export const LOCK_STALE_MS = 20_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the lock at `path` if it is a leftover — its holder is gone, or it is older than
 * LOCK_STALE_MS — and only that very file: a holder that ends while we look removes its lock and
 * the next run creates a new one at the same path, which must not be taken for the old one. So the
 * file judged is named by its inode and modification time (nanoseconds), read through the handle
 * its pid was read from, and removed only while the path still names it. True when it was removed.
 */
async function removeIfStale(path: string): Promise<boolean> {
  let judged: string;
  let stale: boolean;
  try {
    const handle = await open(path, 'r');
    try {
      const s = await handle.stat({ bigint: true });
      judged = `${s.ino}:${s.mtimeNs}`;
      const pid = Number.parseInt(await handle.readFile('utf8'), 10);
      stale = Date.now() - Number(s.mtimeMs) > LOCK_STALE_MS || (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid));
    } finally {
      await handle.close();
    }
  } catch {
    // Gone already: nothing to remove.
    return false;
  }
  if (!stale) return false;
  const now = await stat(path, { bigint: true }).catch(() => undefined);
  if (!now || `${now.ino}:${now.mtimeNs}` !== judged) return false;
  await unlink(path).catch(() => undefined);
  return true;
}

export type Locked<T> = { value: T; locked: true } | { value: T; locked: false; reason: string };

/** Takes the lock file `path`: true when taken, else why not. */
async function acquire(path: string, waitMs: number): Promise<true | string> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      await mkdir(dirname(path), { recursive: true });
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') return `${path} cannot be created (${code ?? (e as Error).message})`;
    }
    if (await removeIfStale(path)) continue;
    if (Date.now() >= deadline) return `another run held ${path} for ${waitMs / 1000} s`;
    // Jittered, growing waits: fifty runs at once get through in turn without spinning.
    await sleep(Math.min(50, 2 + attempt * 2) * (0.5 + Math.random()));
  }
}

/** Runs `fn` holding the lock file `path`; without it (and saying why) when it cannot be had. */
export async function withLock<T>(path: string, fn: () => Promise<T>, waitMs = LOCK_WAIT_MS): Promise<Locked<T>> {
  const got = await acquire(path, waitMs);
  if (got !== true) return { value: await fn(), locked: false, reason: got };
  try {
    return { value: await fn(), locked: true };
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
