// The model opencode goes on with in a session written for it from another agent's. opencode
// continues a session with the model its last user message names (verified with 1.18.33: a model
// it does not know fails the turn with "Model not found"), so the session must name one this
// person's opencode has: the `model` of its config as opencode reads it (OPENCODE_CONFIG_CONTENT,
// then the project's opencode.json(c) from the folder up, then OPENCODE_CONFIG, then the global
// one), else the model of the newest session in its store.

import { dirname, join } from 'node:path';
import { isObject } from '../../../engine/conversation/importers/jsonShape';
import type { OpencodeModelRef } from '../../../engine/conversation/exporters/opencodeSession';
import { readTextIfExists } from '../../../files/readTextIfExists';
import { statOf } from '../../diskReads';
import type { Env } from '../../locations';
import { lastUserModel, opencodeDatabases, storedSessions } from './store';

const CONFIG_NAMES = ['opencode.jsonc', 'opencode.json'];

/** "provider/model" as opencode writes it (a model id may hold more slashes). */
export function parseModelName(name: unknown): OpencodeModelRef | undefined {
  if (typeof name !== 'string') return undefined;
  const at = name.indexOf('/');
  return at > 0 && at < name.length - 1 ? { providerID: name.slice(0, at), modelID: name.slice(at + 1) } : undefined;
}

/** JSON with comments and trailing commas (opencode's config files), parsed; undefined if it is not. */
export function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    return undefined;
  }
}

async function modelIn(file: string): Promise<OpencodeModelRef | undefined> {
  const text = await readTextIfExists(file).catch(() => undefined);
  const value = text === undefined ? undefined : parseJsonc(text);
  return isObject(value) ? parseModelName(value['model']) : undefined;
}

/** The project's config files from `cwd` up to the repository's root (or the file system's). */
async function projectConfigs(cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    for (const n of CONFIG_NAMES) out.push(join(dir, '.opencode', n), join(dir, n));
    if ((await statOf(join(dir, '.git'))) || dirname(dir) === dir) return out;
  }
}

export async function opencodeModel(env: Env, home: string, cwd: string): Promise<OpencodeModelRef | undefined> {
  const content = env['OPENCODE_CONFIG_CONTENT'];
  const inline = content ? parseJsonc(content) : undefined;
  if (isObject(inline) && parseModelName(inline['model'])) return parseModelName(inline['model']);
  const global = join(env['XDG_CONFIG_HOME'] || join(home, '.config'), 'opencode');
  const files = [
    ...(await projectConfigs(cwd)),
    ...(env['OPENCODE_CONFIG'] ? [env['OPENCODE_CONFIG']] : []),
    ...CONFIG_NAMES.map((n) => join(global, n)),
    join(global, 'config.json'),
  ];
  for (const f of files) {
    const m = await modelIn(f);
    if (m) return m;
  }
  for (const db of await opencodeDatabases(env, home)) {
    const sessions = await storedSessions(db).catch(() => []);
    const newest = sessions.sort((a, b) => (a.directory === cwd ? 0 : 1) - (b.directory === cwd ? 0 : 1) || b.updated - a.updated)[0];
    const m = newest ? await lastUserModel(db, newest.id).catch(() => undefined) : undefined;
    if (m) return m;
  }
  return undefined;
}
