// Qwen Code sessions of the workspace folders: `<runtime>/projects/<dir>/chats/<sessionId>.jsonl`,
// where <runtime> is QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen, and <dir> the working
// directory with every character that is not an ASCII letter or digit replaced by '-' (folders of
// sub-directories of a workspace folder too, when the session's recorded cwd confirms it). A
// session we wrote names the one it came from in its first record.

import { basename, join, resolve } from 'node:path';
import type { FoundSession } from '../../agentSession';
import { entriesOf, firstLineOf, statOf } from '../../diskReads';
import { isInside, type Env } from '../../locations';
import type { SourceContext } from '../sourceContext';
import { isObject, str } from '../../../engine/conversation/importers/jsonShape';
import { QWEN_PROVENANCE_FIELD } from '../../../engine/conversation/exporters/qwenSession';

/** `~/.qwen`, or QWEN_HOME: settings, hooks, memory. */
export function qwenDir(env: Env, home: string): string {
  return env['QWEN_HOME'] ? resolve(env['QWEN_HOME']) : join(home, '.qwen');
}

/** Where the sessions are: QWEN_RUNTIME_DIR, else the Qwen folder. */
export function qwenRuntimeDir(env: Env, home: string): string {
  return env['QWEN_RUNTIME_DIR'] ? resolve(env['QWEN_RUNTIME_DIR']) : qwenDir(env, home);
}

/** Qwen Code's folder name for a working directory (`/home/u/ws` → `-home-u-ws`). */
export function qwenProjectName(cwd: string): string {
  return resolve(cwd).replace(/[^a-zA-Z0-9]/g, '-');
}

export function qwenChatsDir(env: Env, home: string, cwd: string): string {
  return join(qwenRuntimeDir(env, home), 'projects', qwenProjectName(cwd), 'chats');
}

export async function findQwenSessions(ctx: SourceContext): Promise<FoundSession[]> {
  const projects = join(qwenRuntimeDir(ctx.env, ctx.home), 'projects');
  const dirs = (await entriesOf(projects)).filter((d) => d.isDirectory());
  const out = new Map<string, FoundSession>();
  for (const folder of ctx.folders) {
    const name = qwenProjectName(folder);
    for (const d of dirs) {
      if (d.name !== name && !d.name.startsWith(`${name}-`)) continue;
      ctx.signal?.throwIfAborted();
      const chats = join(projects, d.name, 'chats');
      for (const e of await entriesOf(chats)) {
        if (!e.isFile() || !e.name.endsWith('.jsonl')) continue;
        const file = join(chats, e.name);
        const s = await statOf(file);
        if (!s) continue;
        const first = await firstLineOf(file);
        const cwd = isObject(first) ? str(first, 'cwd') : undefined;
        // A folder named like a sub-directory may belong to a sibling ("/a/b-c" for "/a/b").
        if (d.name !== name && !(cwd && isInside(cwd, folder))) continue;
        const from = isObject(first) ? first[QWEN_PROVENANCE_FIELD] : undefined;
        const parent = isObject(from) ? str(from, 'from') : undefined;
        out.set(file, {
          agent: 'qwen-code',
          // `qwen -r <id>` opens `<id>.jsonl`.
          id: basename(e.name, '.jsonl'),
          file,
          format: 'qwen-code',
          size: s.size,
          mtimeMs: s.mtimeMs,
          ...(cwd ? { cwd } : {}),
          ...(parent ? { parent, relation: 'compacted' as const } : {}),
        });
      }
    }
  }
  return [...out.values()];
}
