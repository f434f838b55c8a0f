// Writing a compacted session back into an agent's own files, so the agent itself resumes it. What
// the file holds and where it goes is the agent module's (src/sessions/agents/<agent>/); here, for
// every agent alike: the folder chosen, the file written, read back, and registered.
//
// The original session file is never opened: only the compaction result is read. The new file has
// a fresh id for a name, is refused if something is already there, is private (0600: sessions hold
// code, paths and keys pasted by mistake, and the agents write theirs so), and is written
// atomically (a temporary file linked into place): on any failure nothing is left half-written.
// Then it is read back with the agent's own resume rules, and success is reported only if the agent
// will send the summary and the last user turn; otherwise the new file is removed and the reason said.

import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { leftOutOfSession } from '../engine/conversation/exporters/sessionParts';
import type { Conversation } from '../engine/conversation/model';
import type { CompactionResult } from '../engine/result';
import type { TokenReport } from '../engine/tokens/report';
import { calibrateWith } from '../engine/tokens/calibration';
import { writeFileAtomic } from '../files/atomicWrite';
import type { InheritedFigures } from '../engine/conversation/exporters/sessionParts';
import type { WriteContext } from './agents/agent';
import { agentName, agentOfFormat, resumableAgent, resumableAgents } from './agents/registry';
import { statOf } from './diskReads';
import type { Env } from './locations';
import { readBackProblem } from './readBack';
import { shellQuote } from './shellQuote';

/** Session files we write: readable and writable by their owner only. */
export const SESSION_FILE_MODE = 0o600;

export interface WriteSessionOptions {
  env: Env;
  home: string;
  /** The folder the session belongs to; default: the one the original records when it exists on
   *  this machine, else fallbackCwd (the workspace folder, where the agent will look from here). */
  cwd?: string;
  fallbackCwd: string;
  /** The original's file, recorded as where the session came from. */
  sourceFile?: string;
  /** What the original's agent measured that its file does not hold, carried to the new session. */
  inherited?: InheritedFigures;
  now?: Date;
  newUuid?: () => string;
}

