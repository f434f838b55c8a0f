// Codex CLI sessions of the workspace folders: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`
// whose first line (`session_meta`) records a cwd inside one of the folders. A rollout we wrote
// names the session it came from in its session_meta.

import { basename, join } from 'node:path';
import type { FoundSession } from '../../agentSession';
import { entriesOf, entryStatOf, firstLineOf, mayBeSessionFile } from '../../diskReads';
import { codexSessionsDir, folderOf } from '../../locations';
import type { SourceContext } from '../sourceContext';
import { isObject } from '../../../engine/conversation/importers/jsonShape';
import { CODEX_PROVENANCE_FIELD } from '../../../engine/conversation/exporters/codexRollout';

const ROLLOUT = /^rollout-.*\.jsonl$/;
/** The id at the end of a rollout's name: rollout-2026-11-24T04-30-58-<uuid>.jsonl. */
const ID_IN_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export async function findCodexSessions(ctx: SourceContext): Promise<FoundSession[]> {
  const out: FoundSession[] = [];
  for (const file of await rolloutFiles(codexSessionsDir(ctx.env, ctx.home), 0, ctx.signal)) {
    const first = await firstLineOf(file);
    const meta = isObject(first) && first['type'] === 'session_meta' && isObject(first['payload']) ? first['payload'] : isObject(first) ? first : undefined;
    const cwd = meta && typeof meta['cwd'] === 'string' ? meta['cwd'] : undefined;
    if (!folderOf(cwd, ctx.folders)) continue;
    const s = await entryStatOf(file);
    if (!s) continue;
    const id = (meta && typeof meta['id'] === 'string' ? meta['id'] : undefined) ?? ID_IN_NAME.exec(file)?.[1] ?? basename(file, '.jsonl');
    const from = meta ? meta[CODEX_PROVENANCE_FIELD] : undefined;
    const parent = isObject(from) && typeof from['sessionId'] === 'string' ? from['sessionId'] : undefined;
    out.push({
      agent: 'codex',
      id,
      file,
      format: 'codex',
      size: s.size,
      mtimeMs: s.mtimeMs,
      ...(cwd ? { cwd } : {}),
      ...(parent ? { parent, relation: 'compacted' as const } : {}),
    });
  }
  return out;
}

/** Rollouts under the sessions folder (YYYY/MM/DD, and any depth up to that). */
async function rolloutFiles(dir: string, depth: number, signal: AbortSignal | undefined): Promise<string[]> {
  signal?.throwIfAborted();
  const out: string[] = [];
  for (const e of await entriesOf(dir)) {
    const path = join(dir, e.name);
    if (mayBeSessionFile(e) && ROLLOUT.test(e.name)) out.push(path);
    else if (e.isDirectory() && depth < 3) out.push(...(await rolloutFiles(path, depth + 1, signal)));
  }
  return out;
}
