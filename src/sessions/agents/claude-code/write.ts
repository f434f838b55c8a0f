// A compacted conversation as a new Claude Code session: `<uuid>.jsonl` in the project folder of
// the session's working directory, from the pure exporter (engine/conversation/exporters).

import { join } from 'node:path';
import { claudeCodeSession } from '../../../engine/conversation/exporters/claudeCodeSession';
import type { Conversation } from '../../../engine/conversation/model';
import type { CompactionResult } from '../../../engine/result';
import { claudeProjectDir } from '../../locations';
import type { SessionFile, WriteContext } from '../agent';

export function claudeCodeSessionFile(original: Conversation, result: CompactionResult, ctx: WriteContext, verifiedVersion: string): SessionFile | undefined {
  const id = ctx.newUuid();
  const sameAgent = original.format === 'claude-code';
  const lastUuid = [...original.messages].reverse().find((m) => m.source?.format === 'claude-code' && m.source.sourceId)?.source?.sourceId;
  const fromId = original.meta.sessionId;
  const session = claudeCodeSession(result.conversation, {
    sessionId: id,
    cwd: ctx.cwd,
    version: (sameAgent ? original.meta.agentVersion : undefined) ?? verifiedVersion,
    ...(sameAgent && original.meta.model ? { model: original.meta.model } : {}),
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    from: {
      ...(fromId ? { sessionId: fromId } : {}),
      ...(lastUuid ? { lastUuid } : {}),
      ...(ctx.sourceFile ? { file: ctx.sourceFile } : {}),
      inherited: ctx.inherited,
    },
    now: ctx.now,
    newUuid: ctx.newUuid,
  });
  if (!session) return undefined;
  return { id, file: join(claudeProjectDir(ctx.env, ctx.home, ctx.cwd), `${id}.jsonl`), text: session.text, notes: session.notes };
}
