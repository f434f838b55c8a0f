// Writing a file whole or not at all, for the CLI and benchmarks (the extension has its own,
// vscode-aware copy): the bytes go to a temporary file beside the target, which is then renamed
// over it. A crash, a full disk or a cancelled run leaves the previous file intact.

import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';

let sequence = 0;

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${++sequence}.tmp`);
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
}
