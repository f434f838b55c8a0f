// `ctxc hook copilot-cli`: GitHub Copilot CLI's hooks around its own compaction (hookSettings.ts
// installs it on preCompact and userPromptSubmitted). What the real Copilot CLI 1.0.102 does with
// hooks (verified offline):
// - The input names no event: preCompact gets {sessionId, timestamp, cwd, transcriptPath, trigger:
//   "manual" | "auto", customInstructions}; userPromptSubmitted {sessionId, timestamp, cwd, prompt}.
// - Nothing a preCompact hook prints or exits with stops the compaction ({"decision":"block"}, exit
//   1 and exit 2 were tried); with exit 2 Copilot shows the hook's stderr to the person.
// - userPromptSubmitted's {"additionalContext": X} is appended to that prompt as
//   `<system_reminder>X</system_reminder>`, sent, and kept in the session. (sessionStart's context is
//   sent at every start of the CLI but kept nowhere, and sessionStart does not run after a
//   compaction in a running session: the prompt is the place for a repair.)
//
//   preCompact           records the compaction (time, trigger, the events file's length, and its
//                        size as Copilot recorded it: the input of the last request, read from the
//                        file's end; Copilot's own preCompactionTokens replaces it once written). After `loopLimit` automatic
//                        compactions within `loopMinutes` it cannot stop the next one: it tells the
//                        person why the context keeps filling up (stderr, exit 2). It leaves a
//                        repair pending.
//   userPromptSubmitted  with a repair pending and that compaction complete in the events file: the
//                        must-keep facts of what it replaced that the summary (with the requests
//                        Copilot quotes) and the kept messages lack, within `maxTokens`, as the
//                        prompt's additionalContext. Without one it reads one small file and returns.
// State and log as the Claude Code hook keeps them (claudeHook/hookState.ts: changed under the
// session's lock), in a folder of this agent's own under the state folder; the log is the same
// hook.log. The events file is read as that hook reads its transcript (claudeHook/transcriptFile.ts:
// never following a pipe or a device, by byte offset, only what an event needs).

import { copilotRecordedInput, importCopilotCli } from '../../../engine/conversation/importers/copilotCli';
import { isObject, str } from '../../../engine/conversation/importers/jsonShape';
import { messageText, type Message } from '../../../engine/conversation/model';
import { createTokenCounter } from '../../../engine/tokens/messageCounter';
import { planFactRestore } from '../../../engine/validate/restoreFacts';
import { ERA_MAX_BYTES } from '../../claudeHook/eraFacts';
import { fmt } from '../../claudeHook/repair';
import { appendLog, readSessionState, updateSessionState, writeRepairDetails, type CompactionEntry, type SessionState } from '../../claudeHook/hookState';
import { parseLine, TranscriptFile } from '../../claudeHook/transcriptFile';
import { SESSION_MAX_BYTES } from '../../diskReads';
import type { HookRunner } from '../agent';

/** How long a compaction may take between its preCompact and the next prompt's check (a
 *  background compaction with a slow model takes minutes). */
const COMPACTION_MAX_MINUTES = 30;

type Event = 'preCompact' | 'userPromptSubmitted';
type Options = Parameters<HookRunner>[1];
type Outcome = Awaited<ReturnType<HookRunner>>;

interface HookInput {
  event: Event;
  session: string;
  transcript?: string;
  trigger: 'manual' | 'auto';
}

class HookInputError extends Error {}

function readInput(text: string): HookInput {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new HookInputError(`standard input is not JSON (${(e as Error).message}); expected Copilot CLI's hook input`);
  }
  if (!isObject(v)) throw new HookInputError("standard input is not a JSON object; expected Copilot CLI's hook input");
  const session = str(v, 'sessionId');
  if (!session) throw new HookInputError('sessionId is missing');
  const event: Event | undefined = typeof v['trigger'] === 'string' ? 'preCompact' : typeof v['prompt'] === 'string' ? 'userPromptSubmitted' : undefined;
  if (!event) throw new HookInputError('the input is neither preCompact (with trigger) nor userPromptSubmitted (with prompt): this hook handles those two');
  const transcript = str(v, 'transcriptPath');
  return { event, session, ...(transcript ? { transcript } : {}), trigger: v['trigger'] === 'auto' ? 'auto' : 'manual' };
}

