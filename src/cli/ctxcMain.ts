// Process entry for every `ctxc` command but `hook` (bundled to dist/ctxc.js; dist/cli.js loads it).

import { main } from './main';
import { EXIT_INTERNAL, type CliIO } from './io';
import { clip } from '../engine/text/clip';

// `ctxc compact … | head` closes the pipe early: that ends the output, it is not an error.
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

main(process.argv.slice(2), io).then(
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
