// The engine's ArchiveStore on disk, under the extension's global storage: one file per key,
// written atomically, so an original archived before a compaction survives reloads and undo
// still works tomorrow.

import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveStore } from '../../engine/archive/archiveStore';
import { hash64 } from '../../engine/text/hash';
import { writeFileAtomic } from '../../node/atomicWrite';
import { readTextIfExists } from '../../node/readTextIfExists';

/** Keys longer than this are shortened (file names have limits); the hash keeps them unique. */
const MAX_FILE_KEY_LENGTH = 80;

/** A file name for `key`: readable when the key is already safe, hashed where it is not. */
export function archiveFileName(key: string): string {
  const safe = key.replace(/[^A-Za-z0-9._-]/g, '_');
  if (safe === key && key.length <= MAX_FILE_KEY_LENGTH && !key.startsWith('.')) return `${key}.json`;
  return `${safe.slice(0, MAX_FILE_KEY_LENGTH - 17)}-${hash64(key)}.json`;
}

export class FileArchiveStore implements ArchiveStore {
  constructor(readonly dir: string) {}

  private pathOf(key: string): string {
    return join(this.dir, archiveFileName(key));
  }

  async put(key: string, data: string): Promise<void> {
    // Content-addressed keys: the same key holds the same bytes, so an existing file is kept.
    if (await this.has(key)) return;
    await writeFileAtomic(this.pathOf(key), data);
  }

  async get(key: string): Promise<string | undefined> {
    return readTextIfExists(this.pathOf(key));
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
