// aider's chat history of each workspace folder: `.aider.chat.history.md` at its root.

import { join } from 'node:path';
import type { FoundSession } from '../../agentSession';
import { entryStatOf } from '../../diskReads';
import type { SourceContext } from '../sourceContext';

export const AIDER_HISTORY_FILE = '.aider.chat.history.md';

export async function findAiderSessions(ctx: SourceContext): Promise<FoundSession[]> {
  const out: FoundSession[] = [];
  for (const folder of ctx.folders) {
    const file = join(folder, AIDER_HISTORY_FILE);
    const s = await entryStatOf(file);
    if (!s || s.isDirectory()) continue;
    out.push({ agent: 'aider', id: file, file, cwd: folder, format: 'aider', size: s.size, mtimeMs: s.mtimeMs });
  }
  return out;
}
