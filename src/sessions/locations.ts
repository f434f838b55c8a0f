// Where each agent keeps its sessions, from the environment and the home folder (both passed in,
// so tests and the extension decide them). Paths only: nothing here reads the disk.

import { isAbsolute, join, relative, resolve } from 'node:path';

export type Env = Record<string, string | undefined>;

/** `~/.claude`, or CLAUDE_CONFIG_DIR. */
export function claudeConfigDir(env: Env, home: string): string {
  return env['CLAUDE_CONFIG_DIR'] || join(home, '.claude');
}

export function claudeProjectsDir(env: Env, home: string): string {
  return join(claudeConfigDir(env, home), 'projects');
}

/** Longer folder names are cut, and made unique by a hash of the path. */
const CLAUDE_PROJECT_NAME_MAX = 200;

/** Claude Code's folder name for a working directory: every UTF-16 code unit that is not an ASCII
 *  letter or digit becomes '-' (`/tmp/w s.x_y` → `-tmp-w-s-x-y`); past 200 characters, the first
 *  200 and '-' and the path's 32-bit string hash in base 36 (as Claude Code 2.1.328 names them). */
export function claudeProjectName(cwd: string): string {
  const path = resolve(cwd);
  const name = path.replace(/[^a-zA-Z0-9]/g, '-');
  if (name.length <= CLAUDE_PROJECT_NAME_MAX) return name;
  let hash = 0;
  for (let i = 0; i < path.length; i++) hash = ((hash << 5) - hash + path.charCodeAt(i)) | 0;
  return `${name.slice(0, CLAUDE_PROJECT_NAME_MAX)}-${Math.abs(hash).toString(36)}`;
}

export function claudeProjectDir(env: Env, home: string, cwd: string): string {
  return join(claudeProjectsDir(env, home), claudeProjectName(cwd));
}

/** `~/.codex`, or CODEX_HOME. */
export function codexHome(env: Env, home: string): string {
  return env['CODEX_HOME'] || join(home, '.codex');
}

export function codexSessionsDir(env: Env, home: string): string {
  return join(codexHome(env, home), 'sessions');
}

/** Cline 4's own data folder: CLINE_DATA_DIR, else CLINE_DIR/data, else ~/.cline/data. */
export function clineDataDir(env: Env, home: string): string {
  return env['CLINE_DATA_DIR'] || join(env['CLINE_DIR'] || join(home, '.cline'), 'data');
}

/** Cline 4's sessions: CLINE_SESSION_DATA_DIR, else <data>/sessions. */
export function clineSessionsDir(env: Env, home: string): string {
  return env['CLINE_SESSION_DATA_DIR'] || join(clineDataDir(env, home), 'sessions');
}

/** The VS Code-family editors whose storage is looked at when no folder is given (the CLI). */
const EDITORS = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor'];

/** `User` folders of the usual VS Code-family installs on this platform, code-server's included. */
export function editorUserDirs(env: Env, home: string, platform: NodeJS.Platform = process.platform): string[] {
  const bases: string[] = [];
  if (platform === 'darwin') bases.push(join(home, 'Library', 'Application Support'));
  else if (platform === 'win32') bases.push(env['APPDATA'] || join(home, 'AppData', 'Roaming'));
  else bases.push(env['XDG_CONFIG_HOME'] || join(home, '.config'));
  const dirs = bases.flatMap((b) => EDITORS.map((e) => join(b, e, 'User')));
  dirs.push(join(env['XDG_DATA_HOME'] || join(home, '.local', 'share'), 'code-server', 'User'));
  return dirs;
}

export function guessGlobalStorageDirs(env: Env, home: string, platform?: NodeJS.Platform): string[] {
  return editorUserDirs(env, home, platform).map((d) => join(d, 'globalStorage'));
}

export function guessWorkspaceStorageDirs(env: Env, home: string, platform?: NodeJS.Platform): string[] {
  return editorUserDirs(env, home, platform).map((d) => join(d, 'workspaceStorage'));
}

/** Whether `path` is `folder` or inside it. */
export function isInside(path: string, folder: string): boolean {
  const rel = relative(resolve(folder), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The first folder `path` is inside, if any. */
export function folderOf(path: string | undefined, folders: readonly string[]): string | undefined {
  if (!path) return undefined;
  return folders.find((f) => isInside(path, f));
}
