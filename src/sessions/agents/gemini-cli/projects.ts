// Where Gemini CLI keeps a working directory's sessions: `~/.gemini/tmp/<project>/chats/`
// (GEMINI_CLI_HOME moves the home folder ~/.gemini is in). `<project>` is a short name Gemini CLI
// 0.61 registers in `~/.gemini/projects.json` ({"projects": {folder: name}}: the folder's base name
// made lowercase [a-z0-9-], with -1, -2… when taken) and marks with a `.project_root` file holding
// the folder, in `tmp/<project>/` and `history/<project>/`; a folder missing from the registry is
// found again by its marker. Older versions named the folder by the sha256 of the path (the file's
// `projectHash`), which Gemini CLI copies to the short name when it meets it.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { entriesOf, readJsonFile } from '../../diskReads';
import { folderOf, type Env } from '../../locations';

export const PROJECT_ROOT_FILE = '.project_root';

/** `~/.gemini`, or `$GEMINI_CLI_HOME/.gemini`. */
export function geminiDir(env: Env, home: string): string {
  return join(env['GEMINI_CLI_HOME'] || home, '.gemini');
}

export function geminiTmpDir(env: Env, home: string): string {
  return join(geminiDir(env, home), 'tmp');
}

/** The `projectHash` of a working directory: sha256 of its absolute path, hex. */
export function geminiProjectHash(cwd: string): string {
  return createHash('sha256').update(resolve(cwd)).digest('hex');
}

/** The registry's folders and names ({} when there is none or it is not one). */
function registryOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  const projects = (value as Record<string, unknown>)['projects'];
  if (typeof projects !== 'object' || projects === null || Array.isArray(projects)) return {};
  return Object.fromEntries(Object.entries(projects).filter((e): e is [string, string] => typeof e[1] === 'string' && /^[a-z0-9-]+$/.test(e[1])));
}

export interface GeminiProject {
  /** The folder's name under tmp/. */
  name: string;
  /** The working directory it is for. */
  root: string;
}

/** The projects whose folder is one of `folders` or inside one: from the registry, the markers
 *  (a registry reset keeps them), and the older sha256-named folders of the folders themselves. */
export async function geminiProjectsOf(env: Env, home: string, folders: readonly string[]): Promise<GeminiProject[]> {
  const out = new Map<string, GeminiProject>();
  const tmp = geminiTmpDir(env, home);
  for (const [root, name] of Object.entries(registryOf(await readJsonFile(join(geminiDir(env, home), 'projects.json'), 1024 * 1024)))) {
    if (folderOf(root, folders)) out.set(name, { name, root });
  }
  for (const e of await entriesOf(tmp)) {
    if (!e.isDirectory() || out.has(e.name)) continue;
    const root = await readFile(join(tmp, e.name, PROJECT_ROOT_FILE), 'utf8').then(
      (t) => t.trim(),
      () => undefined,
    );
    if (root && folderOf(root, folders)) out.set(e.name, { name: e.name, root });
  }
  for (const f of folders) {
    const hash = geminiProjectHash(f);
    if (!out.has(hash)) out.set(hash, { name: hash, root: resolve(f) });
  }
  return [...out.values()];
}

/** Base name → the registry's name form (lowercase letters, digits and single dashes). */
export function geminiSlug(folder: string): string {
  return (
    basename(resolve(folder))
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '') || 'project'
  );
}

function markerOwner(dir: string): string | undefined {
  try {
    return readFileSync(join(dir, PROJECT_ROOT_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * The project folder a new session of `cwd` goes in, as Gemini CLI finds it (read now, small
 * synchronous reads): the registry's name when its marker agrees, else a folder whose marker names
 * `cwd`, else a new name as Gemini CLI would claim it — `claim` then says the marker must be made,
 * so that Gemini CLI adopts the folder (it registers it itself at its next start there).
 */
export function geminiProjectFor(env: Env, home: string, cwd: string): { name: string; claim: boolean } {
  const root = resolve(cwd);
  const tmp = geminiTmpDir(env, home);
  const history = join(geminiDir(env, home), 'history');
  let registry: Record<string, string> = {};
  try {
    registry = registryOf(JSON.parse(readFileSync(join(geminiDir(env, home), 'projects.json'), 'utf8')));
  } catch {
    // No registry yet, or one Gemini CLI itself would reset.
  }
  const known = registry[root];
  if (known && [tmp, history].every((b) => (markerOwner(join(b, known)) ?? root) === root)) return { name: known, claim: false };
  let names: string[];
  try {
    names = readdirSync(tmp);
  } catch {
    names = [];
  }
  const marked = names.find((n) => markerOwner(join(tmp, n)) === root);
  if (marked) return { name: marked, claim: false };
  // As Gemini CLI claims a name: not the registry's for another folder, and no marker of another
  // folder in tmp/ or history/ (a folder without a marker is free).
  const taken = new Set(Object.values(registry));
  const slug = geminiSlug(root);
  for (let i = 0; ; i++) {
    const name = i === 0 ? slug : `${slug}-${i}`;
    if (taken.has(name) || [tmp, history].some((b) => (markerOwner(join(b, name)) ?? root) !== root)) continue;
    return { name, claim: true };
  }
}
