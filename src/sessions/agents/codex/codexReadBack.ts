// A rollout we wrote, read back by Codex's own rules before it counts as written (the registry's
// readBack: writeSession.ts then checks that the summary and the last user turn are the
// compaction's). Codex finds a thread by the id in the file's name and in its first line, the
// session_meta; skips a line without a timestamp; numbers the lines (`ordinal`); takes the title
// from a user_message event, without which a Codex that keeps no index leaves the rollout out of
// `resume --last`; and replays the lines — a `compacted` line's replacement_history replaces what
// came before, which the importer replays the same way — so what it sends after its own header
// must start with the summary.

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { importCodex } from '../../../engine/conversation/importers/codex';
import { isHeaderItem } from '../../../engine/conversation/model';
import { sentParts } from '../../readBack';
import type { ReadBack } from '../agent';

const ID_IN_NAME = /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export async function readBackCodexRollout(file: string): Promise<ReadBack> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return { problem: `it cannot be read (${(e as Error).message})` };
  }
  const problem = structureProblem(file, text);
  if (problem) return { problem };
  const sent = importCodex(text, { sourcePath: file }).conversation.messages;
  const first = sent.find((m) => !isHeaderItem(m));
  if (first?.itemType !== 'COMPACTION_SUMMARY') return { problem: 'Codex would not send the summary first (its replacement history starts otherwise)' };
  return sentParts(sent);
}

/** Why Codex would not find or replay the file as a thread, if it would not. */
function structureProblem(file: string, text: string): string | undefined {
  const lines: Record<string, unknown>[] = [];
  for (const [i, l] of text.split('\n').entries()) {
    if (l === '') continue;
    try {
      lines.push(JSON.parse(l) as Record<string, unknown>);
    } catch {
      return `line ${i + 1} is not JSON`;
    }
  }
  const bad = lines.findIndex((l, i) => typeof l['timestamp'] !== 'string' || l['ordinal'] !== i);
  if (bad >= 0) return `line ${bad + 1} lacks its timestamp or its ordinal (Codex skips a line without a timestamp)`;
  const id = ID_IN_NAME.exec(basename(file))?.[1];
  if (!id) return 'its name does not end with a thread id (Codex finds threads by it)';
  const meta = lines[0]?.['type'] === 'session_meta' ? (lines[0]['payload'] as Record<string, unknown> | undefined) : undefined;
  if (meta?.['id'] !== id) return `its first line is not the session_meta of thread ${id}`;
  const payloads = lines.map((l) => (l['type'] === 'event_msg' ? (l['payload'] as Record<string, unknown> | undefined) : undefined));
  if (!payloads.some((p) => p?.['type'] === 'user_message')) return 'it has no user_message event (Codex takes the thread’s title from it)';
  return undefined;
}
