// After the import file is written and read back: opencode itself copies it into its database
// (`opencode import <file>`, run in the session's folder, which it records as the session's), then
// the session is read back from the database by opencode's rules and must send the summary and the
// last user turn the file does. Only opencode writes its database. Without `opencode` on the PATH
// nothing can be imported: that is said before anything is written (unavailable), and the caller
// offers the handoff instead.

import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { importTranscript } from '../../../engine/conversation/importers/detect';
import { writeFileAtomic } from '../../../files/atomicWrite';
import { programOnPath } from '../../../files/programOnPath';
import type { Env } from '../../locations';
import { statOf } from '../../diskReads';
import { readBackProblem, sentParts } from '../../readBack';
import type { Registered, SessionFile, WriteContext } from '../agent';
import { opencodeModel } from './model';
import { opencodeDatabases, readStoredSession, storedSessionPath, storedSessions } from './store';
import { MODEL_TO_CHOOSE } from './write';

/** An import took 6 s here; a slow disk or a first start may take longer, never this long. */
const IMPORT_TIMEOUT_MS = 120_000;
const READ_MAX_BYTES = 64 * 1024 * 1024;

/** Why no session can be written for opencode here, if none can. */
export async function opencodeUnavailable(env: Env): Promise<string | undefined> {
  return (await programOnPath('opencode', env))
    ? undefined
    : 'opencode is not on the PATH, so it cannot import the session (`opencode import`); put it on the PATH, or compact into a handoff instead';
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function runOpencode(bin: string, args: string[], cwd: string, env: Env): Promise<Run> {
  return new Promise((resolve) => {
    const childEnv = Object.fromEntries(Object.entries({ ...env, OPENCODE_DISABLE_AUTOUPDATE: '1' }).filter((e): e is [string, string] => e[1] !== undefined));
    const child = spawn(bin, args, { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], shell: /\.(?:cmd|bat)$/i.test(bin) });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, IMPORT_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: `${stderr}${e.message}`, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

const tail = (s: string) =>
  s
    .replace(/\u001b\[[0-9;]*m/g, '')
    .trim()
    .split('\n')
    .slice(-3)
    .join(' ')
    .slice(0, 300);

/** Imports the written file into opencode's database and reads it back there; throws, having taken
 *  out whatever got in, when opencode did not take it as written. The file is removed either way. */
export async function registerOpencodeSession(written: SessionFile, ctx: WriteContext): Promise<Registered> {
  const bin = await programOnPath('opencode', ctx.env);
  if (!bin) throw new Error((await opencodeUnavailable(ctx.env))!);
  if (!(await statOf(ctx.cwd))?.isDirectory()) {
    await rm(written.file, { force: true });
    throw new Error(`the session's folder ${ctx.cwd} does not exist here, and opencode imports a session into the folder it runs in`);
  }
  let imported = false;
  try {
    const notes = await chooseModel(written, ctx);
    const run = await runOpencode(bin, ['import', written.file, '--pure'], ctx.cwd, ctx.env);
    imported = true;
    const said = /Imported session: (\S+)/.exec(run.stdout)?.[1];
    if (run.timedOut) throw new Error(`opencode import did not finish within ${IMPORT_TIMEOUT_MS / 1000} s`);
    if (run.code !== 0 || said !== written.id)
      throw new Error(`opencode import ${run.code !== 0 ? `exited ${run.code}` : `imported ${said ?? 'nothing'}`}: ${tail(run.stderr || run.stdout)}`);
    const db = await databaseHolding(written.id, ctx);
    if (!db) throw new Error(`opencode import said it imported ${written.id}, but no opencode database holds it`);
    const listed = storedSessionPath(db, written.id);
    const stored = importTranscript(await readStoredSession(listed, READ_MAX_BYTES), { format: 'opencode', sourcePath: listed }).conversation;
    const expected = importTranscript(written.text, { format: 'opencode', sourcePath: written.file }).conversation;
    const problem =
      readBackProblem(sentParts(stored.messages), expected) ?? (stored.messages.length !== expected.messages.length ? 'some messages are missing' : undefined);
    if (problem) throw new Error(`read back from opencode's database, ${problem}`);
    return { notes, listed };
  } catch (e) {
    if (imported) await runOpencode(bin, ['session', 'delete', written.id, '--pure'], ctx.cwd, ctx.env).catch(() => undefined);
    throw e;
  } finally {
    await rm(written.file, { force: true });
  }
}

/** A session from another agent's names the model this person's opencode goes on with. */
async function chooseModel(written: SessionFile, ctx: WriteContext): Promise<string[]> {
  const value = JSON.parse(written.text) as { messages: { info: Record<string, unknown> }[] };
  const named = value.messages.find((m) => m.info['role'] === 'user')?.info['model'] as Record<string, unknown> | undefined;
  if (named?.['providerID'] !== MODEL_TO_CHOOSE.providerID) return [];
  const model = await opencodeModel(ctx.env, ctx.home, ctx.cwd);
  if (!model) throw new Error('opencode has no model to go on with: set `model` in its config (opencode.json), or use opencode once');
  for (const { info } of value.messages) {
    if (info['role'] === 'user') info['model'] = { ...model };
    else {
      info['providerID'] = model.providerID;
      info['modelID'] = model.modelID;
    }
  }
  written.text = `${JSON.stringify(value, null, 2)}\n`;
  await writeFileAtomic(written.file, written.text, { mode: 0o600 });
  return [`the session goes on with ${model.providerID}/${model.modelID}, the model opencode is set to use`];
}

async function databaseHolding(id: string, ctx: WriteContext): Promise<string | undefined> {
  for (const db of await opencodeDatabases(ctx.env, ctx.home)) {
    const sessions = await storedSessions(db).catch(() => []);
    if (sessions.some((s) => s.id === id)) return db;
  }
  return undefined;
}
