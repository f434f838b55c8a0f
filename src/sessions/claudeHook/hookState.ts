// What the Claude Code hook remembers between its runs, one small JSON file per session, and its
// log. Both live in a folder of our own — $XDG_STATE_HOME/context-compactor (default
// ~/.local/state/context-compactor), or --state-dir — never beside or inside the agent's files
// (another agent's hook keeps the same files in a folder named by its id, e.g. copilot-cli/):
//
//   claude-code/<session id>.json   the session's compactions (time, trigger, size before and
//                                   where it came from, the transcript's length then), a repair
//                                   waiting for the next prompt, the last repair made, and the
//                                   facts found so far: those of the conversation since the last
//                                   compact boundary (with the byte range they were read from, so
//                                   a later event does not read it again) and those of earlier
//                                   eras, carried on
//   claude-code/<session id>.lock   held while a run reads, changes and writes that file
//                                   (stateLock.ts): runs at once never lose each other's entries
//   claude-code/<id>.repair.json    the last repair in full: each fact missing from the summary,
//                                   put back (the line), held by another line, or left out
//   hook.log                        one line per run that did something or gave up, and why;
//                                   moved to hook.log.1 past LOG_MAX_BYTES
//
// A state file that cannot be read as ours is started afresh (and the log says so): the hook must
// never block a session over its own bookkeeping. A state file of version 1 keeps its compactions
// (the loop guard's memory) and nothing else.

import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RestoreItem } from '../../engine/validate/restoreFacts';
import { writeFileAtomic } from '../../files/atomicWrite';
import { readTextIfExists } from '../../files/readTextIfExists';
import type { Env } from '../locations';
import { withLock } from './stateLock';

export const STATE_VERSION = 2;
/** Compactions remembered per session (the loop guard needs only the last few minutes). */
export const MAX_REMEMBERED_COMPACTIONS = 200;
/** Facts of earlier eras carried on, at most (the oldest requests and files go first). */
export const MAX_CARRIED_FACTS = 400;
export const LOG_MAX_BYTES = 1024 * 1024;

/** Where a compaction's size comes from: the usage Claude Code recorded for the last request
 *  before it, or the boundary's own compactMetadata.preTokens. */
export type TokensFrom = 'usage' | 'preTokens';

export interface CompactionEntry {
  /** ISO 8601. */
  at: string;
  trigger: 'manual' | 'auto';
  /** Tokens before it, as Claude Code recorded them (absent when the file records none). */
  tokens?: number;
  tokensFrom?: TokensFrom;
  /** Bytes the transcript had then: a boundary after them belongs to this compaction. */
  bytes: number;
  /** The loop guard blocked it, and why (the reason Claude Code was given). */
  blocked?: boolean;
  reason?: string;
}

export interface PendingRepair {
  at: string;
  /** The compaction (its PreCompact entry's `at`), when PreCompact recorded it. */
  compaction?: string;
  /** Where the conversation the summary stands for begins (its compact boundary, or 0). */
  eraStart: number;
  /** The boundary to repair comes after this byte. */
  afterByte: number;
  /** What SessionStart put back before the summary could be read (the next request needed it). */
  unchecked?: { text: string; tokens: number; facts: number };
}

/** The must-keep facts of the conversation in the byte range [start, end) of the transcript
 *  (start: its compact boundary, or 0), as found by a run, for the runs after it. */
export interface EraFacts {
  start: number;
  end: number;
  items: RestoreItem[];
  /** The text of the messages after the last answer (a prompt waiting for it), if any. */
  waiting?: string;
  /** The era is longer than a run reads: `start` is a line within ERA_MAX_BYTES of `end`. */
  cut?: boolean;
  model?: string;
}

export interface RepairEntry {
  at: string;
  boundary: string;
  missing: number;
  restored: number;
  tokens: number;
}

export interface SessionState {
  version: number;
  session: string;
  transcript?: string;
  compactions: CompactionEntry[];
  pending?: PendingRepair;
  repaired?: RepairEntry;
  /** The facts of the current era found so far. */
  facts?: EraFacts;
  /** The facts of the eras before it (an earlier summary may have dropped them too). */
  carried?: RestoreItem[];
}

/** $XDG_STATE_HOME/context-compactor, else ~/.local/state/context-compactor. */
export function defaultStateDir(env: Env, home: string): string {
  return join(env['XDG_STATE_HOME'] || join(home, '.local', 'state'), 'context-compactor');
}

/** A session id as a file name: anything but letters, digits, '-' and '_' becomes '_' (ids come
 *  from the hook's input, which is not ours). */
export function sessionFileName(session: string): string {
  const safe = session.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 200);
  return `${safe || '_'}.json`;
}

/** The agent whose hook keeps the state: its id names the state's folder. */
const CLAUDE_CODE = 'claude-code';

export function sessionStatePath(stateDir: string, session: string, agent = CLAUDE_CODE): string {
  return join(stateDir, agent, sessionFileName(session));
}

export function sessionLockPath(stateDir: string, session: string, agent = CLAUDE_CODE): string {
  return sessionStatePath(stateDir, session, agent).replace(/\.json$/, '.lock');
}

