// Writing a compacted session back into the agent's own files, so the agent itself resumes it:
// Claude Code, a new `<uuid>.jsonl` in the project folder of the session's working directory;
// Codex, a new rollout under `$CODEX_HOME/sessions/YYYY/MM/DD/`, added to Codex's index and read
// back (agents/codex/writeCodexSession.ts). The lines come from the pure exporters
// (engine/conversation/exporters); here they are placed and written.
//
// The original session file is never opened: only the compaction result is read. The new file has
// a fresh UUID for a name, is refused if something is already there, and is written atomically
// (a temporary file renamed into place): on any failure nothing is left half-written.

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { claudeCodeSession } from '../engine/conversation/exporters/claudeCodeSession';
import type { Conversation } from '../engine/conversation/model';
import type { CompactionResult } from '../engine/result';
import { writeFileAtomic } from '../node/atomicWrite';
import { statOf } from './diskReads';
import { writeCodexRollout } from './agents/codex/writeCodexSession';
import { claudeProjectDir, type Env } from './locations';

/** The versions whose resume of what we write was checked with the real CLIs (npm run
 *  test:agents); recorded when the original session does not name its own. */
export const VERIFIED_CLAUDE_CODE_VERSION = '2.1.328';
export const VERIFIED_CODEX_VERSION = '0.171.0';

export type ResumableAgent = 'claude-code' | 'codex';
export const RESUME_TARGETS: readonly ResumableAgent[] = ['claude-code', 'codex'];

export interface WriteSessionOptions {
  env: Env;
  home: string;
  /** The folder the session belongs to; default: the one the original records, else fallbackCwd. */
  cwd?: string;
  fallbackCwd: string;
  /** The original's file, recorded as where the session came from. */
  sourceFile?: string;
  now?: Date;
  newUuid?: () => string;
}

export interface WrittenSession {
  agent: ResumableAgent;
  id: string;
  file: string;
  /** The working directory to resume it from. */
  cwd: string;
  /** The agent's command that resumes it (run in cwd). */
  resume: string;
  /** The same, with the change of directory, quoted for a POSIX shell. */
  command: string;
  /** What had to change on the way (header messages left out, thinking without signature, …). */
  notes: string[];
}

/** The compaction changed nothing: there is no summary to resume from. */
export class NothingToWriteError extends Error {
  override name = 'NothingToWriteError';
}

export async function writeCompactedSession(
  agent: ResumableAgent,
  original: Conversation,
  result: CompactionResult,
  opts: WriteSessionOptions,
): Promise<WrittenSession> {
  const newUuid = opts.newUuid ?? randomUUID;
  const now = opts.now ?? new Date();
  const cwd = opts.cwd ?? original.meta.cwd ?? opts.fallbackCwd;
  const id = newUuid();
  const sameAgent = original.format === agent;
  const fromId = original.meta.sessionId;
  if (agent === 'claude-code') {
    const lastUuid = [...original.messages].reverse().find((m) => m.source?.format === 'claude-code' && m.source.sourceId)?.source?.sourceId;
    const session = claudeCodeSession(result.conversation, {
      sessionId: id,
      cwd,
      version: (sameAgent ? original.meta.agentVersion : undefined) ?? VERIFIED_CLAUDE_CODE_VERSION,
      ...(sameAgent && original.meta.model ? { model: original.meta.model } : {}),
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
      from: { ...(fromId ? { sessionId: fromId } : {}), ...(lastUuid ? { lastUuid } : {}), ...(opts.sourceFile ? { file: opts.sourceFile } : {}) },
      now,
      newUuid,
    });
    if (!session) throw new NothingToWriteError('the compaction left the conversation as it was (no summary): there is nothing to resume from');
    const file = join(claudeProjectDir(opts.env, opts.home, cwd), `${id}.jsonl`);
    await writeNew(file, session.text);
    const resume = resumeCommand(agent, id);
    return { agent, id, file, cwd, resume, command: `cd ${shellQuote(cwd)} && ${resume}`, notes: session.notes };
  }
  const rollout = await writeCodexRollout(original, result, {
    id,
    cwd,
    now,
    env: opts.env,
    home: opts.home,
    fallbackCliVersion: VERIFIED_CODEX_VERSION,
    ...(opts.sourceFile ? { sourceFile: opts.sourceFile } : {}),
    writeNew,
  });
  if (!rollout) throw new NothingToWriteError('the compaction left the conversation as it was (no summary): there is nothing to resume from');
  const resume = resumeCommand(agent, id);
  return { agent, id, file: rollout.file, cwd, resume, command: `cd ${shellQuote(cwd)} && ${resume}`, notes: rollout.notes };
}

/** The agent's command that resumes session `id`, run in the session's folder; the id quoted for a
 *  POSIX shell (a UUID needs no quotes). */
export function resumeCommand(agent: ResumableAgent, id: string): string {
  return agent === 'claude-code' ? `claude --resume ${shellQuote(id)}` : `codex resume ${shellQuote(id)}`;
}

/** Writes a file that must not exist yet, atomically. */
async function writeNew(file: string, text: string): Promise<void> {
  if (await statOf(file)) throw Object.assign(new Error(`${file} already exists; nothing was written`), { code: 'EEXIST' });
  await writeFileAtomic(file, text);
}

/** A word for a POSIX shell: as it is when it is plain, else in single quotes. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
