// The engine's ArchiveStore on disk: one file per key in a folder, written atomically. Keys are
// content addresses ("conv-" + hex), so an existing file already holds the right bytes and is
// never rewritten. The CLI (`ctxc compact --archive DIR`) uses it with strictArchiveFileName;
// the extension (persistence/fileArchiveStore.ts) with its own file names, so the archives each
// has written stay readable.

import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveStore, ArchiveText } from '../engine/archive/archiveStore';
import { clip } from '../engine/text/clip';
import { writeFileAtomic } from './atomicWrite';
import { readTextIfExists } from './readTextIfExists';

/** How an archive key becomes a file name in the archive folder. */
export type ArchiveFileName = (key: string) => string;

/** Archive keys are hex content addresses, optionally with a ".variant"; nothing else is a file name here. */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

/** The CLI's file names: the key itself; any other key (an id typed on the command line) is refused. */
export function strictArchiveFileName(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`archive key ${clip(JSON.stringify(key))}: expected letters, digits, '.', '_' or '-'`);
  return `${key}.json`;
}

export class FileArchive implements ArchiveStore {
  readonly durable = true;

  constructor(
    readonly dir: string,
    private readonly fileName: ArchiveFileName = strictArchiveFileName,
  ) {}

  /** The file that holds `key`. */
  pathOf(key: string): string {
    return join(this.dir, this.fileName(key));
  }

  /** Pieces are written to the file as they come: a large original is never one string here. */
  async put(key: string, data: ArchiveText): Promise<void> {
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
