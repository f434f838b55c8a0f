// Writing a file whole or not at all, for the CLI, the benchmarks and the extension (whose
// persistence/atomicFile.ts adds the vscode Uri case): the bytes go to a temporary file beside
// the target, which is then renamed over it. A crash, a full disk or a cancelled run leaves the
// previous file intact, never a half-written one.

import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';

let sequence = 0;

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await ensureDir(dirname(path));
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${++sequence}.tmp`);
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw err;
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