/** Whose state this hook keeps: the folder of its files under the state folder. */
const AGENT = 'copilot-cli';

export const runCopilotCliHook: HookRunner = async (stdinText, opts) => {
  const now = (opts.now ?? (() => new Date()))();
  const log: string[] = [];
  let outcome: Outcome;
  try {
    const input = readInput(stdinText);
    const say = (msg: string) => log.push(`${now.toISOString()} copilot-cli ${input.session} ${input.event}: ${msg}`);
    outcome = input.event === 'preCompact' ? await preCompact(input, opts, now, say) : await userPromptSubmitted(input, opts, now, say);
  } catch (e) {
    const reason = e instanceof HookInputError ? e.message : `internal error: ${(e as Error).message}`;
    log.push(`${now.toISOString()} copilot-cli - input: ${reason}`);
    outcome = { message: `ctxc hook: ${reason}` };
  }
  await appendLog(opts.stateDir, log);
  return outcome;
};

/** The events file, opened; why not, when it cannot be (gone, a pipe, a device, a dangling link). */
async function openEvents(path: string | undefined, say: (msg: string) => void): Promise<TranscriptFile | string> {
  if (!path) return 'no events file is known for this session';
  const opened = await TranscriptFile.open(path);
  if (!opened.ok) return opened.reason;
  if (opened.file.note) say(opened.file.note);
  return opened.file;
}

const USAGE_MARK = Buffer.from('"session.usage_record"');
const COMPLETE_MARK = Buffer.from('"session.compaction_complete"');

/** The input of the last request Copilot recorded before the file's end, unless a compaction
 *  completed after it (its context is gone) or it lies further back than a run reads. */
async function recordedInput(file: TranscriptFile): Promise<number | undefined> {
  for await (const l of file.linesBackward()) {
    if (l.start < file.size - ERA_MAX_BYTES) return undefined;
    if (l.bytes.includes(COMPLETE_MARK) && completion(parseLine(l.bytes))?.success) return undefined;
    if (!l.bytes.includes(USAGE_MARK)) continue;
    const tokens = copilotRecordedInput(parseLine(l.bytes));
    if (tokens !== undefined) return tokens;
  }
  return undefined;
}

interface Completion {
  /** Byte offset of its line. */
  offset: number;
  id: string;
  success: boolean;
  /** Copilot's own count of the tokens before it. */
  preTokens?: number;
}

/** A `session.compaction_complete` event's facts (offset and id filled by the caller). */
function completion(v: Record<string, unknown> | undefined): (Omit<Completion, 'offset' | 'id'> & { id?: string }) | undefined {
  if (!v || v['type'] !== 'session.compaction_complete' || !isObject(v['data'])) return undefined;
  const d = v['data'];
  const outcome = str(d, 'outcome');
  const pre = d['preCompactionTokens'];
  return {
    success: d['success'] === true && (outcome === undefined || outcome === 'applied'),
    ...(str(d, 'compactionAttemptId') ? { id: str(d, 'compactionAttemptId') } : {}),
    ...(typeof pre === 'number' && Number.isFinite(pre) && pre > 0 ? { preTokens: Math.round(pre) } : {}),
  };
}

/** The first compaction the events file completes after byte `afterByte`, if any. */
async function completedAfter(file: TranscriptFile, afterByte: number): Promise<Completion | undefined> {
  const buf = await file.bytes(afterByte);
  for (let at = 0; at < buf.length;) {
    const nl = buf.indexOf(0x0a, at);
    // A line without its line break is still being written: not read yet.
    if (nl < 0) break;
    const line = buf.subarray(at, nl);
    const done = line.includes(COMPLETE_MARK) ? completion(parseLine(line)) : undefined;
    if (done) return { ...done, offset: afterByte + at, id: done.id ?? `byte ${afterByte + at}` };
    at = nl + 1;
  }
  return undefined;
}

