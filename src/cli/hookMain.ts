// Process entry for `ctxc hook` (bundled to dist/hook.js, which dist/cli.js loads for it): the hook
// command and what it imports, nothing else of the CLI, so each of Claude Code's hook events pays
// for little more than Node's own start.

import { hookCommand } from './commands/hook';
import { runProcess } from './processEntry';

// `cli.js hook claude-code …` (how the hooks run it), or this bundle run by itself.
const argv = process.argv.slice(2);
if (argv[0] === 'hook') argv.shift();

runProcess((args, io) => hookCommand.run(args, io), argv);
