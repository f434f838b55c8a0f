// Every ctxc command, in the order `ctxc --help` lists them.

import type { CliCommand } from '../io';
import { compactCommand } from './compact';
import { countCommand } from './count';
import { demoCommand } from './demo';
import { hookCommand } from './hook';
import { inspectCommand } from './inspect';
import { mcpCommand } from './mcp';
import { sessionsCommand } from './sessions';
import { strategiesCommand } from './strategies';
import { undoCommand } from './undo';

export const commands: CliCommand[] = [
  countCommand,
  compactCommand,
  undoCommand,
  inspectCommand,
  sessionsCommand,
  hookCommand,
  mcpCommand,
  strategiesCommand,
  demoCommand,
];
