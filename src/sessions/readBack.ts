// Every session written for an agent is read back before success is reported: the file is read
// with the agent's own resume rules (our importer of its format models exactly what it sends: the
// Claude Code chain cut at the last compact boundary, a Codex rollout replayed through its
// `compacted` line) and must send the summary and the last user turn of the compaction. If it does
// not, the new file is removed and the reason is said.

import { readFile } from 'node:fs/promises';
import { importTranscript } from '../engine/conversation/importers/detect';
import { isUserAuthored, messageText, type Conversation, type Message, type SourceFormat } from '../engine/conversation/model';
import { isTranscriptError } from '../engine/conversation/importers/transcriptError';
import type { ReadBack } from './agents/agent';

/** What a file sends when its agent resumes it, read with our importer of `format`. */
export async function readBackAs(format: SourceFormat, file: string): Promise<ReadBack> {
  let conversation: Conversation;
  try {
    conversation = importTranscript(await readFile(file, 'utf8'), { format, sourcePath: file }).conversation;
  } catch (e) {
    if (isTranscriptError(e)) return { problem: `it does not read as a ${format} session (${e.message})` };
    throw e;
  }
  return sentParts(conversation.messages);
}

/** The summary and the last user turn among the messages an agent sends. */
export function sentParts(messages: readonly Message[]): ReadBack {
  const summary = [...messages].reverse().find((m) => m.itemType === 'COMPACTION_SUMMARY');
  const lastUser = [...messages].reverse().find((m) => isUserAuthored(m) && messageText(m).trim() !== '');
  return {
    ...(summary ? { summary: messageText(summary) } : {}),
    ...(lastUser ? { lastUserTurn: messageText(lastUser) } : {}),
  };
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Why what the agent will send is not the compaction's summary and last user turn, if it is not. */
export function readBackProblem(got: ReadBack, expected: Conversation): string | undefined {
  if (got.problem) return got.problem;
  const want = sentParts(expected.messages);
  if (!got.summary) return 'the agent would not send the summary';
  // The agent may introduce the summary in its own words: the summary itself must be there, whole.
  if (want.summary && !squash(got.summary).includes(squash(want.summary))) return 'the agent would send another summary than the compaction made';
  if (want.lastUserTurn !== undefined && want.lastUserTurn !== want.summary) {
    if (got.lastUserTurn === undefined) return 'the agent would not send the last user turn';
    if (squash(got.lastUserTurn) !== squash(want.lastUserTurn)) return 'the agent would send another last user turn than the conversation had';
  }
  return undefined;
}
