// VS Code chat sessions (Copilot Chat) of the workspace, read-only: `workspaceStorage/<hash>/
// chatSessions/<id>.json` (older) and `<id>.jsonl` (the append log). Which <hash> is this workspace
// is written in `<hash>/workspace.json` ({"folder": "file:///…"}). A folder given that holds
// `chatSessions` itself (the extension passes its own workspace storage) needs no such check.

import { basename, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FoundSession } from '../../agentSession';
import { entriesOf, entryStatOf, mayBeSessionFile, readJsonFile, statOf } from '../../diskReads';
import { isInside } from '../../locations';
import type { SourceContext } from '../sourceContext';
import { isObject, str } from '../../../engine/conversation/importers/jsonShape';

export async function findCopilotChatSessions(ctx: SourceContext): Promise<FoundSession[]> {
  const out: FoundSession[] = [];
  for (const root of ctx.workspaceStorage) {
    ctx.signal?.throwIfAborted();
    if (await statOf(join(root, 'chatSessions'))) {
      out.push(...(await chatSessionsIn(join(root, 'chatSessions'))));
      continue;
    }
    for (const e of await entriesOf(root)) {
      if (!e.isDirectory()) continue;
      const folder = await workspaceFolder(join(root, e.name));
      if (!folder || !ctx.folders.some((f) => isInside(folder, f) && isInside(f, folder))) continue;
      out.push(...(await chatSessionsIn(join(root, e.name, 'chatSessions'), folder)));
    }
  }
  return out;
}

/** The folder a workspace storage belongs to, from its workspace.json (single-folder windows). */
async function workspaceFolder(dir: string): Promise<string | undefined> {
  const ws = await readJsonFile(join(dir, 'workspace.json'));
  const uri = isObject(ws) ? str(ws, 'folder') : undefined;
  if (!uri || !uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

async function chatSessionsIn(dir: string, cwd?: string): Promise<FoundSession[]> {
  const out: FoundSession[] = [];
  for (const e of await entriesOf(dir)) {
    const ext = extname(e.name);
    if (!mayBeSessionFile(e) || (ext !== '.json' && ext !== '.jsonl')) continue;
    const file = join(dir, e.name);
    const s = await entryStatOf(file);
    if (!s) continue;
    out.push({ agent: 'copilot-chat', id: basename(e.name, ext), file, format: 'copilot-chat', size: s.size, mtimeMs: s.mtimeMs, ...(cwd ? { cwd } : {}) });
  }
  return out;
}
