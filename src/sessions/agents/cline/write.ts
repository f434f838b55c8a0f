// A compacted conversation as a new Cline CLI 3.x session that `cline --id <id>` resumes:
// `<sessions>/<id>/<id>.messages.json` and its manifest `<id>.json` (the CLI needs both), from the
// pure exporter (engine/conversation/exporters/clineCliSession.ts). Ids are Cline's own kind:
// milliseconds since 1970, '_', five lower-case letters and digits (`1795731491681_2jjqp`).

import { join } from 'node:path';
import { clineCliSession } from '../../../engine/conversation/exporters/clineCliSession';
import type { Conversation } from '../../../engine/conversation/model';
import type { CompactionResult } from '../../../engine/result';
import { clineSessionsDir } from '../../locations';
import type { SessionFile, WriteContext } from '../agent';

/** A Cline CLI session id for `now`, its last part from a fresh UUID. */
export function clineSessionId(now: Date, uuid: string): string {
  const tail = parseInt(uuid.replace(/[^0-9a-f]/gi, '').slice(0, 8) || '0', 16)
    .toString(36)
    .padStart(5, '0')
    .slice(-5);
  return `${now.getTime()}_${tail}`;
}

export function clineSessionFile(original: Conversation, result: CompactionResult, ctx: WriteContext, verifiedVersion: string): SessionFile | undefined {
  const id = clineSessionId(ctx.now, ctx.newUuid());
  const folder = join(clineSessionsDir(ctx.env, ctx.home), id);
  const messagesPath = join(folder, `${id}.messages.json`);
  const sameAgent = original.format === 'cline';
  const fromId = original.meta.sessionId;
  // The provider Cline recorded on its answers (for `cline history`; the CLI resumes with the one
  // configured then).
  const recorded = sameAgent ? [...original.messages].reverse().find((m) => typeof m.source?.extra?.['provider'] === 'string') : undefined;
  const provider = recorded ? String(recorded.source!.extra!['provider']) : undefined;
  const session = clineCliSession(result.conversation, {
    sessionId: id,
    cwd: ctx.cwd,
    messagesPath,
    version: (sameAgent ? original.meta.agentVersion : undefined) ?? verifiedVersion,
    ...(original.meta.model ? { model: original.meta.model } : {}),
    ...(provider ? { provider } : {}),
    from: {
      ...(fromId ? { sessionId: fromId } : {}),
      ...(ctx.sourceFile ? { file: ctx.sourceFile } : {}),
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
      inherited: ctx.inherited,
    },
    now: ctx.now,
    newUuid: ctx.newUuid,
  });
  if (!session) return undefined;
  return {
    id,
    file: messagesPath,
    text: `${JSON.stringify(session.messages, null, 2)}\n`,
    companions: [{ file: join(folder, `${id}.json`), text: `${JSON.stringify(session.manifest, null, 2)}\n` }],
    notes: session.notes,
  };
}
