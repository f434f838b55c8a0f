// Claude Code: sessions in `~/.claude/projects/<folder>/<session>.jsonl` (CLAUDE_CONFIG_DIR moves
// ~/.claude), resumed with `claude --resume <id>` from the session's folder; a compacted session is
// a new file there. Its hooks are src/sessions/claudeHook.

import { join } from 'node:path';
import { addClaudeHooks, hasClaudeHooks, HOOK_EVENTS, hookCommandLine, hooksEntry, removeClaudeHooks } from '../../claudeHook/hookSettings';
import { claudeConfigDir, claudeProjectDir } from '../../locations';
import { shellQuote } from '../../shellQuote';
import { readBackAs } from '../../readBack';
import type { AgentModule } from '../agent';
import tested from '../testedVersions.json';
import { findClaudeCodeSessions } from './sessions';
import { claudeCodeSessionFile } from './write';

const versions = tested['claude-code'];

export const claudeCodeAgent: AgentModule = {
  id: 'claude-code',
  name: 'Claude Code',
  icon: 'sparkle',
  settingKey: 'claudeCode',
  envVars: ['CLAUDE_CONFIG_DIR'],
  where: '~/.claude/projects/<folder> (CLAUDE_CONFIG_DIR)',
  formats: ['claude-code'],
  versions,
  find: findClaudeCodeSessions,
  watch: (p) => p.folders.map((f) => ({ base: claudeProjectDir(p.env, p.home, f), pattern: '**/*.jsonl' })),
  resume: {
    program: 'claude',
    command: (id) => `claude --resume ${shellQuote(id)}`,
    sessionFile: (original, result, ctx) => claudeCodeSessionFile(original, result, ctx, versions.oldest),
    readBack: (file) => readBackAs('claude-code', file),
    // Claude Code's system prompt and tool definitions: about 57 KB in the prompt_snapshot of 2.1.332,
    // ~15-30k tokens depending on the tools; the smaller end, so a meter never overstates.
    overheadEstimate: 15_000,
  },
  hooks: {
    settingsFiles: (p) => [
      ...p.folders.map((folder) => ({ path: join(folder, '.claude', 'settings.json'), scope: 'workspace' as const, folder })),
      { path: join(claudeConfigDir(p.env, p.home), 'settings.json'), scope: 'user' },
    ],
    events: HOOK_EVENTS.map((e) => e.event),
    commandLine: (cliPath, settings) => hookCommandLine(cliPath, settings),
    entry: (command) => ({ hooks: hooksEntry(command) }),
    add: addClaudeHooks,
    remove: removeClaudeHooks,
    has: hasClaudeHooks,
    load: async () => (await import('../../claudeHook/claudeHook')).runClaudeCodeHook,
  },
};
