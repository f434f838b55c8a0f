// A compacted conversation as a new Copilot CLI session: `<home>/session-state/<uuid>/events.jsonl`
// from the pure exporter (engine/conversation/exporters), and beside it the `workspace.yaml`
// Copilot writes for its own sessions (id, cwd, name, …: what its session list shows; resuming by
// id works without it, verified, and Copilot then writes one itself).

import { join } from 'node:path';
import { copilotCliSession } from '../../../engine/conversation/exporters/copilotCliSession';
import { isUserAuthored, messageText, type Conversation } from '../../../engine/conversation/model';
import type { CompactionResult } from '../../../engine/result';
import { titleText } from '../../agentSession';
import type { SessionFile, WriteContext } from '../agent';
import { COPILOT_EVENTS_FILE, COPILOT_WORKSPACE_FILE, copilotSessionStateDir, yamlScalar } from './sessions';

export function copilotCliSessionFile(original: Conversation, result: CompactionResult, ctx: WriteContext, verifiedVersion: string): SessionFile | undefined {
  const id = ctx.newUuid();
  const sameAgent = original.format === 'copilot-cli';
  const fromId = original.meta.sessionId;
  const model = sameAgent ? original.meta.model : undefined;
  const session = copilotCliSession(result.conversation, {
    sessionId: id,
    cwd: ctx.cwd,
    copilotVersion: (sameAgent ? original.meta.agentVersion : undefined) ?? verifiedVersion,
    ...(model ? { model } : {}),
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
  const folder = join(copilotSessionStateDir(ctx.env, ctx.home), id);
  const firstRequest = original.messages.find((m) => isUserAuthored(m) && messageText(m).trim() !== '');
  const at = ctx.now.toISOString();
  const workspace = [
    `id: ${id}`,
    `cwd: ${yamlScalar(ctx.cwd)}`,
    'client_name: github/cli',
    `name: ${yamlScalar(titleText(firstRequest ? messageText(firstRequest) : `Compacted session ${fromId ?? ''}`.trim()))}`,
    'user_named: false',
    'summary_count: 1',
    'fork_count: 0',
    `created_at: ${at}`,
    `updated_at: ${at}`,
    '',
  ].join('\n');
  return {
    id,
    file: join(folder, COPILOT_EVENTS_FILE),
    text: session.text,
    companions: [{ file: join(folder, COPILOT_WORKSPACE_FILE), text: workspace }],
    notes: session.notes,
  };
}
