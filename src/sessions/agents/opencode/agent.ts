// opencode: every folder's sessions in one SQLite database, `$XDG_DATA_HOME/opencode/opencode.db`
// (store.ts), read without SQLite and without disturbing opencode; a session is named
// `<database>#<session id>`. Resumed with `opencode -s <id>` (`opencode run -s <id> "…"` headless)
// from its folder; a compacted session is a new one that opencode itself imports (`opencode
// import`), never written into its database by us. Its hooks are a plugin: the must-keep facts
// for its summary prompt, and the loop guard on going on after an automatic compaction.

import { join } from 'node:path';
import { hookCommandLine } from '../../claudeHook/hookSettings';
import { readBackAs } from '../../readBack';
import { shellQuote } from '../../shellQuote';
import type { AgentModule } from '../agent';
import tested from '../testedVersions.json';
import { addOpencodeHooks, hasOpencodeHooks, OPENCODE_HOOK_EVENTS, opencodePluginEntry, removeOpencodeHooks } from './hookSettings';
import { opencodeUnavailable, registerOpencodeSession } from './register';
import { findOpencodeSessions } from './sessions';
import { opencodeDataDir, parseStoredSessionPath, readStoredSession } from './store';
import { opencodeSessionFile } from './write';

const versions = tested['opencode'];

export const opencodeAgent: AgentModule = {
  id: 'opencode',
  name: 'opencode',
  icon: 'code',
  settingKey: 'opencode',
  envVars: ['XDG_DATA_HOME', 'OPENCODE_DB'],
  where: '$XDG_DATA_HOME/opencode/opencode.db (default ~/.local/share; OPENCODE_DB), sessions whose folder is in the workspace',
  formats: ['opencode'],
  versions,
  find: findOpencodeSessions,
  // The database and its write-ahead log change as opencode writes.
  watch: (p) => [{ base: opencodeDataDir(p.env, p.home), pattern: 'opencode*.db*' }],
  store: {
    owns: (file) => parseStoredSessionPath(file) !== undefined,
    fileOf: (file) => parseStoredSessionPath(file)?.db ?? file,
    read: readStoredSession,
  },
  resume: {
    program: 'opencode',
    command: (id) => `opencode -s ${shellQuote(id)}`,
    sessionFile: (original, result, ctx) => opencodeSessionFile(original, result, ctx, versions.oldest),
    readBack: (file) => readBackAs('opencode', file),
    register: registerOpencodeSession,
    unavailable: opencodeUnavailable,
    // opencode's system prompt and tool definitions: the first request of a 1.18.33 session is
    // about 30 KB of JSON before the first prompt (~7k tokens).
    overheadEstimate: 7_000,
  },
  // Hooks are a plugin (plugin.ts) named in opencode's config, with the command it runs.
  hooks: {
    settingsFiles: (p) => [
      ...p.folders.map((folder) => ({ path: join(folder, 'opencode.json'), scope: 'workspace' as const, folder })),
      { path: join(p.env['XDG_CONFIG_HOME'] || join(p.home, '.config'), 'opencode', 'opencode.json'), scope: 'user' },
    ],
    events: OPENCODE_HOOK_EVENTS,
    commandLine: (cliPath, settings) => hookCommandLine(cliPath, settings, 'node', 'opencode'),
    entry: (command) => ({ plugin: [opencodePluginEntry(command)] }),
    add: addOpencodeHooks,
    remove: removeOpencodeHooks,
    has: hasOpencodeHooks,
    load: async () => (await import('./hook')).runOpencodeHook,
  },
};
