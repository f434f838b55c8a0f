// The engine's ArchiveStore on disk for the CLI (`ctxc compact --archive DIR`): one file per
// key, written atomically. Keys are content addresses ("conv-" + hex), so an existing file
// already holds the right bytes and is never rewritten.

import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveStore } from '../engine/archive/archiveStore';
import { writeFileAtomic } from './atomicWrite';

/** Archive keys are hex content addresses, optionally with a ".variant"; nothing else is a file name here. */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

export class FileArchive implements ArchiveStore {
  constructor(readonly dir: string) {}

  private pathOf(key: string): string {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`archive key ${JSON.stringify(key)}: expected letters, digits, '.', '_' or '-'`);
    return join(this.dir, `${key}.json`);
  }

  async put(key: string, data: string): Promise<void> {
    if (await this.has(key)) return;
    await writeFileAtomic(this.pathOf(key), data);
  }

  async get(key: string): Promise<string | undefined> {
    try {
      return await readFile(this.pathOf(key), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      await access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }
}
