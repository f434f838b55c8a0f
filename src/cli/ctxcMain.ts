// Process entry for every `ctxc` command but `hook` (bundled to dist/ctxc.js; dist/cli.js loads it).

import { main } from './main';
import { runProcess } from './processEntry';

runProcess(main, process.argv.slice(2));
