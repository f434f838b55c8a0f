// A compacted conversation as a new Codex rollout under `$CODEX_HOME/sessions/YYYY/MM/DD/`, from
// the pure exporter (engine/conversation/exporters). From an original Codex thread it takes the
// cli_version, the model provider and the base instructions (Codex sends those again on resume, as
// it would for the original); from another agent, none of that agent's header: Codex sends its own
// instructions, and records the provider it is configured with when it first reads the rollout.

import { join } from 'node:path';
import { codexRollout } from '../../../engine/conversation/exporters/codexRollout';
import { CODEX_BASE_INSTRUCTIONS_ID } from '../../../engine/conversation/importers/codex';
import { isUserAuthored, messageText, type Conversation } from '../../../engine/conversation/model';
import type { CompactionResult } from '../../../engine/result';
import { codexSessionsDir } from '../../locations';
import type { SessionFile, WriteContext } from '../agent';

export function codexSessionFile(original: Conversation, result: CompactionResult, ctx: WriteContext, verifiedVersion: string): SessionFile | undefined {
  const id = ctx.newUuid();
  const sameAgent = original.format === 'codex';
  const fromId = original.meta.sessionId;
  const firstRequest = original.messages.find((m) => isUserAuthored(m) && messageText(m).trim() !== '');
  const baseInstructions = sameAgent ? original.messages.find((m) => m.source?.sourceId === CODEX_BASE_INSTRUCTIONS_ID) : undefined;
  const rollout = codexRollout(result.conversation, {
    sessionId: id,
    cwd: ctx.cwd,
    cliVersion: (sameAgent ? original.meta.agentVersion : undefined) ?? verifiedVersion,
    ...(sameAgent && original.meta.modelProvider ? { modelProvider: original.meta.modelProvider } : {}),
    ...(baseInstructions ? { baseInstructions: messageText(baseInstructions) } : {}),
    ...(firstRequest ? { firstRequest: messageText(firstRequest) } : {}),
    from: {
      ...(fromId ? { sessionId: fromId } : {}),
      ...(ctx.sourceFile ? { file: ctx.sourceFile } : {}),
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
      inherited: ctx.inherited,
    },
    now: ctx.now,
  });
  if (!rollout) return undefined;
  const file = join(codexSessionsDir(ctx.env, ctx.home), ...datePath(ctx.now), `rollout-${fileTime(ctx.now)}-${id}.jsonl`);
  return { id, file, text: rollout.text, notes: rollout.notes };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY/MM/DD in local time, as Codex names its folders. */
function datePath(d: Date): string[] {
  return [String(d.getFullYear()), pad(d.getMonth() + 1), pad(d.getDate())];
}

/** 2026-11-24T04-30-58, local time, as in Codex's rollout names. */
function fileTime(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}`;
}
