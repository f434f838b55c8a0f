// Reading a file that may not be there yet (an archive entry, a saved state): its text, or
// undefined when it does not exist. Any other failure (no permission, a folder) is thrown.

import { readFile } from 'node:fs/promises';

export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
