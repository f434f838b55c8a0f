// `ctxc hook claude-code`: Claude Code's hooks around its own compaction, one command for every
// event it is installed on. Input: the event's JSON on stdin. Output: at most one JSON object on
// stdout, and exit 0 — always: only the loop guard blocks, on purpose, with the top-level
// `{"decision":"block","reason":…}` Claude Code documents for PreCompact (2.1.328 honours it and
// prints the reason). Bad input never blocks a session: no output, one line on stderr (Claude
// Code records stderr of a run that exits 0 as a success and does not send it to the model), and
// the reason in the log.
//
// Each run reads only what its event needs: Claude Code starts the hook for every event and waits
// for it, so a run that read a long session whole would hold the person up at every compaction.
//
//   PreCompact         records the compaction: time, trigger, its size as Claude Code recorded it
//                      (the usage of the last request, read from the file's end) and the file's
//                      length then; after `loopLimit` automatic compactions within `loopMinutes`,
//                      blocks the next automatic one. A manual /compact is the person's choice:
//                      never blocked, never counted.
//   SessionStart       (source "compact"): the must-keep facts of the conversation since the last
//                      compact boundary — what the summary stands for — read once and kept in the
//                      state. Every tested Claude Code writes the boundary and the summary after
//                      this hook returns, so the summary cannot be read yet: after an automatic
//                      compaction, whose next request follows at once, the facts go back now
//                      (unchecked, repair.ts); after a manual one the repair waits for the next
//                      prompt. A CLI that writes the summary first is repaired against it at once.
//   UserPromptSubmit   … with a repair pending, reads what was written since (the boundary, the
//                      summary found through the chain, the messages kept verbatim) and puts back
//                      the facts none of them holds, nor the unchecked restore. Without one it
//                      reads one small file and returns.

import type { RestoreItem } from '../../engine/validate/restoreFacts';
import type { AgentHookSettings } from '../agents/agent';
import { carryOn, ERA_MAX_BYTES, readEraFacts, recordedUsage } from './eraFacts';
import {
  appendLog,
  readSessionState,
  updateSessionState,
  writeRepairDetails,
  type CompactionEntry,
  type EraFacts,
  type PendingRepair,
  type SessionState,
} from './hookState';
import { checkedRepair, fmt, repairDetails, uncheckedRestore, type CheckedRepair } from './repair';
import { TranscriptFile } from './transcriptFile';

export type HookSettings = AgentHookSettings;

export const HOOK_DEFAULTS: Readonly<HookSettings> = { maxTokens: 2000, loopLimit: 3, loopMinutes: 10 };

export interface HookRunOptions extends HookSettings {
  stateDir: string;
  now?: () => Date;
  /** Standard input was still open after this many milliseconds: the input is what came by then. */
  inputDeadlineMs?: number;
}

export interface HookOutcome {
  /** The JSON object to print on stdout, if any. */
  output?: Record<string, unknown>;
  /** One line for stderr, if any (a reason the hook did nothing). */
  message?: string;
}

const EVENTS = ['PreCompact', 'SessionStart', 'UserPromptSubmit'] as const;
type HookEvent = (typeof EVENTS)[number];

interface HookInput {
  event: HookEvent;
  session: string;
  transcript: string | undefined;
  trigger: 'manual' | 'auto';
  source: string | undefined;
}

class HookInputError extends Error {}

function readInput(text: string): HookInput {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new HookInputError(`standard input is not JSON (${(e as Error).message}); expected Claude Code's hook input`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new HookInputError("standard input is not a JSON object; expected Claude Code's hook input");
  const o = v as Record<string, unknown>;
  const event = o['hook_event_name'];
  if (typeof event !== 'string' || !(EVENTS as readonly string[]).includes(event)) {
    throw new HookInputError(`hook_event_name ${typeof event === 'string' ? `'${event.slice(0, 60)}'` : 'is missing'}: this hook handles ${EVENTS.join(', ')}`);
  }
  const session = o['session_id'];
  if (typeof session !== 'string' || session === '') throw new HookInputError('session_id is missing');
  const transcript = typeof o['transcript_path'] === 'string' && o['transcript_path'] !== '' ? (o['transcript_path'] as string) : undefined;
  return {
    event: event as HookEvent,
    session,
    transcript,
    trigger: o['trigger'] === 'auto' ? 'auto' : 'manual',
    source: typeof o['source'] === 'string' ? o['source'] : undefined,
  };
}

const hhmm = (iso: string) => new Date(iso).toTimeString().slice(0, 5);

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}

