// What the Claude Code hook remembers between its runs, one small JSON file per session, and its
// log. Both live in a folder of our own — $XDG_STATE_HOME/context-compactor (default
// ~/.local/state/context-compactor), or --state-dir — never beside or inside the agent's files:
//
//   claude-code/<session id>.json   the session's compactions (time, trigger, tokens before,
//                                   the transcript's line count then), a repair waiting for the
//                                   next prompt, and the last repair made
//   claude-code/<id>.repair.json    that last repair in full: each fact missing from the summary,
//                                   put back (the line), held by another line, or left out
//   hook.log                        one line per run that did something or gave up, and why;
//                                   moved to hook.log.1 past LOG_MAX_BYTES
//
// A state file that cannot be read as ours is started afresh (and the log says so): the hook must
// never block a session over its own bookkeeping.

import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../node/atomicWrite';
import { readTextIfExists } from '../../node/readTextIfExists';
import type { Env } from '../locations';

export const STATE_VERSION = 1;
/** Compactions remembered per session (the loop guard needs only the last few minutes). */
export const MAX_REMEMBERED_COMPACTIONS = 50;
export const LOG_MAX_BYTES = 1024 * 1024;

export interface CompactionEntry {
  /** ISO 8601. */
  at: string;
  trigger: 'manual' | 'auto';
  /** Tokens of the live chain before it, by our counter (absent when it could not be counted). */
  tokens?: number;
  /** Lines the transcript had then: a boundary after them belongs to this compaction. */
  lines: number;
  /** The loop guard blocked it, and why (the reason Claude Code was given). */
  blocked?: boolean;
  reason?: string;
}

export interface PendingRepair {
  at: string;
  /** The boundary to repair comes after this line. */
  afterLine: number;
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

export function sessionStatePath(stateDir: string, session: string): string {
  return join(stateDir, 'claude-code', sessionFileName(session));
}

export function emptyState(session: string): SessionState {
  return { version: STATE_VERSION, session, compactions: [] };
}

function isEntry(v: unknown): v is CompactionEntry {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  return typeof e['at'] === 'string' && (e['trigger'] === 'manual' || e['trigger'] === 'auto') && typeof e['lines'] === 'number';
}

/** The session's state; a fresh one when there is none, or when what is there is not ours
 *  (`note` then says why). */
export async function readSessionState(stateDir: string, session: string): Promise<{ state: SessionState; note?: string }> {
  const path = sessionStatePath(stateDir, session);
  let text: string | undefined;
  try {
    text = await readTextIfExists(path);
  } catch (e) {
    return { state: emptyState(session), note: `${path} could not be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); started afresh` };
  }
  if (text === undefined) return { state: emptyState(session) };
  try {
    const v = JSON.parse(text) as Partial<SessionState>;
    if (v.version !== STATE_VERSION || !Array.isArray(v.compactions)) throw new Error('not a state file of this version');
    return { state: { ...emptyState(session), ...v, compactions: v.compactions.filter(isEntry), session } };
  } catch (e) {
    return { state: emptyState(session), note: `${path} is not a state file this version reads (${(e as Error).message}); started afresh` };
  }
}

export async function writeSessionState(stateDir: string, state: SessionState): Promise<void> {
  const trimmed: SessionState = { ...state, compactions: state.compactions.slice(-MAX_REMEMBERED_COMPACTIONS) };
  await writeFileAtomic(sessionStatePath(stateDir, state.session), `${JSON.stringify(trimmed, null, 2)}\n`);
}

/** The last repair of a session in full (what was missing, put back, left out), for whoever wants
 *  to know why the agent was told something: claude-code/<session id>.repair.json. */
export interface RepairDetails {
  session: string;
  at: string;
  boundary: string;
  summarizedMessages: number;
  facts: number;
  missing: number;
  tokens: number;
  lines: { category: string; line: string }[];
  covered: string[];
  omitted: string[];
  text: string;
}

export function repairDetailsPath(stateDir: string, session: string): string {
  return sessionStatePath(stateDir, session).replace(/\.json$/, '.repair.json');
}

export async function writeRepairDetails(stateDir: string, details: RepairDetails): Promise<void> {
  await writeFileAtomic(repairDetailsPath(stateDir, details.session), `${JSON.stringify(details, null, 2)}\n`);
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
