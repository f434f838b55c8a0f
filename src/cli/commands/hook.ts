// `ctxc hook <agent>`: the command an agent's hooks run (Claude Code: PreCompact, SessionStart with
// matcher "compact", UserPromptSubmit; Copilot CLI: preCompact, userPromptSubmitted). It reads the
// event's JSON on stdin — for at most HOOK_STDIN_DEADLINE_MS: a writer that keeps the pipe open
// does not hold the session up — and prints at most one JSON object; the work is the agent module's
// runner (src/sessions/claudeHook/claudeHook.ts, src/sessions/agents/copilot-cli/copilotHook.ts).
// It runs from its own bundle (src/cli/hookMain.ts → dist/hook.js), which dist/cli.js loads for
// `hook`.
//
// Exit codes follow the agents' hooks, not the other commands: 0 once the command line is read
// (2 would be a *blocking* error to Claude Code, so a bad input must never exit 2), unless the
// runner asks for another (Copilot CLI shows a hook's stderr only when it exits 2, and no exit code
// stops its compaction); a mistyped command line in the settings is a usage error (64), which
// Claude Code shows as a non-blocking hook error, so a broken setup is seen without stopping the
// session.

import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { defaultStateDir } from '../../sessions/claudeHook/hookState';
import { HOOK_DEFAULTS, type HookSettings } from '../../sessions/claudeHook/claudeHook';
import { AGENT_MODULES, agentById } from '../../sessions/agents/registry';
import { clip } from '../../engine/text/clip';
import { booleanFlag, numberFlag, parseArgs, stringFlag, type FlagSpec } from '../args';
import { onePositional, readCommandLine, type CommandHelp } from '../fileCommand';
import { EXIT_OK, UsageError, type CliCommand, type CliIO } from '../io';

/** The agents with hooks (the registry's modules that have them). */
export const HOOK_AGENTS: readonly string[] = AGENT_MODULES.filter((a) => a.hooks).map((a) => a.id);

/** The most hook input read: Claude Code's is a few hundred bytes. */
export const HOOK_INPUT_MAX_BYTES = 1024 * 1024;
/** How long the hook waits for its input to end. Claude Code writes it and closes the pipe at
 *  once; a writer that keeps the pipe open must not hold the session up past this. */
export const HOOK_STDIN_DEADLINE_MS = 3000;

export const HOOK_FLAGS: readonly FlagSpec[] = [
  { name: 'max-tokens', kind: 'number', valueName: 'N', description: `most tokens a repair puts back after a compaction (default ${HOOK_DEFAULTS.maxTokens})` },
  {
    name: 'loop-limit',
    kind: 'number',
    valueName: 'N',
    description: `automatic compactions let through within --loop-minutes; the next is blocked (default ${HOOK_DEFAULTS.loopLimit})`,
  },
  { name: 'loop-minutes', kind: 'number', valueName: 'M', description: `the loop guard's window in minutes (default ${HOOK_DEFAULTS.loopMinutes})` },
  {
    name: 'state-dir',
    kind: 'string',
    valueName: 'DIR',
    description: 'where the hook keeps its state and log (default $XDG_STATE_HOME/context-compactor, else ~/.local/state/context-compactor)',
  },
  { name: 'help', short: 'h', kind: 'boolean', description: 'show this help' },
];

const USAGE = `ctxc hook ${HOOK_AGENTS.join('|')} [--max-tokens N] [--loop-limit N] [--loop-minutes M] [--state-dir DIR]  < hook-input.json`;
const HELP: CommandHelp = {
  name: 'hook',
  usage: USAGE,
  flags: HOOK_FLAGS,
  helpTail:
    'Run by Claude Code\'s hooks (PreCompact, SessionStart with matcher "compact", UserPromptSubmit) and Copilot CLI\'s\n' +
    "(preCompact, userPromptSubmitted): it puts back the facts the agent's own summary lost, and stops (Claude Code) or\n" +
    "reports (Copilot CLI) a loop of automatic compactions. Run by Qwen Code's PreCompact hook: it gives Qwen Code's\n" +
    'summariser the must-keep facts before it summarises. See the README for the entries.\n',
};

