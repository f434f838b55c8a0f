// Gemini CLI sessions of the workspace folders: `session-*.jsonl` (and the older `session-*.json`)
// in the chats folder of each project whose folder is in the workspace (projects.ts), and a
// sub-agent's `chats/<parent session id>/<id>.jsonl` under its session. Listed as Gemini CLI lists
// them (`--list-sessions`): a file with no message it would resume is left out — a resume in a
// later minute than the session began leaves such a file beside the real one, holding only a header
// and the session context — and of files with the same session id the newest. The session id is the
// header's (what `gemini -r <id>` takes). A session we wrote names the one it came from in its header.

import { basename, join } from 'node:path';
import type { FoundSession } from '../../agentSession';
import { entriesOf, headLines, statOf } from '../../diskReads';
import type { SourceContext } from '../sourceContext';
import { GEMINI_NOT_RESUMED, looksLikeGeminiSessionHeader } from '../../../engine/conversation/importers/geminiCli';
import { partsText } from '../../../engine/conversation/importers/geminiParts';
import { arr, isObject, str, type JsonObject } from '../../../engine/conversation/importers/jsonShape';
import { GEMINI_PROVENANCE_FIELD } from '../../../engine/conversation/exporters/geminiSession';
import { geminiProjectsOf, geminiTmpDir } from './projects';

const SESSION_FILE = /^session-.*\.jsonl?$/;
/** Files up to this size are read whole to tell whether they hold a conversation; larger ones do. */
const SMALL_FILE_BYTES = 256 * 1024;

export async function findGeminiSessions(ctx: SourceContext): Promise<FoundSession[]> {
  const tmp = geminiTmpDir(ctx.env, ctx.home);
  const newest = new Map<string, FoundSession>();
  const children: FoundSession[] = [];
  for (const project of await geminiProjectsOf(ctx.env, ctx.home, ctx.folders)) {
    ctx.signal?.throwIfAborted();
    const chats = join(tmp, project.name, 'chats');
    for (const e of await entriesOf(chats)) {
      const path = join(chats, e.name);
      if (e.isFile() && SESSION_FILE.test(e.name)) {
        const found = await sessionFile(path, project.root);
        const same = found && newest.get(found.id);
        if (found && (!same || same.mtimeMs < found.mtimeMs)) newest.set(found.id, found);
      } else if (e.isDirectory()) {
        for (const s of await entriesOf(path)) {
          if (!s.isFile() || !s.name.endsWith('.jsonl')) continue;
          const found = await sessionFile(join(path, s.name), project.root);
          if (found) children.push({ ...found, parent: e.name, relation: 'subagent' });
        }
      }
    }
  }
  return [...newest.values(), ...children];
}

async function sessionFile(file: string, root: string): Promise<FoundSession | undefined> {
  const s = await statOf(file);
  if (!s) return undefined;
  const lines = await headLines(file, s.size <= SMALL_FILE_BYTES ? s.size + 1 : 64 * 1024);
  const header = lines.find(looksLikeGeminiSessionHeader) as JsonObject | undefined;
  // A file being created (empty) is listed; one that is whole and holds nothing to resume is not.
  if (s.size > 0 && s.size <= SMALL_FILE_BYTES && !lines.some(holdsConversation)) return undefined;
  const from = header ? header[GEMINI_PROVENANCE_FIELD] : undefined;
  const parent = isObject(from) ? str(from, 'from') : undefined;
  return {
    agent: 'gemini-cli',
    id: (header && str(header, 'sessionId')) ?? basename(file).replace(/\.jsonl?$/, ''),
    file,
    format: 'gemini-cli',
    size: s.size,
    mtimeMs: s.mtimeMs,
    cwd: root,
    ...(parent ? { parent, relation: 'compacted' as const } : {}),
  };
}

/** A line holding a message Gemini CLI resumes: a user message it does not drop, or a model message
 *  with content or tool calls (in a record of its own, a `$set` of messages, or a document). */
function holdsConversation(line: unknown): boolean {
  if (!isObject(line)) return false;
  const list = arr(line, 'messages') ?? (isObject(line['$set']) ? arr(line['$set'], 'messages') : undefined);
  if (list) return list.some(resumable);
  return resumable(line);
}

function resumable(m: unknown): boolean {
  if (!isObject(m) || typeof m['id'] !== 'string') return false;
  const text = partsText(m['content']).trim();
  if (m['type'] === 'user') return text !== '' && !GEMINI_NOT_RESUMED.test(text);
  return m['type'] === 'gemini' && (text !== '' || (arr(m, 'toolCalls')?.length ?? 0) > 0 || (arr(m, 'thoughts')?.length ?? 0) > 0);
}
