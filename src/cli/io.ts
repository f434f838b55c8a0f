// The CLI's view of the outside world, so commands can be tested without a process.

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** Exit codes: 0 ok, 1 the job failed, 2 bad input file, 64 usage error (EX_USAGE). */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_BAD_INPUT = 2;
export const EXIT_USAGE = 64;

export class UsageError extends Error {}

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: CliIO): Promise<number>;
}