interface HookArgs extends HookSettings {
  agent: string;
  stateDir: string;
}

function wholeNumber(name: string, v: number | undefined, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < min) throw new UsageError(`--${name} expects a whole number ≥ ${min}, got '${v}'`);
  return v;
}

function readArgs(argv: readonly string[], io: CliIO): HookArgs | 'help' {
  const args = parseArgs(argv, HOOK_FLAGS);
  if (booleanFlag(args, 'help')) return 'help';
  const agent = onePositional(args.positionals, `AGENT (${HOOK_AGENTS.join(', ')})`);
  if (!HOOK_AGENTS.includes(agent)) {
    const known = agentById(agent);
    if (known)
      throw new UsageError(`${known.name} takes no hook of ours (the README's "Inside the agents" says why); agents with hooks: ${HOOK_AGENTS.join(', ')}`);
    throw new UsageError(`unknown agent '${clip(agent)}'; expected one of ${HOOK_AGENTS.join(', ')}`);
  }
  const dir = stringFlag(args, 'state-dir');
  return {
    agent,
    maxTokens: wholeNumber('max-tokens', numberFlag(args, 'max-tokens'), HOOK_DEFAULTS.maxTokens, 1),
    loopLimit: wholeNumber('loop-limit', numberFlag(args, 'loop-limit'), HOOK_DEFAULTS.loopLimit, 1),
    loopMinutes: wholeNumber('loop-minutes', numberFlag(args, 'loop-minutes'), HOOK_DEFAULTS.loopMinutes, 1),
    stateDir: dir !== undefined ? resolve(io.cwd, dir) : defaultStateDir(io.env, io.env['HOME'] || homedir()),
  };
}

export interface StdinRead {
  text: string;
  /** The deadline passed before the input ended (what had come is in `text`). */
  timedOut: boolean;
}

/** Standard input whole, up to HOOK_INPUT_MAX_BYTES (more is cut: it is not hook input then), or
 *  what came of it by the deadline. A terminal gives none: the command is not being run by Claude
 *  Code. The stream is let go of either way, so the process can end while a writer holds it open. */
export async function readStdin(io: CliIO, deadlineMs = HOOK_STDIN_DEADLINE_MS): Promise<StdinRead> {
  const stdin = io.stdin;
  if (!stdin || (stdin as { isTTY?: boolean }).isTTY) return { text: '', timedOut: false };
  const it = stdin[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let total = 0;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), deadlineMs)));
  let timedOut = false;
  let ended = false;
  try {
    while (total <= HOOK_INPUT_MAX_BYTES) {
      const next = await Promise.race([it.next(), deadline]);
      if (next === 'deadline') {
        timedOut = true;
        break;
      }
      if (next.done) {
        ended = true;
        break;
      }
      const b = typeof next.value === 'string' ? Buffer.from(next.value, 'utf8') : Buffer.from(next.value);
      chunks.push(b);
      total += b.length;
    }
  } finally {
    clearTimeout(timer);
    // Let go of a pipe its writer holds open: a pending read would keep the process alive.
    if (!ended) {
      void it.return?.();
      (stdin as { destroy?: () => void }).destroy?.();
    }
  }
  return { text: Buffer.concat(chunks).subarray(0, HOOK_INPUT_MAX_BYTES).toString('utf8'), timedOut };
}

export const hookCommand: CliCommand = {
  name: 'hook',
  summary:
    "The agents' compaction hooks: put back what their summary lost (Claude Code, Copilot CLI), give the summariser the facts (Qwen Code, opencode), guard against compaction loops",
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const line = readCommandLine(HELP, io, () => readArgs(argv, io));
    if (!line.ok) return line.exit;
    const { agent, stateDir, ...settings } = line.value;
    const run = await agentById(agent)!.hooks!.load();
    const input = await readStdin(io);
    const outcome = await run(input.text, { ...settings, stateDir, ...(input.timedOut ? { inputDeadlineMs: HOOK_STDIN_DEADLINE_MS } : {}) });
    if (outcome.output) io.out(`${JSON.stringify(outcome.output)}\n`);
    if (outcome.message) io.err(`${clip(outcome.message, 400)}\n`);
    return outcome.exitCode ?? EXIT_OK;
  },
};
