// A switch for atomic-write tests: while `renameFault.failRename` is set, `rename` and `link` from
// node:fs/promises (the two ways a written temporary file is put in place) fail with ENOSPC, as
// on a full disk. A test file installs it with
//   vi.mock('node:fs/promises', async (original) => (await import('./helpers/renameFault')).withRenameFault(await original()));
// (vi.mock is hoisted above the imports, so the factory imports this module itself).

export const renameFault = { failRename: false };

export function withRenameFault<T extends { rename: (from: string, to: string) => Promise<void>; link: (from: string, to: string) => Promise<void> }>(
  real: T,
): T {
  return {
    ...real,
    rename: async (from: string, to: string) => {
      if (renameFault.failRename) throw Object.assign(new Error('ENOSPC: no space left on device, rename'), { code: 'ENOSPC' });
      return real.rename(from, to);
    },
    link: async (from: string, to: string) => {
      if (renameFault.failRename) throw Object.assign(new Error('ENOSPC: no space left on device, link'), { code: 'ENOSPC' });
      return real.link(from, to);
    },
  };
}

/** Runs `f` with rename failing. */
export async function whileRenameFails<T>(f: () => Promise<T>): Promise<T> {
  renameFault.failRename = true;
  try {
    return await f();
  } finally {
    renameFault.failRename = false;
  }
}
