// Process entry for `ctxc hook` (bundled to dist/hook.js, which dist/cli.js loads for it): the hook
// command and what it imports, nothing else of the CLI, so each of Claude Code's hook events pays
// for little more than Node's own start.

import { EXIT_INTERNAL, type CliIO } from './io';
import { hookCommand } from './commands/hook';
import { clip } from '../engine/text/clip';

// Claude Code may stop reading before the hook has written everything: that ends the output.
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

// `cli.js hook claude-code …` (how the hooks run it), or this bundle run by itself.
const argv = process.argv.slice(2);
if (argv[0] === 'hook') argv.shift();

hookCommand.run(argv, io).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    io.err(`ctxc: internal error: ${clip(e instanceof Error ? e.message : String(e))}\n`);
    if (process.env.CTXC_DEBUG && e instanceof Error) io.err(`${e.stack}\n`);
    process.exitCode = EXIT_INTERNAL;
  },
);