/** The reason the loop guard gives (Claude Code 2.1.328 prints it for a manual /compact; for an
 *  automatic compaction it shows only its own "Context limit reached · /compact or /clear to
 *  continue", and the reason is in its debug log and ours). */
export function loopGuardReason(recent: readonly CompactionEntry[], settings: HookSettings, now: Date): string {
  const oldest = recent[0] ? new Date(recent[0].at).getTime() : now.getTime();
  const lifts = new Date(oldest + settings.loopMinutes * 60_000).toISOString();
  return (
    `Context Compactor stopped this automatic compaction: it would be the ${ordinal(recent.length + 1)} in ${settings.loopMinutes} minutes ` +
    `(the others at ${recent.map((c) => hhmm(c.at)).join(', ')}). The context fills up again as fast as it is compacted, ` +
    'so a large file or tool output is probably read back every turn. Run /compact yourself (a manual compaction is never stopped), ' +
    `or /clear and start afresh. Automatic compactions are let through again from ${hhmm(lifts)}.`
  );
}

export async function runClaudeCodeHook(stdinText: string, opts: HookRunOptions): Promise<HookOutcome> {
  const now = (opts.now ?? (() => new Date()))();
  const log: string[] = [];
  const say = (session: string, event: string, msg: string) => log.push(`${now.toISOString()} ${session} ${event}: ${msg}`);
  let outcome: HookOutcome;
  try {
    const waited = opts.inputDeadlineMs !== undefined ? `standard input was still open after ${opts.inputDeadlineMs / 1000} s` : undefined;
    let input: HookInput;
    try {
      input = readInput(stdinText);
    } catch (e) {
      // What came before the deadline is no hook input: that, not its shape, is the reason.
      if (waited && e instanceof HookInputError)
        throw new HookInputError(`${waited} without a whole JSON object (${Buffer.byteLength(stdinText)} bytes came); nothing done`);
      throw e;
    }
    if (waited) say(input.session, input.event, `${waited}; went on with the input that had come`);
    outcome = await dispatch(input, opts, now, (msg) => say(input.session, input.event, msg));
  } catch (e) {
    // Bad input, and any failure of our own: the session goes on as if the hook were not there.
    const reason = e instanceof HookInputError ? e.message : `internal error: ${(e as Error).message}`;
    say('-', 'input', reason);
    outcome = { message: `ctxc hook: ${reason}` };
  }
  await appendLog(opts.stateDir, log);
  return outcome;
}

type Say = (msg: string) => void;

/** The session file, opened; a file it cannot follow (gone, a FIFO, a dangling symlink) comes
 *  back as the reason, which the caller logs. */
async function openTranscript(path: string | undefined, say: Say): Promise<TranscriptFile | string> {
  const opened = await TranscriptFile.open(path);
  if (!opened.ok) return opened.reason;
  if (opened.file.note) say(opened.file.note);
  return opened.file;
}

async function dispatch(input: HookInput, opts: HookRunOptions, now: Date, say: Say): Promise<HookOutcome> {
  if (input.event === 'UserPromptSubmit') return userPromptSubmit(input, opts, now, say);
  if (input.event === 'PreCompact') return preCompact(input, opts, now, say);
  return sessionStart(input, opts, now, say);
}

async function preCompact(input: HookInput, opts: HookRunOptions, now: Date, say: Say): Promise<HookOutcome> {
  const file = await openTranscript(input.transcript, say);
  let tokens: number | undefined;
  if (typeof file === 'string') say(`${file}; the compaction is recorded without its size`);
  else {
    try {
      tokens = await recordedUsage(file, file.size);
    } catch (e) {
      // The loop guard must still count it.
      say(
        `${file.path} could not be read to its end (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); the compaction is recorded without its size`,
      );
    } finally {
      await file.close();
    }
  }
  const entry: CompactionEntry = {
    at: now.toISOString(),
    trigger: input.trigger,
    bytes: typeof file === 'string' ? 0 : file.size,
    ...(tokens !== undefined ? { tokens, tokensFrom: 'usage' as const } : {}),
  };
  const size =
    tokens !== undefined
      ? `${fmt(tokens)} tokens (the usage Claude Code recorded for its last request)`
      : 'a size the transcript does not record (no usage since the last compaction)';
  return updateSessionState(
    opts.stateDir,
    input.session,
    (state) => {
      if (input.transcript) state.transcript = input.transcript;
      if (input.trigger === 'auto') {
        const since = now.getTime() - opts.loopMinutes * 60_000;
        const recent = state.compactions.filter((c) => c.trigger === 'auto' && !c.blocked && new Date(c.at).getTime() > since);
        if (recent.length >= opts.loopLimit) {
          const reason = loopGuardReason(recent, opts, now);
          state.compactions.push({ ...entry, blocked: true, reason });
          say(`blocked an automatic compaction at ${size}: ${recent.length} already in the last ${opts.loopMinutes} minutes`);
          // systemMessage: the documented field for a warning shown to the person, for a Claude Code
          // that shows it (2.1.328 does not, for an automatic compaction: the extension shows the
          // reason it finds in the state file instead).
          return { output: { decision: 'block', reason, systemMessage: reason } };
        }
      }
      state.compactions.push(entry);
      say(`${input.trigger} compaction at ${size}`);
      return {};
    },
    say,
  );
}

