// GitHub Copilot CLI (npm `@github/copilot`): sessions in `<home>/session-state/<uuid>/events.jsonl`
// (COPILOT_HOME, default ~/.copilot), resumed with `copilot --resume=<id>` (`--continue` takes the
// newest); a compacted session is a new session folder there. Its hooks are in
// `<home>/hooks/context-compactor.json` (hookSettings.ts, copilotHook.ts).

import { readBackAs } from '../../readBack';
import { shellQuote } from '../../shellQuote';
import type { AgentModule } from '../agent';
import tested from '../testedVersions.json';
import {
  addCopilotHooks,
  copilotHookCommandLine,
  copilotHookFiles,
  copilotHooksEntry,
  COPILOT_HOOK_EVENTS,
  hasCopilotHooks,
  removeCopilotHooks,
} from './hookSettings';
import { copilotSessionStateDir, findCopilotCliSessions } from './sessions';
import { copilotCliSessionFile } from './write';

const versions = tested['copilot-cli'];

export const copilotCliAgent: AgentModule = {
  id: 'copilot-cli',
  name: 'Copilot CLI',
  icon: 'github',
  settingKey: 'copilotCli',
  envVars: ['COPILOT_HOME'],
  where: '~/.copilot/session-state/<id> (COPILOT_HOME), sessions whose folder is in the workspace',
  formats: ['copilot-cli'],
  versions,
  find: findCopilotCliSessions,
  watch: (p) => [{ base: copilotSessionStateDir(p.env, p.home), pattern: '*/events.jsonl' }],
  resume: {
    program: 'copilot',
    command: (id) => `copilot --resume=${shellQuote(id)}`,
    sessionFile: (original, result, ctx) => copilotCliSessionFile(original, result, ctx, versions.oldest),
    readBack: (file) => readBackAs('copilot-cli', file),
    // Copilot CLI's system prompt and tool definitions: 4,604 + 5,698 tokens by its own count in the
    // compaction events of 1.0.102 (about 22 KB of prompt and 26 KB of tools per request).
    overheadEstimate: 10_000,
  },
  hooks: {
    settingsFiles: copilotHookFiles,
    events: COPILOT_HOOK_EVENTS,
    commandLine: (cliPath, settings) => copilotHookCommandLine(cliPath, settings),
    entry: copilotHooksEntry,
    add: addCopilotHooks,
    remove: removeCopilotHooks,
    has: hasCopilotHooks,
    load: async () => (await import('./copilotHook')).runCopilotCliHook,
  },
};