const hhmm = (iso: string) => new Date(iso).toTimeString().slice(0, 5);

/** What the person is told when automatic compactions come faster than the guard lets through. */
export function copilotLoopWarning(recent: readonly CompactionEntry[], opts: Pick<Options, 'loopMinutes'>): string {
  return (
    `Context Compactor: this is automatic compaction number ${recent.length + 1} in ${opts.loopMinutes} minutes ` +
    `(the others at ${recent.map((c) => hhmm(c.at)).join(', ')}). The context fills up again as fast as it is compacted, ` +
    'so a large file or tool output is probably read back every turn. Copilot CLI does not let a hook stop a compaction: ' +
    'run /clear and start afresh, or ask for less output.'
  );
}

async function preCompact(input: HookInput, opts: Options, now: Date, say: (msg: string) => void): Promise<Outcome> {
  const file = await openEvents(input.transcript, say);
  let tokens: number | undefined;
  if (typeof file === 'string') say(`${file}; the compaction is recorded without its size`);
  else {
    try {
      tokens = await recordedInput(file);
    } catch (e) {
      // The loop guard must still count it.
      say(
        `${file.path} could not be read to its end (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); the compaction is recorded without its size`,
      );
    } finally {
      await file.close();
    }
  }
  const bytes = typeof file === 'string' ? 0 : file.size;
  const size = tokens !== undefined ? `${fmt(tokens)} tokens (the input Copilot recorded for its last request)` : 'a size the events file does not record';
  return updateSessionState(
    opts.stateDir,
    input.session,
    (state) => {
      if (input.transcript) state.transcript = input.transcript;
      const entry: CompactionEntry = {
        at: now.toISOString(),
        trigger: input.trigger,
        bytes,
        ...(tokens !== undefined ? { tokens, tokensFrom: 'usage' as const } : {}),
      };
      let outcome: Outcome = {};
      if (input.trigger === 'auto') {
        const since = now.getTime() - opts.loopMinutes * 60_000;
        const recent = state.compactions.filter((c) => c.trigger === 'auto' && new Date(c.at).getTime() > since);
        if (recent.length >= opts.loopLimit) {
          const reason = copilotLoopWarning(recent, opts);
          entry.reason = reason;
          say(`an automatic compaction loop (${size}): ${recent.length} already in the last ${opts.loopMinutes} minutes; the person is told`);
          outcome = { message: reason, exitCode: 2 };
        }
      }
      state.compactions.push(entry);
      state.pending = { at: entry.at, compaction: entry.at, eraStart: 0, afterByte: bytes };
      if (!outcome.message) say(`${input.trigger} compaction at ${size}`);
      return outcome;
    },
    say,
    AGENT,
  );
}

/** What a message shows a reader: its text and its tool calls. */
function readable(m: Message): string {
  return [messageText(m), ...(m.toolCalls ?? []).map((c) => `${c.name} ${c.arguments}`)].filter(Boolean).join('\n');
}

async function userPromptSubmitted(input: HookInput, opts: Options, now: Date, say: (msg: string) => void): Promise<Outcome> {
  // Without a repair pending, one small file is read and nothing is written.
  const { state: seen } = await readSessionState(opts.stateDir, input.session, AGENT);
  if (!seen.pending) return {};
  const made = await updateSessionState(
    opts.stateDir,
    input.session,
    async (state) => {
      const pending = state.pending;
      if (!pending) return '';
      const file = await openEvents(state.transcript, say);
      if (typeof file === 'string') {
        say(`${file}; the pending repair is dropped`);
        delete state.pending;
        return '';
      }
      try {
        return await repairIfComplete(file, pending, state, opts, now, say);
      } finally {
        await file.close();
      }
    },
    say,
    AGENT,
  );
  return made ? { output: { additionalContext: made } } : {};
}

/** The restore text once the pending compaction is complete ('' otherwise, or when its summary
 *  kept everything); the state says what became of the repair. */