export function emptyState(session: string): SessionState {
  return { version: STATE_VERSION, session, compactions: [] };
}

/** A compaction entry, from this version's state or version 1's (which counted lines, not bytes). */
function asEntry(v: unknown): CompactionEntry | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const e = v as Record<string, unknown>;
  if (typeof e['at'] !== 'string' || (e['trigger'] !== 'manual' && e['trigger'] !== 'auto')) return undefined;
  if (typeof e['bytes'] === 'number') return e as unknown as CompactionEntry;
  return { at: e['at'], trigger: e['trigger'], bytes: 0, ...(e['blocked'] === true ? { blocked: true } : {}) };
}

/** The session's state; a fresh one when there is none, or when what is there is not ours
 *  (`note` then says why). */
export async function readSessionState(stateDir: string, session: string, agent = CLAUDE_CODE): Promise<{ state: SessionState; note?: string }> {
  const path = sessionStatePath(stateDir, session, agent);
  let text: string | undefined;
  try {
    text = await readTextIfExists(path);
  } catch (e) {
    return { state: emptyState(session), note: `${path} could not be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); started afresh` };
  }
  if (text === undefined) return { state: emptyState(session) };
  try {
    const v = JSON.parse(text) as Partial<SessionState>;
    if ((v.version !== STATE_VERSION && v.version !== 1) || !Array.isArray(v.compactions)) throw new Error('not a state file of this version');
    const compactions = v.compactions.flatMap((e) => asEntry(e) ?? []);
    if (v.version === 1) return { state: { ...emptyState(session), compactions } };
    return { state: { ...emptyState(session), ...v, compactions, session } };
  } catch (e) {
    return { state: emptyState(session), note: `${path} is not a state file this version reads (${(e as Error).message}); started afresh` };
  }
}

export async function writeSessionState(stateDir: string, state: SessionState, agent = CLAUDE_CODE): Promise<void> {
  const trimmed: SessionState = { ...state, compactions: state.compactions.slice(-MAX_REMEMBERED_COMPACTIONS) };
  await writeFileAtomic(sessionStatePath(stateDir, state.session, agent), `${JSON.stringify(trimmed)}\n`);
}

/**
 * Reads the session's state, lets `change` change it, and writes it back, holding the session's
 * lock throughout, so runs at once each see the others' changes. `say` hears why the state was
 * started afresh or changed without the lock, when it was. `agent`: whose hook's state it is.
 */
export async function updateSessionState<T>(
  stateDir: string,
  session: string,
  change: (state: SessionState) => T | Promise<T>,
  say: (msg: string) => void,
  agent = CLAUDE_CODE,
): Promise<T> {
  const locked = await withLock(sessionLockPath(stateDir, session, agent), async () => {
    const { state, note } = await readSessionState(stateDir, session, agent);
    if (note) say(note);
    const value = await change(state);
    await writeSessionState(stateDir, state, agent);
    return value;
  });
  if (!locked.locked) say(`${locked.reason}; the state was changed without the lock`);
  return locked.value;
}

/** The last repair of a session in full (what was missing, put back, left out), for whoever wants
 *  to know why the agent was told something: claude-code/<session id>.repair.json. */
export interface RepairDetails {
  session: string;
  at: string;
  boundary: string;
  trigger?: string;
  /** Claude Code's count of the tokens before the compaction (compactMetadata.preTokens). */
  preTokens?: number;
  /** Must-keep facts of the conversation the summary stands for (earlier eras' included). */
  facts: number;
  /** Of those, the ones neither the summary nor the kept messages hold. */
  missing: number;
  /** Tokens put back in all (before the summary and against it). */
  tokens: number;
  /** Put back against the summary. */
  lines: { category: string; line: string }[];
  covered: string[];
  omitted: string[];
  text: string;
  /** Put back at SessionStart, before the summary was written. */
  unchecked?: { lines: { category: string; line: string }[]; tokens: number; text: string };
}

export function repairDetailsPath(stateDir: string, session: string, agent = CLAUDE_CODE): string {
  return sessionStatePath(stateDir, session, agent).replace(/\.json$/, '.repair.json');
}

export async function writeRepairDetails(stateDir: string, details: RepairDetails, agent = CLAUDE_CODE): Promise<void> {
  await writeFileAtomic(repairDetailsPath(stateDir, details.session, agent), `${JSON.stringify(details, null, 2)}\n`);
}

export function logPath(stateDir: string): string {
  return join(stateDir, 'hook.log');
}

/** Appends lines to the log (rotated past LOG_MAX_BYTES); a log that cannot be written is skipped. */
export async function appendLog(stateDir: string, lines: readonly string[]): Promise<void> {
  if (lines.length === 0) return;
  const path = logPath(stateDir);
  try {
    await mkdir(stateDir, { recursive: true });
    const size = (await stat(path).catch(() => undefined))?.size ?? 0;
    if (size > LOG_MAX_BYTES) await rename(path, `${path}.1`);
    await appendFile(path, lines.map((l) => `${l.replace(/[\r\n]+/g, ' ')}\n`).join(''));
  } catch {
    // Nothing to do: the log is a courtesy, the session must go on.
  }
}
