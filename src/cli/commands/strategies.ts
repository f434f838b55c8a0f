// `ctxc strategies`: the compaction strategies `ctxc compact --strategy` and the extension
// accept — name, what it does, what it keeps verbatim — and the levels `--level` takes.

import { COMPACTION_DEFAULTS } from '../../engine/compactor';
import { LEVELS } from '../../engine/strategies/levelStrategy';
import { listStrategies } from '../../engine/strategies/registry';
import { booleanFlag, parseArgs, type FlagSpec } from '../args';
import { readCommandLine } from '../fileCommand';
import { EXIT_OK, UsageError, type CliCommand, type CliIO } from '../io';

export const STRATEGIES_FLAGS: readonly FlagSpec[] = [
  { name: 'json', kind: 'boolean', description: 'print a JSON array instead of the list' },
  { name: 'help', short: 'h', kind: 'boolean', description: 'show this help' },
];

const USAGE = 'ctxc strategies [--json]';

export function strategiesText(): string {
  const lines: string[] = [];
  for (const s of listStrategies()) {
    lines.push(`${s.name}${s.name === COMPACTION_DEFAULTS.strategy ? ' (default)' : ''}`);
    lines.push(`  ${s.description}`);
    if (s.keeps) lines.push(`  keeps: ${s.keeps}`);
    lines.push('');
  }
  lines.push(`levels (--level): ${LEVELS.join(', ')} (default ${COMPACTION_DEFAULTS.level})`);
  return `${lines.join('\n')}\n`;
}

export const strategiesCommand: CliCommand = {
  name: 'strategies',
  summary: 'list the compaction strategies (name, description, what each keeps)',
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const line = readCommandLine({ name: 'strategies', usage: USAGE, flags: STRATEGIES_FLAGS }, io, () => {
      const args = parseArgs(argv, STRATEGIES_FLAGS);
      if (booleanFlag(args, 'help')) return 'help';
      if (args.positionals.length > 0) throw new UsageError(`takes no FILE, got '${args.positionals[0]!}'`);
      return args;
    });
    if (!line.ok) return line.exit;
    if (booleanFlag(line.value, 'json')) {
      io.out(
        `${JSON.stringify(
          listStrategies().map((s) => ({ ...s, default: s.name === COMPACTION_DEFAULTS.strategy })),
          null,
          2,
        )}\n`,
      );
    } else {
      io.out(strategiesText());
    }
    return EXIT_OK;
  },
};
