// `ctxc sessions [--cwd DIR] [--json]`: the agent sessions of a folder (Claude Code, Codex, Cline,
// Roo Code, Copilot Chat, aider), each with the tokens its agent sends when it is resumed, newest
// first; sub-agents and compacted sessions under the session they belong to. A session whose file
// cannot be read is listed with its error.

import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { AgentId, AgentSession } from '../../sessions/agentSession';
import { AGENT_IDS, AGENT_MODULES } from '../../sessions/agents/registry';
import { listSessions, parentOf } from '../../sessions/sessionCatalog';
import { booleanFlag, parseArgs, stringFlag, type FlagSpec } from '../args';
import { readCommandLine, type CommandHelp } from '../fileCommand';
import { EXIT_OK, UsageError, type CliCommand, type CliIO } from '../io';

export const SESSIONS_FLAGS: readonly FlagSpec[] = [
  { name: 'cwd', kind: 'string', valueName: 'DIR', description: 'the folder whose sessions to list (default: the current folder)' },
  { name: 'agents', kind: 'string', valueName: 'LIST', description: `only these agents, comma-separated (${AGENT_IDS.join(', ')})` },
  { name: 'json', kind: 'boolean', description: 'print a JSON array instead of the table' },
  { name: 'help', short: 'h', kind: 'boolean', description: 'show this help' },
];

const USAGE = 'ctxc sessions [--cwd DIR] [--agents LIST] [--json]';
const HELP: CommandHelp = {
  name: 'sessions',
  usage: USAGE,
  flags: SESSIONS_FLAGS,
  helpTail: `Looks in:\n${AGENT_MODULES.map((a) => `  ${a.id.padEnd(14)} ${a.where}`).join('\n')}\n`,
};

interface SessionsArgs {
  cwd: string;
  json: boolean;
  agents?: Partial<Record<AgentId, boolean>>;
}

function readArgs(argv: readonly string[], io: CliIO): SessionsArgs | 'help' {
  const args = parseArgs(argv, SESSIONS_FLAGS);
  if (booleanFlag(args, 'help')) return 'help';
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}' (the folder is given with --cwd)`);
  const list = stringFlag(args, 'agents');
  let agents: Partial<Record<AgentId, boolean>> | undefined;
  if (list !== undefined) {
    const names = list
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = names.find((n) => !AGENT_IDS.includes(n));
    if (unknown !== undefined || names.length === 0) throw new UsageError(`--agents expects a comma-separated list of ${AGENT_IDS.join(', ')}, got '${list}'`);
    agents = Object.fromEntries(AGENT_IDS.map((a) => [a, names.includes(a)]));
  }
  return { cwd: resolve(io.cwd, stringFlag(args, 'cwd') ?? '.'), json: booleanFlag(args, 'json'), ...(agents ? { agents } : {}) };
}

export const sessionsCommand: CliCommand = {
  name: 'sessions',
  summary: `list a folder's agent sessions (${AGENT_MODULES.map((a) => a.name).join(', ')}) with their tokens`,
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const line = readCommandLine(HELP, io, () => readArgs(argv, io));
    if (!line.ok) return line.exit;
    const { cwd, json, agents } = line.value;
    const sessions = await listSessions({ folders: [cwd], env: io.env, home: io.env['HOME'] || homedir(), ...(agents ? { agents } : {}) });
    if (json) io.out(`${JSON.stringify(sessions.map(sessionJson), null, 2)}\n`);
    else io.out(sessionsTable(cwd, sessions));
    return EXIT_OK;
  },
};

/** One session in `--json`: the fields a script needs, in a stable order. */
export function sessionJson(s: AgentSession): Record<string, unknown> {
  return {
    agent: s.agent,
    id: s.id,
    file: s.file,
    title: s.title,
    tokens: s.tokens,
    reportedTokens: s.reportedTokens ?? null,
    overhead: s.overhead ?? 0,
    window: s.window,
    updated: s.updated,
    model: s.model ?? null,
    historyTokens: s.historyTokens,
    messages: s.messages,
    cwd: s.cwd ?? null,
    parent: s.parent ?? null,
    relation: s.relation ?? null,
    children: s.children,
    resumable: s.resumable,
    warnings: s.warnings,
    agentVersion: s.agentVersion ?? null,
    newerThanTested: s.newerThanTested ?? null,
    error: s.error ?? null,
  };
}

const fmt = (n: number) => n.toLocaleString('en-US');

function shortWindow(n: number): string {
  return n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);
}

/** "written by claude-code 2.1.340, newer than the newest tested (2.1.332)": said once per agent and
 *  version in a table (the JSON has it on every session). */
function newerNote(s: AgentSession, told: Set<string>): string {
  if (!s.newerThanTested) return '';
  const key = `${s.agent} ${s.agentVersion}`;
  if (told.has(key)) return '';
  told.add(key);
  return `written by ${key}, newer than the newest tested (${s.newerThanTested}): read as that one is`;
}

/** The table: parents newest first, each followed by its children, indented. */
export function sessionsTable(cwd: string, sessions: readonly AgentSession[]): string {
  if (sessions.length === 0) return `No agent sessions found for ${cwd}.\n`;
  const rows: string[][] = [];
  const told = new Set<string>();
  const add = (s: AgentSession, depth: number) => {
    const tokens = s.error ? 'error' : `${fmt(s.tokens)} / ${shortWindow(s.window)}`;
    const note = s.error ?? [s.historyTokens > 0 ? `+${fmt(s.historyTokens)} history not sent` : '', newerNote(s, told)].filter(Boolean).join('; ');
    const lead = depth > 0 ? `${'  '.repeat(depth - 1)}└ ${s.relation === 'compacted' ? 'compacted ' : s.relation === 'subagent' ? 'sub-agent ' : ''}` : '';
    rows.push([s.agent, tokens, s.updated.slice(0, 16).replace('T', ' '), `${lead}${s.id}`, s.title || '(no request)', note]);
    for (const c of sessions.filter((x) => parentOf(x, sessions) === s)) add(c, depth + 1);
  };
  for (const s of sessions) if (!parentOf(s, sessions)) add(s, 0);
  const head = ['AGENT', 'TOKENS', 'UPDATED', 'ID', 'TITLE', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `Agent sessions of ${cwd}\n\n${[line(head), ...rows.map(line)].join('\n')}\n`;
}
