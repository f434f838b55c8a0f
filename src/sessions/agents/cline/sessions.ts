// Cline and Roo Code tasks of the workspace folders.
// - Cline ≤ 3 (VS Code extension saoudrizwan.claude-dev, and the same layout under Cline 4's
//   ~/.cline/data): `tasks/<id>/api_conversation_history.json`; which folder a task belongs to is
//   in `state/taskHistory.json` (`cwdOnTaskInitialization`, else `shadowGitConfigWorkTree`).
// - Roo Code (rooveterinaryinc.roo-cline): the same task files; its folder is in
//   `tasks/<id>/history_item.json` (`workspace`).
// - Cline CLI 3.x sessions: `<sessions>/<id>/<id>.json` (a manifest with `cwd` / `workspace_root`)
//   and its messages file (`messages_path`, else `<id>.messages.json`); one we wrote names the
//   session it came from in the manifest's metadata.
// A task whose folder is not recorded is not shown: nothing says it belongs to this workspace.

import { join } from 'node:path';
import type { AgentId, FoundSession } from '../../agentSession';
import { entriesOf, entryStatOf, readJsonFile } from '../../diskReads';
import { clineDataDir, clineSessionsDir, folderOf } from '../../locations';
import type { SourceContext } from '../sourceContext';
import { isObject, str } from '../../../engine/conversation/importers/jsonShape';
import { unwrapClineUserText } from '../../../engine/conversation/importers/clineCli';
import { CLINE_PROVENANCE_FIELD } from '../../../engine/conversation/exporters/clineCliSession';

export const CLINE_EXTENSION_ID = 'saoudrizwan.claude-dev';
export const ROO_EXTENSION_ID = 'rooveterinaryinc.roo-cline';
const HISTORY_FILE = 'api_conversation_history.json';
/** What Cline and Roo Code write that changes a listing: a task's messages and its folder. */
export const CLINE_TASK_FILES = '{tasks/*/api_conversation_history.json,tasks/*/history_item.json,state/taskHistory.json}';

interface TaskFacts {
  cwd?: string;
  title?: string;
}

export async function findClineSessions(ctx: SourceContext): Promise<FoundSession[]> {
  const roots = [...ctx.globalStorage.map((g) => join(g, CLINE_EXTENSION_ID)), clineDataDir(ctx.env, ctx.home)];
  const out: FoundSession[] = [];
  for (const root of roots) out.push(...(await tasksIn(root, 'cline', ctx)));
  out.push(...(await clineCliSessions(clineSessionsDir(ctx.env, ctx.home), ctx)));
  return out;
}

export async function findRooSessions(ctx: SourceContext): Promise<FoundSession[]> {
  const out: FoundSession[] = [];
  for (const g of ctx.globalStorage) out.push(...(await tasksIn(join(g, ROO_EXTENSION_ID), 'roo-code', ctx)));
  return out;
}

async function tasksIn(root: string, agent: AgentId, ctx: SourceContext): Promise<FoundSession[]> {
  const tasks = await entriesOf(join(root, 'tasks'));
  if (tasks.length === 0) return [];
  const index = await taskIndex(root);
  const out: FoundSession[] = [];
  for (const t of tasks) {
    if (!t.isDirectory()) continue;
    ctx.signal?.throwIfAborted();
    const dir = join(root, 'tasks', t.name);
    const facts = { ...index.get(t.name), ...(await historyItem(dir)) };
    if (!folderOf(facts.cwd, ctx.folders)) continue;
    const file = join(dir, HISTORY_FILE);
    const s = await entryStatOf(file);
    if (!s || s.isDirectory()) continue;
    out.push({
      agent,
      id: t.name,
      file,
      // The extension's tasks: it cannot resume one from a file (a compaction is a handoff).
      resumable: false,
      size: s.size,
      mtimeMs: s.mtimeMs,
      ...(facts.cwd ? { cwd: facts.cwd } : {}),
      ...(facts.title ? { title: facts.title } : {}),
    });
  }
  return out;
}

/** Cline's task index: state/taskHistory.json, a list of {id, task, cwdOnTaskInitialization, …}. */
async function taskIndex(root: string): Promise<Map<string, TaskFacts>> {
  const map = new Map<string, TaskFacts>();
  const list = await readJsonFile(join(root, 'state', 'taskHistory.json'));
  for (const item of Array.isArray(list) ? list : []) {
    if (!isObject(item)) continue;
    const id = str(item, 'id');
    if (!id) continue;
    const cwd = str(item, 'cwdOnTaskInitialization') ?? str(item, 'shadowGitConfigWorkTree');
    const title = str(item, 'task');
    map.set(id, { ...(cwd ? { cwd } : {}), ...(title ? { title } : {}) });
  }
  return map;
}

/** Roo Code's per-task history_item.json: {id, task, workspace, …}. */
async function historyItem(dir: string): Promise<TaskFacts> {
  const item = await readJsonFile(join(dir, 'history_item.json'));
  if (!isObject(item)) return {};
  const cwd = str(item, 'workspace') ?? str(item, 'cwdOnTaskInitialization');
  const title = str(item, 'task');
  return { ...(cwd ? { cwd } : {}), ...(title ? { title } : {}) };
}

async function clineCliSessions(dir: string, ctx: SourceContext): Promise<FoundSession[]> {
  const out: FoundSession[] = [];
  for (const e of await entriesOf(dir)) {
    if (!e.isDirectory()) continue;
    ctx.signal?.throwIfAborted();
    const manifest = await readJsonFile(join(dir, e.name, `${e.name}.json`));
    if (!isObject(manifest)) continue;
    const cwd = str(manifest, 'cwd') ?? str(manifest, 'workspace_root');
    if (!folderOf(cwd, ctx.folders)) continue;
    const file = str(manifest, 'messages_path') ?? join(dir, e.name, `${e.name}.messages.json`);
    const s = await entryStatOf(file);
    if (!s || s.isDirectory()) continue;
    const meta = isObject(manifest['metadata']) ? manifest['metadata'] : {};
    const title = str(meta, 'title') ?? str(manifest, 'prompt');
    const from = meta[CLINE_PROVENANCE_FIELD];
    const parent = isObject(from) ? str(from, 'sessionId') : undefined;
    out.push({
      agent: 'cline',
      id: str(manifest, 'session_id') ?? e.name,
      file,
      format: 'cline',
      size: s.size,
      mtimeMs: s.mtimeMs,
      ...(cwd ? { cwd } : {}),
      ...(title ? { title: unwrapClineUserText(title) } : {}),
      ...(parent ? { parent, relation: 'compacted' as const } : {}),
    });
  }
  return out;
}
