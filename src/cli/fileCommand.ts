// What the ctxc commands share around their own work. The command line: --help, the one FILE
// (or ARCHIVE_ID), and a usage error as one message plus the usage line (exit 64). The
// transcript: read with --max-size, --instance and --include-sidechains (FILE `-` is standard
// input), its warnings printed, and a transcript error as one line (exit 2).

import { booleanFlag, numberFlag, optionsHelp, parseArgs, type FlagSpec, type ParsedArgs } from './args';
import { EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, UsageError, type CliIO } from './io';
import { isTranscriptError } from '../engine/conversation/importers/transcriptError';
import { clip, MAX_ECHO_CHARS } from '../engine/text/clip';
import { inputName, loadTranscript, printWarnings, type LoadedTranscript, type LoadOptions } from './readTranscript';

const BYTES_PER_MB = 1024 * 1024;

/** The options every FILE command ends its list with: how to read the transcript, and --help. */
export const TRANSCRIPT_FLAGS: readonly FlagSpec[] = [
  { name: 'whole-file', kind: 'boolean', description: 'Claude Code: read every line, not only the chain the CLI resumes' },
  { name: 'include-sidechains', kind: 'boolean', description: 'Claude Code: include sub-agent (sidechain) messages (implies --whole-file)' },
  { name: 'instance', kind: 'number', valueName: 'N', description: 'LongMemEval: which instance to read (default 0)' },
  { name: 'max-size', kind: 'number', valueName: 'MB', description: 'refuse files larger than this (default 64)' },
  { name: 'help', short: 'h', kind: 'boolean', description: 'show this help' },
];

/** What a command says about itself in --help and in a usage error. */
export interface CommandHelp {
  name: string;
  usage: string;
  flags: readonly FlagSpec[];
  /** Printed after the options in --help (a blank line comes first). */
  helpTail?: string;
}

/** A command line read: its value, or the exit code of --help or of a usage error (both already printed). */
export type CommandLine<T> = { ok: true; value: T } | { ok: false; exit: number };

/** Runs `read` over the command line: 'help' prints the help (exit 0); a UsageError prints
 *  `ctxc NAME: message` and the usage line (exit 64). Any other error is thrown. */
export function readCommandLine<T>(cmd: CommandHelp, io: CliIO, read: () => T | 'help'): CommandLine<T> {
  try {
    const value = read();
    if (value === 'help') {
      io.out(`Usage: ${cmd.usage}\n\nOptions:\n${optionsHelp(cmd.flags)}\n${cmd.helpTail !== undefined ? `\n${cmd.helpTail}` : ''}`);
      return { ok: false, exit: EXIT_OK };
    }
    return { ok: true, value };
  } catch (e) {
    if (e instanceof UsageError) {
      // Values echoed from the command line are clipped where they are quoted; this bounds the rest.
      io.err(`ctxc ${cmd.name}: ${clip(e.message, 2 * MAX_ECHO_CHARS)}\nUsage: ${cmd.usage}\n`);
      return { ok: false, exit: EXIT_USAGE };
    }
    throw e;
  }
}

/** The one positional a command takes (FILE, ARCHIVE_ID), or a UsageError naming what is missing. */
export function onePositional(positionals: readonly string[], what: string): string {
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? `missing ${what}` : `one ${what} expected, got ${positionals.length}`);
  return positionals[0]!;
}

export interface FileArgs {
  file: string;
  args: ParsedArgs;
}

/** `COMMAND FILE [flags]`: 'help' for --help, else the one FILE and the flags. */
export function readFileArgs(argv: readonly string[], flags: readonly FlagSpec[]): FileArgs | 'help' {
  const args = parseArgs(argv, flags);
  if (booleanFlag(args, 'help')) return 'help';
  return { file: onePositional(args.positionals, 'FILE'), args };
}

/** How to read the transcript, from the TRANSCRIPT_FLAGS given. */
export function transcriptOptions(args: ParsedArgs): LoadOptions {
  const maxSize = numberFlag(args, 'max-size');
  const instance = numberFlag(args, 'instance');
  return {
    ...(maxSize !== undefined ? { maxBytes: Math.floor(maxSize * BYTES_PER_MB) } : {}),
    ...(instance !== undefined ? { instance } : {}),
    includeSidechains: booleanFlag(args, 'include-sidechains'),
    wholeFile: booleanFlag(args, 'whole-file'),
  };
}

/** Maps an error the command expects to its exit code, after printing it; undefined: not one of them. */
export type FailureReport = (e: unknown) => number | undefined;

/** Loads FILE (standard input for `-`), prints its warnings and runs `work` on it. A transcript
 *  error (from the load or the work) is `ctxc NAME: message` on stderr, exit 2; then `failure`
 *  may claim the error; anything else is thrown. */
export async function withTranscript(
  name: string,
  io: CliIO,
  file: string,
  options: LoadOptions,
  work: (loaded: LoadedTranscript) => Promise<number>,
  failure?: FailureReport,
): Promise<number> {
  try {
    const loaded = await loadTranscript(file, { ...options, ...(io.stdin ? { stdin: io.stdin } : {}) });
    printWarnings(io, inputName(file), loaded.warnings);
    return await work(loaded);
  } catch (e) {
    if (isTranscriptError(e)) {
      io.err(`ctxc ${name}: ${e.message}\n`);
      return EXIT_BAD_INPUT;
    }
    const code = failure?.(e);
    if (code !== undefined) return code;
    throw e;
  }
}

export interface FileCommandInput extends FileArgs {
  /** FILE as messages name it ("standard input" for `-`). */
  file: string;
  loaded: LoadedTranscript;
}

/** A whole `COMMAND FILE [flags]` run: readFileArgs through readCommandLine, then withTranscript
 *  with the transcriptOptions, then `work`. */
export async function runFileCommand(
  cmd: CommandHelp,
  argv: readonly string[],
  io: CliIO,
  work: (input: FileCommandInput) => Promise<number>,
  failure?: (e: unknown, file: string) => number | undefined,
): Promise<number> {
  const line = readCommandLine(cmd, io, () => readFileArgs(argv, cmd.flags));
  if (!line.ok) return line.exit;
  const { file, args } = line.value;
  const name = inputName(file);
  return withTranscript(cmd.name, io, file, transcriptOptions(args), (loaded) => work({ file: name, args, loaded }), failure && ((e) => failure(e, name)));
}
