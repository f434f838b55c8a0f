// Reading back a rollout we wrote, by Codex's own rules, before saying it was written: Codex finds
// a thread by the id in the file's name and in its session_meta, replays the lines (a `compacted`
// line's replacement_history replaces what came before; codex.ts replays them the same way), skips
// a line without a timestamp, takes the thread's title from a user_message event, and lists the
// thread from its index row. The rollout is good only when what Codex will send holds the summary
// as written and the person's last turn verbatim, and, when we indexed it, the index row points at
// this file as the same thread.

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { importCodex } from '../../../engine/conversation/importers/codex';
import { isHeaderItem, isUserAuthored, messageText, type Message } from '../../../engine/conversation/model';
import { codexIndexRow, type IndexAccess } from './codexIndex';

export interface CodexReadBackExpected {
  /** The thread id: the file's name and its session_meta carry it. */
  id: string;
  /** The summary as the first thing Codex sends after its own header (the replacement history's
   *  first message). */
  summary: string;
  /** The person's last turn, which Codex must send verbatim; undefined when the conversation has none. */
  lastUserTurn?: string;
}

export interface CodexReadBackOptions {
  /** Where Codex's index is; with `indexed`, our row there is checked too. */
  codexHome?: string;
  indexed?: boolean;
  access?: IndexAccess;
}

export type CodexReadBack =
  | {
      ok: true;
      /** What Codex will send on resume, as our importer replays it. */
      messages: Message[];
    }
  | { ok: false; reason: string };

export async function readBackCodexRollout(file: string, expected: CodexReadBackExpected, opts: CodexReadBackOptions = {}): Promise<CodexReadBack> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return { ok: false, reason: `it cannot be read back (${(e as Error).message})` };
  }
  const lines: Record<string, unknown>[] = [];
  for (const [i, l] of text.split('\n').entries()) {
    if (l === '') continue;
    try {
      lines.push(JSON.parse(l) as Record<string, unknown>);
    } catch {
      return { ok: false, reason: `line ${i + 1} is not JSON` };
    }
  }
  const bad = lines.findIndex((l, i) => typeof l['timestamp'] !== 'string' || l['ordinal'] !== i);
  if (bad >= 0) return { ok: false, reason: `line ${bad + 1} lacks its timestamp or ordinal (Codex skips such a line)` };
  const meta = lines[0]?.['type'] === 'session_meta' ? (lines[0]['payload'] as Record<string, unknown> | undefined) : undefined;
  if (!meta || meta['id'] !== expected.id) return { ok: false, reason: `its first line is not the session_meta of thread ${expected.id}` };
  if (!basename(file).endsWith(`-${expected.id}.jsonl`)) return { ok: false, reason: `its name does not end with the thread id (Codex finds threads by it)` };
  if (!lines.some((l) => l['type'] === 'event_msg' && (l['payload'] as Record<string, unknown> | undefined)?.['type'] === 'user_message'))
    return { ok: false, reason: 'it has no user_message event (Codex takes the title from it, and an older Codex lists no rollout without one)' };

  const { conversation } = importCodex(text, { sourcePath: file });
  const sent = conversation.messages.filter((m) => !isHeaderItem(m));
  const first = sent[0];
  if (!first || first.itemType !== 'COMPACTION_SUMMARY' || messageText(first) !== expected.summary)
    return { ok: false, reason: 'Codex would not send the summary as written first (its replacement history starts otherwise)' };
  if (expected.lastUserTurn !== undefined && expected.lastUserTurn.trim() !== '') {
    const last = [...sent].reverse().find(isUserAuthored);
    if (!last || last === first || !messageText(last).includes(expected.lastUserTurn.trim()))
      return { ok: false, reason: 'the last user turn is not among what Codex would send, verbatim' };
  }
  if (opts.indexed && opts.codexHome) {
    const row = await codexIndexRow(opts.codexHome, expected.id, opts.access ?? { env: {} });
    if (!row) return { ok: false, reason: "its row is not in Codex's index" };
    if (row['rollout_path'] !== file || row['cwd'] !== meta['cwd'] || row['source'] !== meta['source'] || row['archived'] !== 0)
      return { ok: false, reason: "its row in Codex's index does not describe this file (path, folder, source or archived differ)" };
  }
  return { ok: true, messages: conversation.messages };
}
