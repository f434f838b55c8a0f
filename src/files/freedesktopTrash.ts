// Moving a file to the trash of the machine that holds it, as the freedesktop.org Trash
// specification has it (what Linux desktops and `gio trash` use): the file goes to
// $XDG_DATA_HOME/Trash/files (default ~/.local/share/Trash) under a free name, and an info file
// beside it in Trash/info records where it came from and when, so a file manager can put it
// back. For a VS Code whose file system offers no trash (a remote server such as code-server),
// where `workspace.fs.delete(…, { useTrash: true })` is refused.
//
// The info file is created first, exclusively, which reserves the name; the file is then linked
// into place (failing rather than replacing a file there) and unlinked where it was. The trash must
// be on the same file system: a link across devices fails, and the info file is removed again.
// Nothing is ever overwritten.

import { link, mkdir, open, rm, unlink } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';

/** Names tried before giving up (`name`, `name.2`, … `name.100`). */
const MAX_NAME_TRIES = 100;

export interface TrashPlaces {
  env: Record<string, string | undefined>;
  home: string;
}

/** The trash folder of the person's home (the one the specification calls the home trash). */
export function homeTrashDir(p: TrashPlaces): string {
  const data = p.env['XDG_DATA_HOME'] || join(p.home, '.local', 'share');
  return join(data, 'Trash');
}

/** RFC 3986 percent-encoding of a path, '/' kept, as the Path= key wants it. */
function encodePath(path: string): string {
  return path
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
}

/** Local time without a zone, as DeletionDate= wants it (YYYY-MM-DDThh:mm:ss). */
function deletionDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
}

/** Moves the file at the absolute path `file` to the home trash; returns where it is now. */
export async function moveToTrash(file: string, places: TrashPlaces, now = new Date()): Promise<string> {
  const trash = homeTrashDir(places);
  await mkdir(join(trash, 'files'), { recursive: true, mode: 0o700 });
  await mkdir(join(trash, 'info'), { recursive: true, mode: 0o700 });
  const name = basename(file);
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; n <= MAX_NAME_TRIES; n++) {
    const candidate = n === 1 ? name : `${stem}.${n}${ext}`;
    const info = join(trash, 'info', `${candidate}.trashinfo`);
    let handle;
    try {
      handle = await open(info, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    try {
      await handle.writeFile(`[Trash Info]\nPath=${encodePath(file)}\nDeletionDate=${deletionDate(now)}\n`);
    } finally {
      await handle.close();
    }
    const target = join(trash, 'files', candidate);
    try {
      await link(file, target);
    } catch (err) {
      await rm(info, { force: true });
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    await unlink(file);
    return target;
  }
  throw new Error(`the trash ${trash} already holds ${MAX_NAME_TRIES} files named like ${name}`);
}
