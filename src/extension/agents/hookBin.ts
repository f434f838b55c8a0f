// Where the installed Claude Code hooks find `ctxc`. The extension's own folder has its version in
// its name (~/.vscode/extensions/<publisher>.context-compactor-0.1.0) and is gone after the next
// update, and with it every hook command naming it. So the hooks run a copy of the CLI's bundles
// in the extension's global storage, a path that stays: made at install, and renewed by each
// activation of another build while it exists.

import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../files/atomicWrite';
import { readTextIfExists } from '../../files/readTextIfExists';

/** dist/cli.js picks dist/hook.js (`ctxc hook`) or dist/ctxc.js (everything else) beside itself. */
export const HOOK_BUNDLES = ['cli.js', 'hook.js', 'ctxc.js'] as const;
/** The folder in the global storage. */
export const HOOK_BIN = 'hook-bin';
/** What the copy was made from (the bundles' sizes and times), to tell another build. */
const STAMP = 'source.json';

async function sourceStamp(dist: string): Promise<string> {
  const parts: string[] = [];
  for (const b of HOOK_BUNDLES) {
    const s = await stat(join(dist, b));
    parts.push(`${b}:${s.size}:${Math.trunc(s.mtimeMs)}`);
  }
  return JSON.stringify({ from: dist, bundles: parts });
}

/** The stable cli.js the hooks run, copied (again) from `extensionPath`/dist when that build is not
 *  the copy's. Each file is written atomically; the stamp last, so a copy cut short is made again. */
export async function stableHookCli(extensionPath: string, globalStorage: string): Promise<string> {
  const dist = join(extensionPath, 'dist');
  const bin = join(globalStorage, HOOK_BIN);
  const stamp = await sourceStamp(dist);
  if ((await readTextIfExists(join(bin, STAMP)).catch(() => undefined)) !== stamp) {
    for (const b of HOOK_BUNDLES) await writeFileAtomic(join(bin, b), await readFile(join(dist, b)));
    await writeFileAtomic(join(bin, STAMP), stamp);
  }
  return join(bin, 'cli.js');
}

/** Renews an existing copy after an update (nothing when the hooks were never installed). */
export async function renewHookCli(extensionPath: string, globalStorage: string): Promise<boolean> {
  const existing = await stat(join(globalStorage, HOOK_BIN)).catch(() => undefined);
  if (!existing?.isDirectory()) return false;
  await stableHookCli(extensionPath, globalStorage);
  return true;
}