/** How long a compaction may take between its PreCompact and its SessionStart (a large summary
 *  from a slow model takes minutes). */
export const COMPACTION_MAX_MINUTES = 30;

/** PreCompact's record of the compaction SessionStart follows: the last one, let through, recent. */
function thisCompaction(state: SessionState, now: Date): CompactionEntry | undefined {
  const last = state.compactions[state.compactions.length - 1];
  if (!last || last.blocked || now.getTime() - new Date(last.at).getTime() > COMPACTION_MAX_MINUTES * 60_000) return undefined;
  return last;
}

/** The facts carried on into the era read now: the older era's facts kept in the state join the
 *  carried ones when the state's facts are of an era before it (its repair never came). */
function carriedInto(state: SessionState, era: EraFacts): RestoreItem[] | undefined {
  return state.facts && state.facts.start < era.start ? carryOn(state.facts.items, state.carried) : state.carried;
}

async function sessionStart(input: HookInput, opts: HookRunOptions, now: Date, say: Say): Promise<HookOutcome> {
  if (input.source !== 'compact') {
    say(`source '${input.source ?? ''}': nothing to do (the hook repairs compactions)`);
    return {};
  }
  const file = await openTranscript(input.transcript, say);
  if (typeof file === 'string') {
    say(`${file}; nothing restored`);
    return { message: `ctxc hook: ${file}; nothing restored` };
  }
  try {
    const { state } = await readSessionState(opts.stateDir, input.session);
    const pre = thisCompaction(state, now);
    // A CLI that writes the summary before this hook: repair against it at once (only what was
    // written since PreCompact is read: a record without the length, from before, reads nothing).
    if (pre && pre.bytes > 0 && file.size > pre.bytes) {
      const r = await checkedRepair(file, { afterByte: pre.bytes, eraEnd: pre.bytes }, state.facts, state.carried, opts.maxTokens);
      if (r.ok) {
        const text = await recordRepair(r.repair, undefined, input, opts, now, say);
        return text ? { output: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } } } : {};
      }
    }
    const era = await readEraFacts(file, file.size, state.facts);
    if (!era.ok) {
      say(`${era.reason}; nothing restored`);
      return {};
    }
    const carried = carriedInto(state, era.facts);
    // After an automatic compaction the next request is sent at once; after a manual one, only
    // when the person writes the next prompt, which is when the summary can be checked. Without a
    // PreCompact record the trigger is unknown: the facts go back now, as for an automatic one.
    const unchecked = pre?.trigger === 'manual' ? undefined : await uncheckedRestore(era.facts, carried, opts.maxTokens);
    const pending: PendingRepair = {
      at: now.toISOString(),
      ...(pre ? { compaction: pre.at } : {}),
      eraStart: era.facts.start,
      afterByte: file.size,
      ...(unchecked?.text ? { unchecked: { text: unchecked.text, tokens: unchecked.tokens, facts: unchecked.restored.length } } : {}),
    };
    await updateSessionState(
      opts.stateDir,
      input.session,
      (s) => {
        if (input.transcript) s.transcript = input.transcript;
        s.carried = carriedInto(s, era.facts);
        s.facts = era.facts;
        s.pending = pending;
      },
      say,
    );
    const since = era.facts.cut
      ? `the conversation's last ${ERA_MAX_BYTES / 1024 / 1024} MB, from byte ${fmt(era.facts.start)} (it is longer since the last boundary than the hook reads)`
      : `the conversation since byte ${fmt(era.facts.start)}`;
    const facts = `${era.facts.items.length} must-keep facts in ${since}${carried?.length ? ` (+${carried.length} from earlier compactions)` : ''}`;
    if (!unchecked) {
      say(`${facts}; the summary is not written yet: the repair waits for the next prompt`);
      return {};
    }
    await writeRepairDetails(opts.stateDir, repairDetails(input.session, now.toISOString(), undefined, unchecked));
    say(
      `${facts}; the summary is not written yet and the next request follows at once: ${unchecked.restored.length + unchecked.covered.length} put back unchecked in ${fmt(unchecked.tokens)} tokens` +
        (unchecked.omitted.length > 0 ? `, ${unchecked.omitted.length} left out by the ${fmt(opts.maxTokens)}-token cap` : '') +
        '; checked against the summary at the next prompt',
    );
    return unchecked.text ? { output: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: unchecked.text } } } : {};
  } finally {
    await file.close();
  }
}

