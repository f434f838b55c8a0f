// The command line parser every ctxc command shares: long flags (`--model gpt-4o`,
// `--model=gpt-4o`), short aliases (`-m gpt-4o`), booleans (`--json`), numbers, positionals, and
// `--` to end the flags. Anything unknown or malformed is a UsageError (exit 64), never a guess.

import { clip } from '../engine/text/clip';
import { UsageError } from './io';

export interface FlagSpec {
  /** Long name without dashes: 'model' for --model. */
  name: string;
  short?: string;
  kind: 'boolean' | 'string' | 'number';
  /** The value's name in help text (kind string/number), e.g. 'MODEL'. */
  valueName?: string;
  description: string;
}

export type FlagValue = string | number | boolean;

export interface ParsedArgs {
  flags: Record<string, FlagValue | undefined>;
  positionals: string[];
}

export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[]): ParsedArgs {
  const byLong = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
  const flags: ParsedArgs['flags'] = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const eq = long ? arg.indexOf('=') : -1;
    const key = long ? arg.slice(2, eq === -1 ? undefined : eq) : arg.slice(1);
    const spec = long ? byLong.get(key) : byShort.get(key);
    if (!spec) throw new UsageError(`unknown option '${clip(long ? `--${key}` : arg)}'`);
    const shown = `--${spec.name}`;
    if (spec.kind === 'boolean') {
      if (eq !== -1) throw new UsageError(`option '${shown}' takes no value`);
      flags[spec.name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next !== undefined && !(next.startsWith('-') && next !== '-' && !/^-\d/.test(next))) {
        value = next;
        i++;
      }
    }
    if (value === undefined || value === '') throw new UsageError(`option '${shown}' needs a value${spec.valueName ? ` (${spec.valueName})` : ''}`);
    if (spec.kind === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new UsageError(`option '${shown}' needs a number, got '${clip(value)}'`);
      flags[spec.name] = n;
    } else {
      flags[spec.name] = value;
    }
  }
  return { flags, positionals };
}

/** The options block of a command's help text. */
export function optionsHelp(specs: readonly FlagSpec[]): string {
  const rows = specs.map((s) => {
    const names = `${s.short ? `-${s.short}, ` : '    '}--${s.name}${s.kind === 'boolean' ? '' : ` ${s.valueName ?? 'VALUE'}`}`;
    return [names, s.description] as const;
  });
  const width = Math.max(...rows.map((r) => r[0].length));
  return rows.map(([n, d]) => `  ${n.padEnd(width)}  ${d}`).join('\n');
}

export function stringFlag(a: ParsedArgs, name: string): string | undefined {
  const v = a.flags[name];
  return typeof v === 'string' ? v : undefined;
}

export function numberFlag(a: ParsedArgs, name: string): number | undefined {
  const v = a.flags[name];
  return typeof v === 'number' ? v : undefined;
}

export function booleanFlag(a: ParsedArgs, name: string): boolean {
  return a.flags[name] === true;
}
