// The CLI's view of the outside world, so commands can be tested without a process.

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Standard input, which FILE `-` reads (absent: `-` is an error). */
  stdin?: AsyncIterable<Uint8Array | string>;
}

/** Exit codes, as the README's table lists them. */
export const EXIT_OK = 0;
/** An internal error: a bug, reported in one line (the stack with CTXC_DEBUG=1). */
export const EXIT_INTERNAL = 1;
/** Bad input: the transcript cannot be read (missing, permission denied, a folder, malformed),
 *  or --out names the transcript being read. */
export const EXIT_BAD_INPUT = 2;
/** --require-llm, and the LLM summary was not used (the extractive one was written). */
export const EXIT_LLM_FALLBACK = 3;
/** The output (--out, the --archive folder) could not be written; nothing was written. */
export const EXIT_WRITE_FAILED = 4;
/** A usage error (EX_USAGE). */
export const EXIT_USAGE = 64;

export class UsageError extends Error {}

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: CliIO): Promise<number>;
}