async function repairIfComplete(
  file: TranscriptFile,
  pending: NonNullable<SessionState['pending']>,
  state: SessionState,
  opts: Options,
  now: Date,
  say: (msg: string) => void,
): Promise<string> {
  if (file.size < pending.afterByte) {
    say(
      `${file.path} is shorter (${fmt(file.size)} bytes) than at the compaction (${fmt(pending.afterByte)}): rewritten by something else; the pending repair is dropped`,
    );
    delete state.pending;
    return '';
  }
  const done = await completedAfter(file, pending.afterByte);
  if (!done) {
    if (now.getTime() - new Date(pending.at).getTime() > COMPACTION_MAX_MINUTES * 60_000) {
      say(`no compaction completed within ${COMPACTION_MAX_MINUTES} minutes of its preCompact; the pending repair is dropped`);
      delete state.pending;
    } else say('the compaction has not completed yet (it runs in the background); the repair waits for the next prompt');
    return '';
  }
  delete state.pending;
  // Copilot's own count of the size, now that its completion says it.
  const entry = state.compactions.find((e) => e.at === pending.compaction);
  if (entry && done.preTokens !== undefined) Object.assign(entry, { tokens: done.preTokens, tokensFrom: 'preTokens' });
  if (!done.success) {
    say(`the compaction at byte ${fmt(done.offset)} did not apply (cancelled or failed); nothing to repair`);
    return '';
  }
  if (done.id === state.repaired?.boundary) {
    say(`the compaction at byte ${fmt(done.offset)} was repaired already`);
    return '';
  }
  if (file.size > SESSION_MAX_BYTES) {
    say(`${file.path} is larger than ${SESSION_MAX_BYTES / 1024 / 1024} MB; the pending repair is dropped`);
    return '';
  }
  return repair(await file.text(0), file.path, done, state, opts, now, say);
}

/** The restore text for the compaction completed at `done` ('' when its summary kept everything). */
async function repair(
  text: string,
  path: string,
  done: Completion,
  state: SessionState,
  opts: Options,
  now: Date,
  say: (msg: string) => void,
): Promise<string> {
  const imported = importCopilotCli(text, { sourcePath: path });
  const live = imported.conversation.messages;
  const summaryAt = live.findIndex((m) => m.itemType === 'COMPACTION_SUMMARY');
  const summarized = imported.history?.conversation.messages ?? [];
  const contextText = (summaryAt >= 0 ? live.slice(summaryAt) : live).map(readable).join('\n\n');
  const counter = await createTokenCounter(imported.conversation.meta.model);
  const plan = planFactRestore(summarized, contextText, { maxTokens: opts.maxTokens, counter });
  state.repaired = {
    at: now.toISOString(),
    boundary: done.id,
    missing: plan.missing.length,
    restored: plan.restored.length + plan.covered.length,
    tokens: plan.tokens,
  };
  await writeRepairDetails(
    opts.stateDir,
    {
      session: state.session,
      at: state.repaired.at,
      boundary: done.id,
      ...(done.preTokens !== undefined ? { preTokens: done.preTokens } : {}),
      facts: plan.facts.length,
      missing: plan.missing.length,
      tokens: plan.tokens,
      lines: plan.restored.map((i) => ({ category: i.category, line: i.line })),
      covered: plan.covered.map((i) => i.fact.value),
      omitted: plan.omitted.map((i) => i.line),
      text: plan.text,
    },
    AGENT,
  );
  const size = done.preTokens !== undefined ? `, ${fmt(done.preTokens)} tokens before it (Copilot's preCompactionTokens)` : '';
  say(
    `compaction at byte ${fmt(done.offset)}${size}: ${plan.facts.length} must-keep facts in ${summarized.length} replaced messages, ` +
      `${plan.missing.length} missing from the summary, ${plan.restored.length + plan.covered.length} restored in ${fmt(plan.tokens)} tokens` +
      (plan.omitted.length > 0 ? `, ${plan.omitted.length} left out by the ${fmt(opts.maxTokens)}-token cap` : ''),
  );
  return plan.text;
}
