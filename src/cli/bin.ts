// Process entry for `ctxc` (bundled to dist/cli.js).

import { main } from './main';
import type { CliIO } from './io';

const io: CliIO = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  env: process.env,
  cwd: process.cwd(),
};

main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    // A bug, not a user error: one line, the stack only when asked for.
    io.err(`ctxc: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (process.env.CTXC_DEBUG && e instanceof Error) io.err(`${e.stack}\n`);
    process.exitCode = 1;
  },
);
