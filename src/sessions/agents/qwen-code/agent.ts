// Qwen Code: sessions in `~/.qwen/projects/<folder>/chats/<id>.jsonl` (QWEN_HOME, QWEN_RUNTIME_DIR),
// resumed with `qwen -r <id>` from the session's folder; a compacted session is a new file there.
// Its hook (hook.ts) gives its own summariser the must-keep facts before it summarises.

import { join } from 'node:path';
import { readBackAs } from '../../readBack';
import { shellQuote } from '../../shellQuote';
import type { AgentModule } from '../agent';
import { claudeShapedHooks, hookCommandLine } from '../../claudeHook/hookSettings';
import tested from '../testedVersions.json';
import { findQwenSessions, qwenDir, qwenRuntimeDir } from './sessions';
import { qwenSessionFile } from './write';

const versions = tested['qwen-code'];
/** The events installed, as Qwen Code names them ("*": manual and automatic compactions). */
export const QWEN_HOOK_EVENTS = [{ event: 'PreCompact', matcher: '*' }] as const;
const hooks = claudeShapedHooks(QWEN_HOOK_EVENTS, 'qwen-code', 'Qwen Code');

export const qwenCodeAgent: AgentModule = {
  id: 'qwen-code',
  name: 'Qwen Code',
  icon: 'hubot',
  settingKey: 'qwenCode',
  envVars: ['QWEN_HOME', 'QWEN_RUNTIME_DIR'],
  where: '~/.qwen/projects/<folder>/chats (QWEN_HOME, QWEN_RUNTIME_DIR)',
  formats: ['qwen-code'],
  versions,
  find: findQwenSessions,
  watch: (p) => [{ base: join(qwenRuntimeDir(p.env, p.home), 'projects'), pattern: '*/chats/*.jsonl' }],
  resume: {
    program: 'qwen',
    command: (id) => `qwen -r ${shellQuote(id)}`,
    sessionFile: (original, result, ctx) => qwenSessionFile(original, result, ctx, versions.oldest),
    readBack: (file) => readBackAs('qwen-code', file),
    // Qwen Code's system prompt, tool declarations and the reminders it sends first, which the file
    // does not hold: 4,705, 5,827 and 2,401 tokens (o200k_base) in the first request of 0.24; a
    // little under, so a meter never overstates.
    overheadEstimate: 12_500,
  },
  hooks: {
    settingsFiles: (p) => [
      ...p.folders.map((folder) => ({ path: join(folder, '.qwen', 'settings.json'), scope: 'workspace' as const, folder })),
      { path: join(qwenDir(p.env, p.home), 'settings.json'), scope: 'user' },
    ],
    events: QWEN_HOOK_EVENTS.map((e) => e.event),
    commandLine: (cliPath, settings) => hookCommandLine(cliPath, settings, 'node', 'qwen-code'),
    entry: (command) => ({ hooks: hooks.entry(command) }),
    add: hooks.add,
    remove: hooks.remove,
    has: hooks.has,
    load: async () => (await import('./hook')).runQwenCodeHook,
  },
};
