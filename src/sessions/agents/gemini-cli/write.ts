// A compacted conversation as a new Gemini CLI session: `session-<minute>-<id8>.jsonl` in the chats
// folder of the working directory's project (projects.ts), from the pure exporter.
//
// Gemini CLI's session cleanup deletes every file of a chats folder whose name ends in the same 8
// characters as a file it finds invalid (seen with a stray file its own resume left). So the new
// session's id is drawn again until its first 8 characters end no other file's name there.

import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { geminiSession } from '../../../engine/conversation/exporters/geminiSession';
import type { Conversation } from '../../../engine/conversation/model';
import type { CompactionResult } from '../../../engine/result';
import type { SessionFile, WriteContext } from '../agent';
import { geminiProjectFor, geminiProjectHash, geminiTmpDir, PROJECT_ROOT_FILE } from './projects';

/** Ids drawn before giving up on one whose 8 characters are free (each try has 16^8 to one). */
const ID_TRIES = 20;

const pad = (n: number) => String(n).padStart(2, '0');

/** 2026-11-27T01-50, UTC, as Gemini CLI names its session files. */
export function geminiFileMinute(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}-${pad(d.getUTCMinutes())}`;
}

/** The 8 characters a session file's name ends with (`session-…-<id8>.json(l)`). */
function shortIds(chats: string): Set<string> {
  try {
    return new Set(readdirSync(chats).flatMap((n) => /-([a-zA-Z0-9]{8})\.jsonl?$/.exec(n)?.[1] ?? []));
  } catch {
    return new Set();
  }
}

export function geminiSessionFile(original: Conversation, result: CompactionResult, ctx: WriteContext): SessionFile | undefined {
  const project = geminiProjectFor(ctx.env, ctx.home, ctx.cwd);
  const chats = join(geminiTmpDir(ctx.env, ctx.home), project.name, 'chats');
  const taken = shortIds(chats);
  let id = ctx.newUuid();
  for (let i = 1; taken.has(id.slice(0, 8)) && i < ID_TRIES; i++) id = ctx.newUuid();
  if (taken.has(id.slice(0, 8))) throw new Error(`no session id whose first 8 characters no file in ${chats} ends with`);
  const sameAgent = original.format === 'gemini-cli';
  const session = geminiSession(result.conversation, {
    sessionId: id,
    projectHash: geminiProjectHash(ctx.cwd),
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
  const notes = [...session.notes];
  if (project.claim)
    notes.push(`Gemini CLI had no project for ${ctx.cwd}: the session is in a new one, ${project.name}, which Gemini CLI takes up at its next start there`);
  return { id, file: join(chats, `session-${geminiFileMinute(ctx.now)}-${id.slice(0, 8)}.jsonl`), text: session.text, notes };
}

/** Marks the project folder the session went in as the working directory's, when nothing does yet
 *  (a project Gemini CLI never ran in): the `.project_root` Gemini CLI looks for when its registry
 *  does not name the folder, and then takes up. An existing marker is never replaced. */
export async function markGeminiProject(written: SessionFile, ctx: WriteContext): Promise<string[]> {
  const marker = join(dirname(dirname(written.file)), PROJECT_ROOT_FILE);
  try {
    await writeFile(marker, ctx.cwd, { flag: 'wx' });
    return [];
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return [];
    return [`the project marker ${marker} could not be written (${code ?? (e as Error).message}): Gemini CLI may not find the session from ${ctx.cwd}`];
  }
}