export interface WrittenSession {
  agent: string;
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

/** The file was written but the agent would not resume it as intended; it was removed. */
export class ReadBackError extends Error {
  override name = 'ReadBackError';
}

/** No session can be written for the agent on this machine now (opencode is not on the PATH);
 *  nothing was written. A handoff still works. */
export class AgentUnavailableError extends Error {
  override name = 'AgentUnavailableError';
}

/** The agents a compacted session can be written for, by id. */
export function resumeTargets(): string[] {
  return resumableAgents().map((a) => a.id);
}

/** What a new session for `target` takes over from `original` (counted as `report`): for the same
 *  agent, the model, the overhead the report builds on (system prompt and tools, from the usage its
 *  agent recorded, or what the original itself inherited) and the window its agent stated; for
 *  another agent, only that agent's own overhead estimate (the source's system prompt is not what
 *  the target sends). */
export function inheritedFigures(
  original: Conversation,
  report: Pick<TokenReport, 'overhead' | 'reported' | 'inherited' | 'perMessage' | 'method'>,
  target: string,
): InheritedFigures {
  if (!sameAgent(original, target)) {
    const agent = resumableAgent(target);
    return agent ? { overhead: agent.resume.overheadEstimate } : {};
  }
  const window = report.reported?.usage.contextWindow ?? report.inherited?.window;
  // What the file holds but the new session leaves out (Claude Code's prompt_snapshot: the system
  // prompt and tools; the reminders it renders) is overhead of the new one until its agent answers.
  const resume = resumableAgent(target)?.resume;
  let leftOut = 0;
  original.messages.forEach((m, i) => {
    if (leftOutOfSession(m) && !resume?.carries?.(m)) leftOut += report.perMessage[i] ?? 0;
  });
  const overhead = Math.max(0, measuredOverhead(original, report, resume?.overheadFromFirstRequest)) + leftOut;
  return {
    ...(original.meta.model ? { model: original.meta.model } : {}),
    ...(overhead > 0 ? { overhead } : {}),
    ...(window ? { window } : {}),
  };
}

/** What the original's agent sends besides its messages: the report's overhead, or, for an agent
 *  whose later requests hold more than its file shows, what its first recorded request held besides
 *  the messages before it (when that figure is plausible). */
function measuredOverhead(original: Conversation, report: Pick<TokenReport, 'overhead' | 'perMessage' | 'method'>, fromFirst: boolean | undefined): number {
  const first = fromFirst ? original.meta.firstReportedUsage : undefined;
  const measured = first ? calibrateWith(original.messages, first, report.method, (i) => report.perMessage[i] ?? 0) : undefined;
  return !measured || measured.implausible ? report.overhead : measured.overhead;
}

/** Whether `target` is the agent whose session `original` is. */
export function sameAgent(original: Pick<Conversation, 'format'>, target: string): boolean {
  return agentOfFormat(original.format)?.id === target;
}

/** The folder a new session goes to: the asked one, else the original's when it exists here (a
 *  session recorded on another machine names a folder this one does not have), else the fallback.
 *  The recorded one is the transcript's word, so it is taken only as an absolute path without
 *  control characters (never relative to wherever this runs); the agent's writer then makes the
 *  file's place from it inside its own sessions folder. */
export async function sessionFolder(original: Conversation, opts: Pick<WriteSessionOptions, 'cwd' | 'fallbackCwd'>): Promise<string> {
  if (opts.cwd) return opts.cwd;
  const recorded = original.meta.cwd;
  if (recorded && isAbsolute(recorded) && !/[\u0000-\u001f\u007f]/.test(recorded) && (await statOf(recorded))?.isDirectory()) return resolve(recorded);
  return opts.fallbackCwd;
}

export async function writeCompactedSession(
  agentId: string,
  original: Conversation,
  result: CompactionResult,
  opts: WriteSessionOptions,
): Promise<WrittenSession> {
  const agent = resumableAgent(agentId);
  if (!agent) throw new Error(`${agentName(agentId)} does not resume a session from a file (targets: ${resumeTargets().join(', ')})`);
  const unavailable = await agent.resume.unavailable?.(opts.env);
  if (unavailable) throw new AgentUnavailableError(unavailable);
  const ctx: WriteContext = {
    env: opts.env,
    home: opts.home,
    cwd: await sessionFolder(original, opts),
    ...(opts.sourceFile ? { sourceFile: opts.sourceFile } : {}),
    now: opts.now ?? new Date(),
    newUuid: opts.newUuid ?? randomUUID,
    inherited: opts.inherited ?? {},
  };
  const session = agent.resume.sessionFile(original, result, ctx);
  if (!session) throw new NothingToWriteError('the compaction left the conversation as it was (no summary): there is nothing to resume from');
  const written: string[] = [];
  const removeWritten = () => Promise.all(written.map((f) => rm(f, { force: true })));
  try {
    for (const f of [{ file: session.file, text: session.text }, ...(session.companions ?? [])]) {
      await writeFileAtomic(f.file, f.text, { mode: SESSION_FILE_MODE, exclusive: true });
      written.push(f.file);
    }
  } catch (e) {
    await removeWritten();
    throw e;
  }
  const problem = readBackProblem(await agent.resume.readBack(session.file), result.conversation);
  if (problem) {
    await removeWritten();
    throw new ReadBackError(`${session.file} was written, but read back as ${agent.name} resumes it, ${problem}; the file was removed`);
  }
  let registered;
  try {
    registered = await agent.resume.register?.(session, ctx);
  } catch (e) {
    await rm(session.file, { force: true });
    throw new ReadBackError(`${agent.name} did not take the new session: ${(e as Error).message}; nothing was left behind`);
  }
  const { notes: more = [], listed = undefined } = Array.isArray(registered) ? { notes: registered } : (registered ?? {});
  const notes = [...session.notes, ...more];
  const resume = agent.resume.command(session.id);
  return { agent: agent.id, id: session.id, file: listed ?? session.file, cwd: ctx.cwd, resume, command: `cd ${shellQuote(ctx.cwd)} && ${resume}`, notes };
}
