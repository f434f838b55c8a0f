// Every ctxc command, in the order `ctxc --help` lists them.

import type { CliCommand } from '../io';
import { countCommand } from './count';
import { demoCommand } from './demo';

export const commands: CliCommand[] = [countCommand, demoCommand];
