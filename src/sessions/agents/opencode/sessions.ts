// opencode sessions of the workspace folders: the rows of opencode's session table whose directory
// is inside one of them (one small table read per database; messages are read only when a session
// is metered). Archived sessions are left out, as opencode's own lists leave them out. A sub-agent's
// session is listed under the one that ran it; a session we wrote names the one it came from in its
// metadata. A session's last activity is its `time_updated`, which opencode sets as it writes.

import type { FoundSession } from '../../agentSession';
import { folderOf } from '../../locations';
import type { SourceContext } from '../sourceContext';
import { isObject } from '../../../engine/conversation/importers/jsonShape';
import { isDefaultOpencodeTitle } from '../../../engine/conversation/importers/opencode';
import { OPENCODE_PROVENANCE_FIELD } from '../../../engine/conversation/exporters/opencodeSession';
import { opencodeDatabases, storedSessionPath, storedSessions } from './store';

export async function findOpencodeSessions(ctx: SourceContext): Promise<FoundSession[]> {
  const out: FoundSession[] = [];
  for (const db of await opencodeDatabases(ctx.env, ctx.home)) {
    ctx.signal?.throwIfAborted();
    let sessions;
    try {
      sessions = await storedSessions(db);
    } catch {
      // A database that cannot be read now (being created, or not opencode's) lists nothing; the
      // next listing tries again.
      continue;
    }
    for (const s of sessions) {
      if (s.archived || !folderOf(s.directory, ctx.folders)) continue;
      const from = s.metadata?.[OPENCODE_PROVENANCE_FIELD];
      const compactedFrom = isObject(from) && typeof from['from'] === 'string' ? from['from'] : undefined;
      const parent = s.parentId
        ? { parent: s.parentId, relation: 'subagent' as const }
        : compactedFrom
          ? { parent: compactedFrom, relation: 'compacted' as const }
          : {};
      out.push({
        agent: 'opencode',
        id: s.id,
        file: storedSessionPath(db, s.id),
        format: 'opencode',
        cwd: s.directory,
        ...(s.title && !isDefaultOpencodeTitle(s.title) ? { title: s.title } : {}),
        ...parent,
        // A stored session has no size of its own: its time says when it changed.
        size: 0,
        mtimeMs: s.updated,
      });
    }
  }
  return out;
}
