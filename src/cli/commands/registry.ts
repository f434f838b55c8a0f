// Every ctxc command, in the order `ctxc --help` lists them.

import type { CliCommand } from '../io';

export const commands: CliCommand[] = [];
