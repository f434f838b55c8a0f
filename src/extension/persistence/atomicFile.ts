// Files the extension writes (archives, state, exports) are written whole or not at all: the
// bytes go to a temporary file beside the target, which is then renamed over it. A crash or a
// full disk leaves the previous file intact, never a half-written one.

import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';

let tempCounter = 0;

/** Writes `data` to `path` atomically (temp file in the same directory + rename). */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${++tempCounter}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** The same for a Uri: atomic on disk; other schemes (remote, virtual) get the file system's own write. */
export async function writeUriAtomic(uri: vscode.Uri, data: string | Uint8Array): Promise<void> {
  if (uri.scheme === 'file') return writeFileAtomic(uri.fsPath, data);
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  await vscode.workspace.fs.writeFile(uri, bytes);
}

/** The file's text, or undefined when it does not exist. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
