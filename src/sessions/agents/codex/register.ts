// After a rollout is written and read back: its row in Codex's index (codexIndex.ts), so that
// `codex exec resume --last` in its folder, `codex resume --include-non-interactive`, the picker's
// search and the app server's thread/list find it, then the row read back. The row is made from
// the rollout's own first lines (as Codex makes it when it reads one) and, for what the rollout
// does not say, from the original thread's row. What cannot be done is said in a note, never
// thrown: the rollout resumes by id all the same.

import { statOf } from '../../diskReads';
import { codexHome } from '../../locations';
import type { SessionFile, WriteContext } from '../agent';
import { CODEX_PROVENANCE_FIELD } from '../../../engine/conversation/exporters/codexRollout';
import {
  addToCodexIndex,
  codexIndexRow,
  configuredProvider,
  removeFromCodexIndex,
  threadSettings,
  type CodexIndexOutcome,
  type CodexThreadRow,
  type IndexAccess,
} from './codexIndex';

export async function registerCodexRollout(written: SessionFile, ctx: WriteContext): Promise<string[]> {
  const home = codexHome(ctx.env, ctx.home);
  const access: IndexAccess = { env: ctx.env };
  const row = await rowOf(written, ctx, home, access);
  if (!row) return [indexNote({ status: 'not-added', reason: 'the rollout’s first lines are not a session_meta and a user_message' })];
  const outcome = await addToCodexIndex(home, row, access);
  if (outcome.status !== 'added') return [indexNote(outcome)];
  const back = await codexIndexRow(home, row.id, access);
  const same = back && back['rollout_path'] === row.rolloutPath && back['cwd'] === row.cwd && back['source'] === row.source && back['archived'] === 0;
  if (!same) {
    await removeFromCodexIndex(home, row.id, row.rolloutPath, access);
    return [indexNote({ status: 'not-added', reason: 'the row did not read back as written, and was removed' })];
  }
  return [indexNote(outcome)];
}

/** Removes our row (the rollout is being removed). */
export async function unregisterCodexRollout(written: SessionFile, ctx: WriteContext): Promise<void> {
  await removeFromCodexIndex(codexHome(ctx.env, ctx.home), written.id, written.file, { env: ctx.env });
}

async function rowOf(written: SessionFile, ctx: WriteContext, home: string, access: IndexAccess): Promise<CodexThreadRow | undefined> {
  const [metaLine, userLine] = written.text.split('\n', 2).map((l) => {
    try {
      return JSON.parse(l) as { type?: string; payload?: Record<string, unknown> };
    } catch {
      return undefined;
    }
  });
  const meta = metaLine?.type === 'session_meta' ? metaLine.payload : undefined;
  const user = userLine?.payload?.['type'] === 'user_message' ? userLine.payload : undefined;
  if (!meta || !user) return undefined;
  const text = (k: string, p: Record<string, unknown> = meta) => (typeof p[k] === 'string' ? (p[k] as string) : undefined);
  const from = meta[CODEX_PROVENANCE_FIELD];
  const originalId = typeof from === 'object' && from !== null ? text('sessionId', from as Record<string, unknown>) : undefined;
  const settings = await threadSettings(home, originalId, access);
  return {
    id: written.id,
    rolloutPath: written.file,
    createdAtMs: ctx.now.getTime(),
    updatedAtMs: (await statOf(written.file))?.mtimeMs ?? ctx.now.getTime(),
    source: text('source') ?? 'exec',
    modelProvider: text('model_provider') ?? settings.modelProvider ?? (await configuredProvider(home)),
    cwd: text('cwd') ?? ctx.cwd,
    title: text('message', user) ?? '',
    cliVersion: text('cli_version') ?? '',
    originator: text('originator') ?? '',
    threadSource: text('thread_source') ?? 'user',
    ...(settings.model ? { model: settings.model } : {}),
    sandboxPolicy: settings.sandboxPolicy,
    approvalMode: settings.approvalMode,
  };
}

function indexNote(index: CodexIndexOutcome): string {
  switch (index.status) {
    case 'added':
      return index.latestInFolder
        ? "added to Codex's index: `codex exec resume --last` in its folder and `codex resume --include-non-interactive` list it"
        : "added to Codex's index (a thread of its folder was updated later: `--last` picks that one)";
    case 'no-index':
      return 'this Codex keeps no index: it finds the rollout by scanning its sessions folder';
    case 'not-added':
      return `not added to Codex's index (${index.reason}): \`codex resume <id>\` resumes it, \`--last\` and the picker do not list it`;
  }
}
