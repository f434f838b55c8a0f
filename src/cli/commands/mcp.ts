// `ctxc mcp`: Context Compactor as an MCP server over stdio (src/cli/mcp/mcpServer.ts). An agent
// starts it and talks to it on stdin/stdout; it runs until the agent closes stdin. The server and
// the SDK are loaded only here, so the other commands do not pay for them.

import { homedir } from 'node:os';
import { booleanFlag, parseArgs, type FlagSpec } from '../args';
import { readCommandLine, type CommandHelp } from '../fileCommand';
import { EXIT_OK, UsageError, type CliCommand, type CliIO } from '../io';

export const MCP_FLAGS: readonly FlagSpec[] = [{ name: 'help', short: 'h', kind: 'boolean', description: 'show this help' }];

const USAGE = 'ctxc mcp';
const HELP: CommandHelp = {
  name: 'mcp',
  usage: USAGE,
  flags: MCP_FLAGS,
  helpTail:
    'Serves the tools list_sessions, count_context, session_facts and compact_session over stdio (the Model Context\n' +
    'Protocol). Session ids and relative paths are looked up in the folder it is started in; a path is read only inside\n' +
    "that folder or the agents' session folders (README: Security). See the README for Claude Code (claude mcp add),\n" +
    'Codex (config.toml) and Cline.\n',
};

export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'serve the sessions tools to any agent over MCP (stdio)',
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const line = readCommandLine(HELP, io, () => {
      const args = parseArgs(argv, MCP_FLAGS);
      if (booleanFlag(args, 'help')) return 'help' as const;
      if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]!.slice(0, 80)}'`);
      return true;
    });
    if (!line.ok) return line.exit;
    const { serveMcp } = await import('../mcp/mcpServer');
    await serveMcp({ env: io.env, home: io.env['HOME'] || homedir(), cwd: io.cwd });
    return EXIT_OK;
  },
};
