// A compacted conversation as a new Qwen Code session: `<sessionId>.jsonl` in the chats folder of
// the session's working directory, from the pure exporter (the file is what `qwen -r <id>` opens,
// and being the newest, what `qwen -c` resumes).

import { join } from 'node:path';
import { qwenSession } from '../../../engine/conversation/exporters/qwenSession';
import type { Conversation } from '../../../engine/conversation/model';
import type { CompactionResult } from '../../../engine/result';
import type { SessionFile, WriteContext } from '../agent';
import { qwenChatsDir } from './sessions';

export function qwenSessionFile(original: Conversation, result: CompactionResult, ctx: WriteContext, verifiedVersion: string): SessionFile | undefined {
  const id = ctx.newUuid();
  const sameAgent = original.format === 'qwen-code';
  const session = qwenSession(result.conversation, {
    sessionId: id,
    cwd: ctx.cwd,
    version: (sameAgent ? original.meta.agentVersion : undefined) ?? verifiedVersion,
    ...(sameAgent && original.meta.model ? { model: original.meta.model } : {}),
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    from: {
      ...(original.meta.sessionId ? { sessionId: original.meta.sessionId } : {}),
      ...(ctx.sourceFile ? { file: ctx.sourceFile } : {}),
      inherited: ctx.inherited,
    },
    now: ctx.now,
    newUuid: ctx.newUuid,
  });
  if (!session) return undefined;
  return { id, file: join(qwenChatsDir(ctx.env, ctx.home, ctx.cwd), `${id}.jsonl`), text: session.text, notes: session.notes };
}
