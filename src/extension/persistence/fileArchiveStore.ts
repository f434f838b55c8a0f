// The extension's archive: the FileArchive of src/files under the extension's global storage, so
// an original archived before a compaction survives reloads and undo still works tomorrow. Its
// file names are readable when the key is safe and hashed where it is not.

import { hash64 } from '../../engine/text/hash';
import { FileArchive } from '../../files/fileArchive';

/** Keys longer than this are shortened (file names have limits); the hash keeps them unique. */
const MAX_FILE_KEY_LENGTH = 80;

/** A file name for `key`: readable when the key is already safe, hashed where it is not. */
export function archiveFileName(key: string): string {
  const safe = key.replace(/[^A-Za-z0-9._-]/g, '_');
  if (safe === key && key.length <= MAX_FILE_KEY_LENGTH && !key.startsWith('.')) return `${key}.json`;
  return `${safe.slice(0, MAX_FILE_KEY_LENGTH - 17)}-${hash64(key)}.json`;
}

export class FileArchiveStore extends FileArchive {
  constructor(dir: string) {
    super(dir, archiveFileName);
  }
}
