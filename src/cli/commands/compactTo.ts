// `ctxc compact FILE --to AGENT [--cwd DIR]`: the compacted conversation written back
// as a new session the agent resumes (src/sessions/writeSession.ts), then its id and the command
// that resumes it on stdout (with --format json: one JSON object). The session's folder is --cwd,
// else the one the transcript records when it exists on this machine, else the current folder.

import { homedir } from 'node:os';
import { basename, resolve } from 'node:path';
import type { Conversation } from '../../engine/conversation/model';
import { figuresJson } from '../../engine/figures';
import type { CompactionRun } from '../../sessions/compactionService';
import { AgentUnavailableError, NothingToWriteError, ReadBackError, resumeTargets, writeCompactedSession } from '../../sessions/writeSession';
import { EXIT_OK, EXIT_WRITE_FAILED, UsageError, type CliIO } from '../io';

export function parseTarget(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (resumeTargets().includes(value)) return value;
  throw new UsageError(`--to expects one of ${resumeTargets().join(', ')}, got '${value}'`);
}

export interface CompactToArgs {
  /** An agent that resumes files (resumeTargets()). */
  to: string;
  cwd?: string;
  file: string;
  json: boolean;
}

/** Writes the run's result as a session of `args.to`; its figures are the run's (with --format json,
 *  tokensBefore → tokensAfter as the agent will send them, as the stderr line says). */
export async function writeResumableSession(
  io: CliIO,
  args: CompactToArgs,
  original: Conversation,
  run: Pick<CompactionRun, 'result' | 'figures' | 'inherited'>,
): Promise<number> {
  try {
    const written = await writeCompactedSession(args.to, original, run.result, {
      env: io.env,
      home: io.env['HOME'] || homedir(),
      ...(args.cwd !== undefined ? { cwd: resolve(io.cwd, args.cwd) } : {}),
      fallbackCwd: io.cwd,
      sourceFile: basename(args.file),
      inherited: run.inherited,
    });
    for (const n of written.notes) io.err(`note: ${n}\n`);
    if (args.json) {
      io.out(`${JSON.stringify({ ...written, ...figuresJson(run.figures) }, null, 2)}\n`);
    } else {
      io.out(`session: ${written.id}\nfile: ${written.file}\nresume: ${written.command}\n`);
    }
    return EXIT_OK;
  } catch (e) {
    if (e instanceof NothingToWriteError) {
      io.err(`ctxc compact: ${args.file}: ${e.message}; nothing was written\n`);
      return EXIT_WRITE_FAILED;
    }
    if (e instanceof ReadBackError) {
      io.err(`ctxc compact: ${e.message}\n`);
      return EXIT_WRITE_FAILED;
    }
    if (e instanceof AgentUnavailableError) {
      io.err(`ctxc compact: ${e.message} (without --to, ctxc compact prints the summary and the recent turns as a handoff); nothing was written\n`);
      return EXIT_WRITE_FAILED;
    }
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string') {
      io.err(`ctxc compact: cannot write the ${args.to} session: ${(e as Error).message}; nothing was written\n`);
      return EXIT_WRITE_FAILED;
    }
    throw e;
  }
}
