// Where a program is on a PATH, as a shell would find it: the first folder holding an executable
// file of that name (on Windows, with one of PATHEXT's endings). Undefined when there is none.

import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

export async function programOnPath(
  name: string,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): Promise<string | undefined> {
  const windows = platform === 'win32';
  const dirs = (env['PATH'] ?? env['Path'] ?? '').split(windows ? ';' : delimiter).filter((d) => d !== '');
  const endings = windows ? ['', ...(env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  for (const dir of dirs) {
    for (const ending of endings) {
      const file = join(dir, `${name}${ending}`);
      const s = await stat(file).catch(() => undefined);
      if (!s?.isFile()) continue;
      if (
        windows ||
        (await access(file, constants.X_OK).then(
          () => true,
          () => false,
        ))
      )
        return file;
    }
  }
  return undefined;
}
