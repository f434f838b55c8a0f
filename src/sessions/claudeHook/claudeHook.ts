// `ctxc hook claude-code`: Claude Code's hooks around its own compaction, one command for every
// event it is installed on. Input: the event's JSON on stdin. Output: at most one JSON object on
// stdout, and exit 0 — always: only the loop guard blocks, on purpose, with the top-level
// `{"decision":"block","reason":…}` Claude Code documents for PreCompact (2.1.328 honours it and
// prints the reason). Bad input never blocks a session: no output, one line on stderr (Claude
// Code records stderr of a run that exits 0 as a success and does not send it to the model), and
// the reason in the log.
//
//   PreCompact         records the compaction (time, trigger, tokens of the live chain by our
//                      counter, the transcript's length); after `loopLimit` automatic compactions
//                      within `loopMinutes`, blocks the next automatic one. A manual /compact is
//                      the person's choice: never blocked, never counted.
//   SessionStart       (source "compact") repairs the compaction when its summary is in the
//                      transcript already: the must-keep facts of what was summarized that the
//                      summary and the kept messages lack, within `maxTokens`, as
//                      additionalContext. Claude Code 2.1.328 runs this hook before it writes the
//                      boundary and the summary (verified: the file had neither, and waiting
//                      does not help, it writes them after the hook returns), so then the repair
//                      is left pending …
//   UserPromptSubmit   … and made here, at the next prompt, when the summary is on disk: the same
//                      facts as additionalContext of that prompt. Without a pending repair this
//                      reads one small file and returns.

import { readFile, stat } from 'node:fs/promises';
import { importClaudeCode } from '../../engine/conversation/importers/claudeCode';
import { createTokenCounter } from '../../engine/tokens/messageCounter';
import { tokenReport } from '../../engine/tokens/report';
import { planFactRestore } from '../../engine/validate/restoreFacts';
import { decodeTranscript } from '../../node/decodeText';
import type { AgentHookSettings } from '../agents/agent';
import { SESSION_MAX_BYTES } from '../diskReads';
import { readLastCompaction, type CompactionRecord } from './compactionInTranscript';
import { appendLog, readSessionState, writeRepairDetails, writeSessionState, type CompactionEntry, type SessionState } from './hookState';

export type HookSettings = AgentHookSettings;

export const HOOK_DEFAULTS: Readonly<HookSettings> = { maxTokens: 2000, loopLimit: 3, loopMinutes: 10 };

