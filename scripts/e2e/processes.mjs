// Every long-lived process the e2e run starts is spawned detached, so it leads its own process
// group, and is stopped by killing that group by id: code-server forks an extension host, a file
// watcher and pty hosts, and killing only the parent would leave them running on a shared machine.
import { spawn } from 'node:child_process';

/** How long a group gets to exit after SIGTERM before it is sent SIGKILL. */
const TERM_GRACE_MS = 5_000;

/** Started groups not yet stopped, by pid. */
const live = new Map();

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Spawns `cmd` as the leader of a new process group and remembers it for teardown. */
export function spawnGroup(name, cmd, args, options = {}) {
  const child = spawn(cmd, args, { ...options, detached: true });
  if (child.pid) {
    live.set(child.pid, { name, child });
    child.on('exit', () => {
      // The leader exiting does not end its group; keep it listed until the group is gone.
      if (!groupAlive(child.pid)) live.delete(child.pid);
    });
  }
  return child;
}

/** SIGTERM to the whole group, then SIGKILL after a grace period; resolves when the group is gone. */
export async function stopGroup(pid) {
  const entry = live.get(pid);
  if (groupAlive(pid)) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      /* exited meanwhile */
    }
    const deadline = Date.now() + TERM_GRACE_MS;
    while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (groupAlive(pid)) {
      console.log(`[e2e] ${entry ? entry.name : pid} ignored SIGTERM; sending SIGKILL to group ${pid}`);
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
  live.delete(pid);
}

/** Stops every group still listed (newest first). */
export async function stopAllGroups() {
  for (const pid of [...live.keys()].reverse()) await stopGroup(pid);
}

/** Synchronous last resort for `process.on('exit')`, where no promise can be awaited. */
export function killAllGroupsNow() {
  for (const pid of live.keys()) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  live.clear();
}
