// `ctxc hook qwen-code`: Qwen Code's PreCompact hook. Qwen Code (0.24) puts a PreCompact hook's
// `hookSpecificOutput.additionalContext` into the prompt of its own summariser, under "Additional
// Instructions:" — before it summarises, so the facts it must keep can be given then, not repaired
// after. It keeps at most 4,000 characters of it, with `<` and `>` escaped.
//
//   PreCompact   reads the session (transcript_path) as Qwen Code sends it, and answers the
//                must-keep facts of that conversation (engine/validate/restoreFacts.ts: standing
//                instructions, open tasks, errors, requests, files), most important first, within
//                --max-tokens and Qwen Code's 4,000 characters. Each compaction is recorded in the
//                hook's state (claudeHook/hookState.ts, by session id, under its lock).
//   the loop guard: Qwen Code does not let a PreCompact hook stop a compaction (only its
//                additionalContext is read), so past --loop-limit automatic compactions within
//                --loop-minutes the hook stops adding facts — they lengthen every summary, which
//                feeds a loop — and says why (stderr, its log, and `systemMessage`).
// Bad input never stops Qwen Code: no output, one line on stderr, the reason in the log, exit 0.

import { readFile, stat } from 'node:fs/promises';
import { importQwenCode } from '../../../engine/conversation/importers/qwenCode';
import { createTokenCounter } from '../../../engine/tokens/messageCounter';
import { planFactRestore, renderRestore, RESTORE_LEAD, type RestoreItem } from '../../../engine/validate/restoreFacts';
import { decodeTranscript } from '../../../files/decodeText';
import { appendLog, updateSessionState, type CompactionEntry } from '../../claudeHook/hookState';
import { SESSION_MAX_BYTES } from '../../diskReads';
import type { HookRunner } from '../agent';

/** The most of a PreCompact hook's additionalContext Qwen Code keeps, after escaping `<` and `>`. */
export const QWEN_HOOK_CONTEXT_CHARS = 4000;
/** How the facts open: read by Qwen Code's summariser as an instruction. */
export const QWEN_FACTS_LEAD =
  'Context Compactor: keep each of these facts of the conversation in the summary. They are taken from the session transcript (quoted as data, newest first):';

class HookInputError extends Error {}

interface QwenHookInput {
  session: string;
  transcript?: string;
  trigger: 'manual' | 'auto';
}

function readInput(text: string): QwenHookInput {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new HookInputError(`standard input is not JSON (${(e as Error).message}); expected Qwen Code's hook input`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new HookInputError("standard input is not a JSON object; expected Qwen Code's hook input");
  const o = v as Record<string, unknown>;
  const event = o['hook_event_name'];
  if (event !== 'PreCompact')
    throw new HookInputError(`hook_event_name ${typeof event === 'string' ? `'${event.slice(0, 60)}'` : 'is missing'}: this hook handles PreCompact`);
  const session = o['session_id'];
  if (typeof session !== 'string' || session === '') throw new HookInputError('session_id is missing');
  const transcript = typeof o['transcript_path'] === 'string' && o['transcript_path'] !== '' ? o['transcript_path'] : undefined;
  return { session, ...(transcript ? { transcript } : {}), trigger: o['trigger'] === 'auto' ? 'auto' : 'manual' };
}

/** Length once Qwen Code has escaped `<` and `>` (each becomes four more characters). */
export function escapedLength(text: string): number {
  let n = text.length;
  for (const c of text) if (c === '<' || c === '>') n += 3;
  return n;
}

/** The facts' text within Qwen Code's limit: the least important lines go first. */
export function factsText(restored: readonly RestoreItem[]): string {
  const items = [...restored];
  for (;;) {
    const text = items.length === 0 ? '' : renderRestore(items).replace(RESTORE_LEAD, QWEN_FACTS_LEAD);
    if (escapedLength(text) <= QWEN_HOOK_CONTEXT_CHARS) return text;
    items.pop();
  }
}

async function transcriptText(path: string | undefined): Promise<{ text?: string; bytes?: number; reason?: string }> {
  if (!path) return { reason: 'the input names no transcript_path' };
  try {
    const s = await stat(path);
    if (!s.isFile()) return { reason: `${path} is not a file` };
    if (s.size > SESSION_MAX_BYTES) return { reason: `${path} is larger than ${SESSION_MAX_BYTES / 1024 / 1024} MB` };
    const buf = await readFile(path);
    return { text: decodeTranscript(buf, path), bytes: buf.length };
  } catch (e) {
    return { reason: `${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
}

const hhmm = (iso: string) => new Date(iso).toTimeString().slice(0, 5);

export const runQwenCodeHook: HookRunner = async (stdinText, opts) => {
  const now = (opts.now ?? (() => new Date()))();
  const log: string[] = [];
  let session = '-';
  const say = (msg: string) => log.push(`${now.toISOString()} ${session} PreCompact (Qwen Code): ${msg}`);
  let outcome: { output?: Record<string, unknown>; message?: string } = {};
  try {
    const input = readInput(stdinText);
    session = input.session;
    const read = await transcriptText(input.transcript);
    // The loop guard's record, under the session's lock (runs at once never lose an entry).
    const held = await updateSessionState(
      opts.stateDir,
      input.session,
      (state) => {
        if (input.transcript) state.transcript = input.transcript;
        const entry: CompactionEntry = { at: now.toISOString(), trigger: input.trigger, bytes: read.bytes ?? 0 };
        const since = now.getTime() - opts.loopMinutes * 60_000;
        const recent = state.compactions.filter((c) => c.trigger === 'auto' && new Date(c.at).getTime() > since);
        if (input.trigger !== 'auto' || recent.length < opts.loopLimit) {
          state.compactions.push(entry);
          return undefined;
        }
        const reason =
          `Context Compactor: this is automatic compaction number ${recent.length + 1} of this Qwen Code session within ${opts.loopMinutes} minutes ` +
          `(the others at ${recent.map((c) => hhmm(c.at)).join(', ')}): the context fills up again as fast as it is compacted, so a large file or ` +
          'tool output is probably read back every turn. A hook cannot stop Qwen Code compacting: the facts are left out of this summary to keep it ' +
          'short. Run /compress yourself, or /clear and start afresh.';
        state.compactions.push({ ...entry, reason });
        say(`${recent.length} automatic compaction${recent.length === 1 ? '' : 's'} already in the last ${opts.loopMinutes} minutes: no facts added`);
        return reason;
      },
      say,
    );
    if (held) {
      outcome = { output: { systemMessage: held }, message: held };
    } else if (read.text === undefined) {
      say(`${read.reason}; no facts added`);
      outcome = { message: `ctxc hook: ${read.reason}; no facts added` };
    } else {
      const { conversation } = importQwenCode(read.text, { sourcePath: input.transcript! });
      const counter = await createTokenCounter(conversation.meta.model);
      const plan = planFactRestore(conversation.messages, '', { maxTokens: opts.maxTokens, counter });
      const text = factsText(plan.restored);
      const given = text === '' ? 0 : plan.restored.filter((i) => text.includes(i.line)).length;
      say(`${input.trigger} compaction: ${plan.facts.length} must-keep facts in ${conversation.messages.length} messages, ${given} given to the summariser`);
      if (text !== '') outcome = { output: { hookSpecificOutput: { hookEventName: 'PreCompact', additionalContext: text } } };
    }
  } catch (e) {
    const reason = e instanceof HookInputError ? e.message : `internal error: ${(e as Error).message}`;
    say(reason);
    outcome = { message: `ctxc hook: ${reason}` };
  }
  await appendLog(opts.stateDir, log);
  return outcome;
};
