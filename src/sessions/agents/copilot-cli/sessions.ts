// GitHub Copilot CLI sessions of the workspace folders: `<home>/session-state/<uuid>/events.jsonl`,
// where <home> is COPILOT_HOME, else ~/.copilot (verified: COPILOT_HOME takes the place of
// ~/.copilot). A session's folder is named only by its id: which workspace it belongs to is its
// working directory, in `workspace.yaml` (`cwd:`, written by Copilot beside the events) or else in
// the `session.start` event (`context.cwd`). A session we wrote names the one it came from in its
// session.start.

import { join } from 'node:path';
import type { FoundSession } from '../../agentSession';
import { entriesOf, firstLineOf, readHead, statOf } from '../../diskReads';
import { folderOf, type Env } from '../../locations';
import type { SourceContext } from '../sourceContext';
import { isObject, obj, str } from '../../../engine/conversation/importers/jsonShape';
import { COPILOT_PROVENANCE_FIELD } from '../../../engine/conversation/exporters/copilotCliSession';

export const COPILOT_EVENTS_FILE = 'events.jsonl';
export const COPILOT_WORKSPACE_FILE = 'workspace.yaml';
/** workspace.yaml is a few hundred bytes. */
const WORKSPACE_MAX_BYTES = 64 * 1024;

/** `~/.copilot`, or COPILOT_HOME. */
export function copilotHome(env: Env, home: string): string {
  return env['COPILOT_HOME'] || join(home, '.copilot');
}

export function copilotSessionStateDir(env: Env, home: string): string {
  return join(copilotHome(env, home), 'session-state');
}

export async function findCopilotCliSessions(ctx: SourceContext): Promise<FoundSession[]> {
  const dir = copilotSessionStateDir(ctx.env, ctx.home);
  const out: FoundSession[] = [];
  for (const e of await entriesOf(dir)) {
    if (!e.isDirectory()) continue;
    ctx.signal?.throwIfAborted();
    const folder = join(dir, e.name);
    const file = join(folder, COPILOT_EVENTS_FILE);
    const s = await statOf(file);
    if (!s?.isFile()) continue;
    const workspace = parseWorkspaceYaml((await readHead(join(folder, COPILOT_WORKSPACE_FILE), WORKSPACE_MAX_BYTES)) ?? '');
    const start = await firstLineOf(file);
    const data = isObject(start) && start['type'] === 'session.start' && isObject(start['data']) ? start['data'] : undefined;
    const context = data ? obj(data, 'context') : undefined;
    const cwd = workspace['cwd'] ?? (context ? str(context, 'cwd') : undefined);
    if (!folderOf(cwd, ctx.folders)) continue;
    const from = data ? data[COPILOT_PROVENANCE_FIELD] : undefined;
    const parent = isObject(from) ? str(from, 'sessionId') : undefined;
    const title = workspace['name'];
    out.push({
      agent: 'copilot-cli',
      id: (data && str(data, 'sessionId')) ?? workspace['id'] ?? e.name,
      file,
      format: 'copilot-cli',
      size: s.size,
      mtimeMs: s.mtimeMs,
      ...(cwd ? { cwd } : {}),
      ...(title ? { title } : {}),
      ...(parent ? { parent, relation: 'compacted' as const } : {}),
    });
  }
  return out;
}

/** The top-level `key: value` lines of a workspace.yaml (plain, 'single' or "double" quoted
 *  scalars: all Copilot writes there). Anything else is left out. */
export function parseWorkspaceYaml(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Za-z_][\w-]*):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!m) continue;
    const raw = m[2]!;
    if (raw.startsWith("'") && raw.endsWith("'") && raw.length >= 2) out[m[1]!] = raw.slice(1, -1).replace(/''/g, "'");
    else if (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2) {
      try {
        out[m[1]!] = JSON.parse(raw) as string;
      } catch {
        // an escape JSON does not know: not a value we can trust
      }
    } else if (raw !== '' && !/^[[{|>&*!%@`]/.test(raw)) out[m[1]!] = raw.replace(/\s+#.*$/, '');
  }
  return out;
}

/** A scalar as workspace.yaml takes it: single-quoted ('' for '), always safe. */
export function yamlScalar(s: string): string {
  return `'${s.replace(/[\r\n]+/g, ' ').replace(/'/g, "''")}'`;
}
