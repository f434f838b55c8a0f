// A compacted conversation written back as a new Codex rollout that Codex resumes, finds with
// `resume --last` and lists: the lines from the pure exporter (codexRollout.ts), placed where Codex
// keeps its rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<local time>-<id>.jsonl`), its row
// added to Codex's index (codexIndex.ts), then read back by Codex's rules (codexReadBack.ts). A
// rollout that does not read back as the summary and the last user turn is removed again, with its
// row, and the error says why: nothing half-right is left for Codex to resume.
//
// From the original, when it is a Codex thread: its cli_version, its model provider and its base
// instructions (Codex sends those again on resume, as it would for the original). From another
// agent: none of its own header (Codex sends its own instructions), the model provider the user's
// Codex is configured with.

import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CODEX_BASE_INSTRUCTIONS_ID } from '../../../engine/conversation/importers/codex';
import { CODEX_ORIGINATOR, CODEX_SESSION_SOURCE, codexRollout } from '../../../engine/conversation/exporters/codexRollout';
import { sessionParts } from '../../../engine/conversation/exporters/sessionParts';
import { isUserAuthored, messageText, type Conversation } from '../../../engine/conversation/model';
import type { CompactionResult } from '../../../engine/result';
import { firstLineOf, statOf } from '../../diskReads';
import { codexHome, codexSessionsDir, type Env } from '../../locations';
import { addToCodexIndex, configuredProvider, removeFromCodexIndex, threadSettings, type CodexIndexOutcome, type IndexAccess } from './codexIndex';
import { readBackCodexRollout } from './codexReadBack';

export interface CodexWriteContext {
  id: string;
  cwd: string;
  now: Date;
  env: Env;
  home: string;
  /** The Codex version recorded when the original names none (the newest verified). */
  fallbackCliVersion: string;
  /** The original's file name, recorded as where the session came from. */
  sourceFile?: string;
  /** Writes a file that must not exist yet, atomically (writeSession.ts). */
  writeNew: (file: string, text: string) => Promise<void>;
  /** Tests: how the index is reached. */
  indexAccess?: Partial<IndexAccess>;
}

export interface WrittenCodexRollout {
  file: string;
  notes: string[];
  index: CodexIndexOutcome;
}

/** The rollout did not read back as what Codex must send: it was removed again. */
export class CodexReadBackError extends Error {
  override readonly name = 'CodexReadBackError';
  /** So the callers that report failed writes ("nothing was written") treat it as one. */
  readonly code = 'EREADBACK';
}

export async function writeCodexRollout(original: Conversation, result: CompactionResult, ctx: CodexWriteContext): Promise<WrittenCodexRollout | undefined> {
  const home = codexHome(ctx.env, ctx.home);
  const access: IndexAccess = { env: ctx.env, ...ctx.indexAccess };
  const sameAgent = original.format === 'codex';
  const originalMeta = sameAgent && original.meta.sourcePath ? await sessionMetaOf(original.meta.sourcePath) : undefined;
  const settings = await threadSettings(home, sameAgent ? original.meta.sessionId : undefined, access);
  const modelProvider = str(originalMeta?.['model_provider']) ?? settings.modelProvider ?? (await configuredProvider(home));
  const baseInstructions = sameAgent ? original.messages.find((m) => m.source?.sourceId === CODEX_BASE_INSTRUCTIONS_ID) : undefined;
  const firstRequest = original.messages.find((m) => isUserAuthored(m) && messageText(m).trim() !== '');
  const cliVersion = (sameAgent ? original.meta.agentVersion : undefined) ?? ctx.fallbackCliVersion;
  const rollout = codexRollout(result.conversation, {
    sessionId: ctx.id,
    cwd: ctx.cwd,
    cliVersion,
    modelProvider,
    ...(baseInstructions ? { baseInstructions: messageText(baseInstructions) } : {}),
    ...(firstRequest ? { firstRequest: messageText(firstRequest) } : {}),
    from: {
      ...(original.meta.sessionId ? { sessionId: original.meta.sessionId } : {}),
      ...(ctx.sourceFile ? { file: ctx.sourceFile } : {}),
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
    },
    now: ctx.now,
  });
  if (!rollout) return undefined;
  const file = join(codexSessionsDir(ctx.env, ctx.home), ...datePath(ctx.now), `rollout-${fileTime(ctx.now)}-${ctx.id}.jsonl`);
  await ctx.writeNew(file, rollout.text);

  const meta = rollout.lines[0]!['payload'] as Record<string, unknown>;
  const index = await addToCodexIndex(
    home,
    {
      id: ctx.id,
      rolloutPath: file,
      createdAtMs: ctx.now.getTime(),
      updatedAtMs: (await statOf(file))?.mtimeMs ?? ctx.now.getTime(),
      source: CODEX_SESSION_SOURCE,
      modelProvider,
      cwd: ctx.cwd,
      title: String((rollout.lines[1]!['payload'] as Record<string, unknown>)['message'] ?? ''),
      cliVersion,
      originator: String(meta['originator'] ?? CODEX_ORIGINATOR),
      threadSource: String(meta['thread_source'] ?? 'user'),
      ...(settings.model ? { model: settings.model } : {}),
      sandboxPolicy: settings.sandboxPolicy,
      approvalMode: settings.approvalMode,
    },
    access,
  );
  const parts = sessionParts(result.conversation, 'Codex');
  const lastTurn = [...original.messages].reverse().find((m) => isUserAuthored(m) && messageText(m).trim() !== '');
  const back = await readBackCodexRollout(
    file,
    { id: ctx.id, summary: parts?.summaryText ?? '', ...(lastTurn ? { lastUserTurn: messageText(lastTurn) } : {}) },
    { codexHome: home, indexed: index.status === 'added', access },
  );
  if (!back.ok) {
    if (index.status === 'added') await removeFromCodexIndex(home, ctx.id, file, access);
    await rm(file, { force: true });
    throw new CodexReadBackError(`the new Codex rollout did not read back right: ${back.reason}; it was removed`);
  }
  return { file, notes: [...rollout.notes, indexNote(index)], index };
}

function indexNote(index: CodexIndexOutcome): string {
  switch (index.status) {
    case 'added':
      return index.latestInFolder
        ? "added to Codex's index: `codex exec resume --last` in its folder and `codex resume --include-non-interactive` list it"
        : "added to Codex's index (a thread of its folder was updated later, so `--last` picks that one)";
    case 'no-index':
      return 'this Codex keeps no index: it finds the rollout by scanning its sessions folder';
    case 'not-added':
      return `not added to Codex's index (${index.reason}): \`codex resume <id>\` resumes it, \`--last\` and the picker do not list it`;
  }
}

async function sessionMetaOf(file: string): Promise<Record<string, unknown> | undefined> {
  const first = await firstLineOf(file);
  if (typeof first !== 'object' || first === null) return undefined;
  const o = first as Record<string, unknown>;
  const payload = o['type'] === 'session_meta' ? o['payload'] : undefined;
  return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
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