async function userPromptSubmit(input: HookInput, opts: HookRunOptions, now: Date, say: Say): Promise<HookOutcome> {
  // The common case, every prompt: nothing pending, one small file read.
  if (!(await readSessionState(opts.stateDir, input.session)).state.pending) return {};
  const text = await updateSessionState(
    opts.stateDir,
    input.session,
    async (state) => {
      const pending = state.pending;
      if (!pending) return '';
      delete state.pending;
      const file = await openTranscript(input.transcript ?? state.transcript, say);
      if (typeof file === 'string') {
        say(`${file}; the pending repair is dropped`);
        return '';
      }
      try {
        const r = await checkedRepair(file, pending, state.facts, state.carried, opts.maxTokens);
        if (!r.ok) {
          say(`${r.reason}; the pending repair is dropped`);
          return '';
        }
        if (r.repair.compaction.boundary === state.repaired?.boundary) {
          say(`the compaction at byte ${fmt(r.repair.compaction.offset)} was repaired already`);
          return '';
        }
        return recordRepair(r.repair, pending, input, opts, now, say, state);
      } finally {
        await file.close();
      }
    },
    say,
  );
  return text ? { output: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: text } } } : {};
}

/**
 * Records a repair against the summary: in the state (held under its lock by the caller, or
 * changed here under it), the details file and the log. Returns the text to put back.
 */
async function recordRepair(
  r: CheckedRepair,
  pending: PendingRepair | undefined,
  input: HookInput,
  opts: HookRunOptions,
  now: Date,
  say: Say,
  held?: SessionState,
): Promise<string> {
  const c = r.compaction;
  const apply = (state: SessionState) => {
    state.repaired = {
      at: now.toISOString(),
      boundary: c.boundary,
      missing: r.lost.length,
      restored: r.plan.restored.length + r.plan.covered.length,
      tokens: r.plan.tokens,
    };
    // The era is summarized: its facts carry on into the next, which starts at this boundary.
    state.carried = carryOn(r.era.items, state.carried);
    delete state.facts;
    delete state.pending;
    // Claude Code's own count of the size, now that its boundary says it.
    const entry = state.compactions.find((e) => e.at === pending?.compaction) ?? thisCompaction(state, now);
    if (entry && c.preTokens !== undefined) Object.assign(entry, { tokens: c.preTokens, tokensFrom: 'preTokens' });
  };
  if (held) apply(held);
  else await updateSessionState(opts.stateDir, input.session, apply, say);
  const unchecked = pending?.unchecked;
  await writeRepairDetails(opts.stateDir, {
    ...repairDetails(input.session, now.toISOString(), r, undefined),
    tokens: r.plan.tokens + (unchecked?.tokens ?? 0),
    ...(unchecked ? { unchecked: { lines: [], tokens: unchecked.tokens, text: unchecked.text } } : {}),
  });
  const size = c.preTokens !== undefined ? `, ${fmt(c.preTokens)} tokens before it (Claude Code's compactMetadata.preTokens)` : '';
  const found = c.summaryFound === 'chain' ? 'on its chain' : 'after it, not on its chain';
  say(
    `${c.trigger ?? 'unknown'} compaction at byte ${fmt(c.offset)}${size}; summary found ${found}: ${r.plan.facts.length} must-keep facts, ` +
      `${r.lost.length} missing from the summary and the kept messages` +
      (unchecked ? `, ${unchecked.facts} put back unchecked at SessionStart (${fmt(unchecked.tokens)} tokens)` : '') +
      `, ${r.plan.restored.length + r.plan.covered.length} restored now in ${fmt(r.plan.tokens)} tokens` +
      (r.plan.omitted.length > 0 ? `, ${r.plan.omitted.length} left out by the ${fmt(opts.maxTokens)}-token cap` : ''),
  );
  return r.plan.text;
}
