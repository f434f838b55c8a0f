// Process entry for `ctxc` (dist/cli.js): only picks the bundle that runs the command. Claude Code
// starts `ctxc hook claude-code` for every hook event and waits for it, so that command loads its
// own small bundle (dist/hook.js) and never the whole CLI (dist/ctxc.js); `npm run bench` measures
// the start-up of both against a bare `node -e 0`.

import { join } from 'node:path';

const bundle = process.argv[2] === 'hook' ? 'hook.js' : 'ctxc.js';
// A path computed at run time: the bundler leaves it to Node, which loads the bundle beside this one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(join(__dirname, bundle));