export interface HookRunOptions extends HookSettings {
  stateDir: string;
  now?: () => Date;
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

type TranscriptText = { ok: true; text: string } | { ok: false; reason: string };

async function readTranscript(path: string | undefined): Promise<TranscriptText> {
  if (path === undefined) return { ok: false, reason: 'the input names no transcript_path' };
  try {
    const s = await stat(path);
    if (!s.isFile()) return { ok: false, reason: `${path} is not a file` };
    if (s.size > SESSION_MAX_BYTES) return { ok: false, reason: `${path} is larger than ${SESSION_MAX_BYTES / 1024 / 1024} MB` };
    return { ok: true, text: decodeTranscript(await readFile(path), path) };
  } catch (e) {
    return { ok: false, reason: `${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Tokens of what Claude Code sends for the session now (its live chain), by our counter. */
async function liveTokens(text: string, path: string): Promise<number | undefined> {
  try {
    const { conversation } = importClaudeCode(text, { sourcePath: path });
    const counter = await createTokenCounter(conversation.meta.model);
    return tokenReport(conversation.messages, counter).total;
  } catch {
    return undefined;
  }
}

const fmt = (n: number) => n.toLocaleString('en-US');
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
    const input = readInput(stdinText);
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

async function dispatch(input: HookInput, opts: HookRunOptions, now: Date, say: (msg: string) => void): Promise<HookOutcome> {
  if (input.event === 'UserPromptSubmit') return userPromptSubmit(input, opts, now, say);
  const { state, note } = await readSessionState(opts.stateDir, input.session);
  if (note) say(note);
  if (input.transcript) state.transcript = input.transcript;
  const outcome = input.event === 'PreCompact' ? await preCompact(input, state, opts, now, say) : await sessionStart(input, state, opts, now, say);
  await writeSessionState(opts.stateDir, state);
  return outcome;
}

async function preCompact(input: HookInput, state: SessionState, opts: HookRunOptions, now: Date, say: (msg: string) => void): Promise<HookOutcome> {
  const read = await readTranscript(input.transcript);
  if (!read.ok) say(`${read.reason}; the compaction is recorded without its size`);
  const tokens = read.ok ? await liveTokens(read.text, input.transcript!) : undefined;
  const entry: CompactionEntry = {
    at: now.toISOString(),
    trigger: input.trigger,
    lines: read.ok ? lineCount(read.text) : 0,
    ...(tokens !== undefined ? { tokens } : {}),
  };
  const size = tokens !== undefined ? `${fmt(tokens)} tokens` : 'size unknown';
  if (input.trigger === 'auto') {
    const since = now.getTime() - opts.loopMinutes * 60_000;
    const recent = state.compactions.filter((c) => c.trigger === 'auto' && !c.blocked && new Date(c.at).getTime() > since);
    if (recent.length >= opts.loopLimit) {
      const reason = loopGuardReason(recent, opts, now);
      state.compactions.push({ ...entry, blocked: true, reason });
      say(`blocked an automatic compaction (${size}): ${recent.length} already in the last ${opts.loopMinutes} minutes`);
      // systemMessage: the documented field for a warning shown to the person, for a Claude Code
      // that shows it (2.1.328 does not, for an automatic compaction: the extension shows the
      // reason it finds in the state file instead).
      return { output: { decision: 'block', reason, systemMessage: reason } };
    }
  }
  state.compactions.push(entry);
  say(`${input.trigger} compaction at ${size}`);
  return {};
}

async function sessionStart(input: HookInput, state: SessionState, opts: HookRunOptions, now: Date, say: (msg: string) => void): Promise<HookOutcome> {
  if (input.source !== 'compact') {
    say(`source '${input.source ?? ''}': nothing to do (the hook repairs compactions)`);
    return {};
  }
  const read = await readTranscript(input.transcript);
  if (!read.ok) {
    say(`${read.reason}; nothing restored`);
    return { message: `ctxc hook: ${read.reason}; nothing restored` };
  }
  // A boundary after the line count PreCompact recorded belongs to this compaction; with no such
  // record, everything now in the file is older than it.
  const pre = thisCompaction(state, now);
  const afterLine = pre?.lines ?? lineCount(read.text);
  const found = pre ? readLastCompaction(read.text, { afterLine, sourcePath: input.transcript! }) : undefined;
  if (!found?.ok) {
    // Claude Code 2.1.328 writes the boundary and the summary after this hook: repair at the next prompt.
    state.pending = { at: now.toISOString(), afterLine: Math.min(afterLine, state.pending?.afterLine ?? afterLine) };
    say(`${found ? found.reason : 'no PreCompact record of this compaction'}; the repair waits for the next prompt`);
    return {};
  }
  const made = await repair(found.compaction, state, opts, now, say);
  return made ? { output: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: made } } } : {};
}

async function userPromptSubmit(input: HookInput, opts: HookRunOptions, now: Date, say: (msg: string) => void): Promise<HookOutcome> {
  const { state } = await readSessionState(opts.stateDir, input.session);
  const pending = state.pending;
  if (!pending) return {};
  delete state.pending;
  let made: string | undefined;
  const read = await readTranscript(input.transcript ?? state.transcript);
  if (!read.ok) say(`${read.reason}; the pending repair is dropped`);
  else {
    const found = readLastCompaction(read.text, { afterLine: pending.afterLine, sourcePath: input.transcript ?? state.transcript! });
    if (!found.ok) say(`${found.reason}; the pending repair is dropped`);
    else if (found.compaction.boundary === state.repaired?.boundary) say(`the compaction at line ${found.compaction.line} was repaired already`);
    else made = await repair(found.compaction, state, opts, now, say);
  }
  await writeSessionState(opts.stateDir, state);
  return made ? { output: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: made } } } : {};
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

/** The restore text for a compaction ('' when the summary kept everything), recorded in the state. */
async function repair(c: CompactionRecord, state: SessionState, opts: HookRunOptions, now: Date, say: (msg: string) => void): Promise<string> {
  const counter = await createTokenCounter(c.model);
  const plan = planFactRestore(c.summarized, c.contextText, { maxTokens: opts.maxTokens, counter });
  state.repaired = {
    at: now.toISOString(),
    boundary: c.boundary,
    missing: plan.missing.length,
    restored: plan.restored.length + plan.covered.length,
    tokens: plan.tokens,
  };
  delete state.pending;
  await writeRepairDetails(opts.stateDir, {
    session: state.session,
    at: state.repaired.at,
    boundary: c.boundary,
    summarizedMessages: c.summarized.length,
    facts: plan.facts.length,
    missing: plan.missing.length,
    tokens: plan.tokens,
    lines: plan.restored.map((i) => ({ category: i.category, line: i.line })),
    covered: plan.covered.map((i) => i.fact.value),
    omitted: plan.omitted.map((i) => i.line),
    text: plan.text,
  });
  say(
    `compaction at line ${c.line} (${c.trigger ?? 'unknown'} trigger): ${plan.facts.length} must-keep facts in ${c.summarized.length} summarized messages, ` +
      `${plan.missing.length} missing from the summary, ${plan.restored.length + plan.covered.length} restored in ${fmt(plan.tokens)} tokens` +
      (plan.omitted.length > 0 ? `, ${plan.omitted.length} left out by the ${fmt(opts.maxTokens)}-token cap` : ''),
  );
  return plan.text;
}
