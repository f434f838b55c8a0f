// What both process entries (dist/ctxc.js and dist/hook.js) do around their command: the process's
// streams as the CLI's io, an early-closed pipe as the end of the output, the exit code, and a bug
// said in one line (the stack only with CTXC_DEBUG). Imports nothing of the commands, so the hook's
// bundle stays small.

import { EXIT_INTERNAL, type CliIO } from './io';
import { clip } from '../engine/text/clip';

export function runProcess(run: (argv: string[], io: CliIO) => Promise<number>, argv: string[]): void {
  // `ctxc compact … | head`, or an agent that stops reading a hook's output: that ends the output,
  // it is not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
  const io: CliIO = {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
  };
  run(argv, io).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      // A bug, not a user error: one line, the stack only when asked for.
      io.err(`ctxc: internal error: ${clip(e instanceof Error ? e.message : String(e))}\n`);
      if (process.env.CTXC_DEBUG && e instanceof Error) io.err(`${e.stack}\n`);
      process.exitCode = EXIT_INTERNAL;
    },
  );
}
