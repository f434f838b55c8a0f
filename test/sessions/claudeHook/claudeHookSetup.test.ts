// Setting the hook up: the settings.json entry (added without disturbing anything, removed
// exactly), and `ctxc hook claude-code` as Claude Code runs it — a process reading stdin, whose exit
// code is never 2 (a blocking error to Claude Code).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addClaudeHooks,
  hasClaudeHooks,
  hookCommandLine,
  hooksEntry,
  jsonIndent,
  removeClaudeHooks,
  SettingsShapeError,
  shellDoubleQuote,
} from '../../../src/sessions/claudeHook/hookSettings';
import { jsonl } from '../../helpers/agentSessions';
import { compactedSession, FACTS } from '../../helpers/claudeCompaction';
import { repoRoot } from '../../helpers/transcripts';
import { README_CLI_PLACEHOLDER, readmeBlock } from '../../../scripts/agents/readme.mjs';

const root = mkdtempSync(join(tmpdir(), 'ctxc-hook-setup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const cli = join(repoRoot, 'dist', 'cli.js');

describe('the settings.json entry', () => {
  const command = hookCommandLine('/opt/ext dir/dist/cli.js');

  it('is node "<cli.js>" hook claude-code on PreCompact, SessionStart (matcher compact) and UserPromptSubmit', () => {
    expect(command).toBe('node "/opt/ext dir/dist/cli.js" hook claude-code');
    expect(hooksEntry(command)).toEqual({
      PreCompact: [{ hooks: [{ type: 'command', command }] }],
      SessionStart: [{ matcher: 'compact', hooks: [{ type: 'command', command }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }],
    });
  });

  it('carries only the settings that differ from the defaults, and quotes what the shell would expand', () => {
    expect(hookCommandLine('/x/cli.js', { maxTokens: 2000, loopLimit: 5, loopMinutes: 10 })).toBe('node "/x/cli.js" hook claude-code --loop-limit 5');
    expect(hookCommandLine('/x/cli.js', { maxTokens: 500, loopLimit: 3, loopMinutes: 20 })).toBe(
      'node "/x/cli.js" hook claude-code --max-tokens 500 --loop-minutes 20',
    );
    expect(shellDoubleQuote('/a "b" $HOME `x` \\y')).toBe('"/a \\"b\\" \\$HOME \\`x\\` \\\\y"');
  });

  it('is added beside the existing hooks and keys, and removed exactly', () => {
    const before = {
      model: 'opus',
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        PreCompact: [{ hooks: [{ type: 'command', command: 'echo mine' }] }],
        PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier --write' }] }],
      },
    };
    const added = addClaudeHooks(before, command);
    expect(added.added).toBe(3);
    const s = added.settings as typeof before & { hooks: Record<string, unknown[]> };
    expect(s.model).toBe('opus');
    expect(s.permissions).toEqual(before.permissions);
    expect(s.hooks['PreCompact']).toEqual([before.hooks.PreCompact[0], { hooks: [{ type: 'command', command }] }]);
    expect(s.hooks['PostToolUse']).toEqual(before.hooks.PostToolUse);
    expect(hasClaudeHooks(s)).toBe(true);
    const removed = removeClaudeHooks(s);
    expect(removed.removed).toBe(3);
    expect(removed.settings).toEqual(before);
    expect(hasClaudeHooks(removed.settings)).toBe(false);
  });

  it('installing again replaces the earlier install (a moved extension, other flags) instead of adding a second', () => {
    const once = addClaudeHooks({}, hookCommandLine('/old/cli.js')).settings;
    const twice = addClaudeHooks(once, hookCommandLine('/new/cli.js', { maxTokens: 900 }));
    expect(twice.removed).toBe(3);
    expect(JSON.stringify(twice.settings)).not.toContain('/old/cli.js');
    expect(twice.settings).toEqual({ hooks: hooksEntry('node "/new/cli.js" hook claude-code --max-tokens 900') });
    expect(removeClaudeHooks(twice.settings).settings).toEqual({});
  });

  it("keeps a group that also holds someone else's handler", () => {
    const shared = {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              { type: 'command', command: 'log-prompt' },
              { type: 'command', command },
            ],
          },
        ],
      },
    };
    expect(removeClaudeHooks(shared).settings).toEqual({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'log-prompt' }] }] } });
  });

  it.each([
    ['an array', [], /not an object/],
    ['hooks that is not an object', { hooks: [] }, /'hooks' is not an object/],
    ['an event that is not a list', { hooks: { PreCompact: { command: 'x' } } }, /'hooks.PreCompact' is not a list/],
  ])('refuses a settings value that is %s', (_what, value, why) => {
    expect(() => addClaudeHooks(value, command)).toThrow(SettingsShapeError);
    expect(() => addClaudeHooks(value, command)).toThrow(why);
  });

  it("is the README's snippet for setting it up by hand (which npm run test:agents installs in the real Claude Code)", () => {
    expect(JSON.parse(readmeBlock(repoRoot, 'claude-code-hooks', 'json'))).toEqual({ hooks: hooksEntry(hookCommandLine(README_CLI_PLACEHOLDER)) });
  });

  it('writes back with the indentation the file had', () => {
    expect(jsonIndent('{\n    "a": 1\n}')).toBe('    ');
    expect(jsonIndent('{\n\t"a": 1\n}')).toBe('\t');
    expect(jsonIndent('{}')).toBe(2);
  });
});

describe('ctxc hook claude-code as a process', () => {
  function hook(args: string[], stdin: string, env: Record<string, string> = {}) {
    return spawnSync(process.execPath, [cli, 'hook', ...args], {
      input: stdin,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', HOME: root, ...env },
    });
  }

  it('reads the event on stdin and prints one JSON object: the repair at the next prompt after a compaction', () => {
    const t = join(root, 'session.jsonl');
    const state = join(root, 'xdg-state');
    writeFileSync(t, jsonl(compactedSession({ withoutCompaction: true }).lines));
    const ev = (e: string, extra = {}) => JSON.stringify({ session_id: 's', transcript_path: t, hook_event_name: e, ...extra });
    for (const [e, extra] of [
      ['PreCompact', { trigger: 'manual' }],
      ['SessionStart', { source: 'compact' }],
    ] as const) {
      const r = hook(['claude-code'], ev(e, extra), { XDG_STATE_HOME: state });
      expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
    }
    writeFileSync(t, jsonl(compactedSession().lines));
    const r = hook(['claude-code'], ev('UserPromptSubmit'), { XDG_STATE_HOME: state });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(out.hookSpecificOutput.additionalContext).toContain(FACTS.lateInstruction);
    // XDG_STATE_HOME decides where the state lives.
    expect(readFileSync(join(state, 'context-compactor', 'hook.log'), 'utf8')).toMatch(
      /UserPromptSubmit: manual compaction at byte [\d,]+, 5,123 tokens before it/,
    );
  });

  it('exits 0 with nothing on stdout for bad input, and says why on stderr', () => {
    const r = hook(['claude-code', '--state-dir', join(root, 's2')], 'not json');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^ctxc hook: standard input is not JSON/);
  });

  it('a broken command line is a usage error (64), never 2', () => {
    for (const args of [['codex'], [], ['claude-code', '--max-tokens', '0'], ['claude-code', '--bogus']]) {
      const r = hook(args, '{}');
      expect(r.status).toBe(64);
    }
  });
});
