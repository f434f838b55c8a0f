// `ctxc`: the command line over the same engine the extension uses.

import { EXIT_USAGE, type CliCommand, type CliIO } from './io';
import { commands } from './commands/registry';
import { clip } from '../engine/text/clip';

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(helpText(commands));
    return name ? 0 : EXIT_USAGE;
  }
  if (name === '--version' || name === '-v') {
    io.out(`ctxc ${VERSION}\n`);
    return 0;
  }
  const cmd = commands.find((c) => c.name === name);
  if (!cmd) {
    io.err(`ctxc: unknown command '${clip(name)}'. Try 'ctxc --help'.\n`);
    return EXIT_USAGE;
  }
  return cmd.run(rest, io);
}

declare const __CTXC_VERSION__: string | undefined;
const VERSION = typeof __CTXC_VERSION__ === 'string' ? __CTXC_VERSION__ : '0.1.0';

function helpText(list: readonly CliCommand[]): string {
  const width = Math.max(...list.map((c) => c.name.length));
  const lines = list.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `ctxc — count and compact LLM conversation transcripts\n\nUsage: ctxc <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'ctxc <command> --help' for a command's options.\n`;
}
