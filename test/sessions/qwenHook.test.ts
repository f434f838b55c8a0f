// Qwen Code's PreCompact hook: the settings entry the registry installs (added without disturbing
// anything, removed exactly, the README's snippet), and `ctxc hook qwen-code` — the must-keep
// facts of the session as Qwen Code sends it, within what Qwen Code keeps of a hook's context, the
// loop guard that stops adding them, and bad input that never stops Qwen Code. Gemini CLI takes no
// hook, and says why.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RestoreItem } from '../../src/engine/validate/restoreFacts';
import { escapedLength, factsText, QWEN_FACTS_LEAD, QWEN_HOOK_CONTEXT_CHARS, runQwenCodeHook } from '../../src/sessions/agents/qwen-code/hook';
import { agentById } from '../../src/sessions/agents/registry';
import { HOOK_DEFAULTS } from '../../src/sessions/claudeHook/claudeHook';
import { hookCommandLine, SettingsShapeError } from '../../src/sessions/claudeHook/hookSettings';
import { fixturesDir, repoRoot } from '../helpers/transcripts';
import { README_CLI_PLACEHOLDER, readmeBlock } from '../../scripts/agents/readme.mjs';

const root = mkdtempSync(join(tmpdir(), 'ctxc-qwen-hook-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const cli = join(repoRoot, 'dist', 'cli.js');
const qwen = agentById('qwen-code')!;
const hooks = qwen.hooks!;

/** The fixture up to its /compress: two turns, the first reading notes.txt. */
const transcript = join(root, 'qwen-session.jsonl');
writeFileSync(transcript, readFileSync(join(fixturesDir, 'qwen-code-0.24.4-session.jsonl'), 'utf8').split('\n').slice(0, 12).join('\n') + '\n');
const input = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    session_id: 'q-1',
    transcript_path: transcript,
    cwd: root,
    hook_event_name: 'PreCompact',
    trigger: 'manual',
    custom_instructions: '',
    ...extra,
  });

describe("the settings entry (Qwen Code's settings.json, Claude Code's shape)", () => {
  const command = hookCommandLine('/opt/ext dir/dist/cli.js', {}, 'node', 'qwen-code');

  it('is node "<cli.js>" hook qwen-code on PreCompact for every trigger, in the workspace’s .qwen/settings.json or the user’s', () => {
    expect(command).toBe('node "/opt/ext dir/dist/cli.js" hook qwen-code');
    expect(hooks.entry(command)).toEqual({ hooks: { PreCompact: [{ matcher: '*', hooks: [{ type: 'command', command }] }] } });
    expect(hooks.settingsFiles({ folders: ['/w'], env: { QWEN_HOME: '/q' }, home: '/h' })).toEqual([
      { path: '/w/.qwen/settings.json', scope: 'workspace', folder: '/w' },
      { path: '/q/settings.json', scope: 'user' },
    ]);
  });

  it('is added beside the settings and hooks there, replaces an earlier install, and is removed exactly', () => {
    const mine = { matcher: 'manual', hooks: [{ type: 'command', command: 'echo mine' }] };
    const settings = { model: { name: 'qwen3-coder-plus' }, hooks: { PreCompact: [mine], Stop: [{ hooks: [{ type: 'command', command: 'echo stop' }] }] } };
    const once = hooks.add(settings, command);
    expect(once.added).toBe(1);
    const again = hooks.add(once.settings, hookCommandLine('/new/dist/cli.js', { maxTokens: 900 }, 'node', 'qwen-code'));
    expect(again.removed).toBe(1);
    expect((again.settings['hooks'] as { PreCompact: unknown[] }).PreCompact).toHaveLength(2);
    expect(hooks.has(again.settings)).toBe(true);
    const removed = hooks.remove(again.settings);
    expect(removed.settings).toEqual(settings);
    expect(hooks.has(removed.settings)).toBe(false);
    // Claude Code's entries are not ours to take out here, nor ours theirs.
    expect(hooks.has({ hooks: { PreCompact: [{ hooks: [{ type: 'command', command: 'node cli.js hook claude-code' }] }] } })).toBe(false);
  });

  it('refuses a settings value it cannot change safely', () => {
    expect(() => hooks.add([], command)).toThrow(SettingsShapeError);
    expect(() => hooks.add({ hooks: { PreCompact: {} } }, command)).toThrow(/'hooks.PreCompact' is not a list/);
  });

  it("is the README's snippet (which npm run test:agents installs in the real Qwen Code)", () => {
    expect(JSON.parse(readmeBlock(repoRoot, 'qwen-code-hooks', 'json'))).toEqual(hooks.entry(hookCommandLine(README_CLI_PLACEHOLDER, {}, 'node', 'qwen-code')));
  });
});

describe('ctxc hook qwen-code', () => {
  const at = (minute: number) => () => new Date(Date.UTC(2026, 10, 27, 10, minute));

  it("answers the session's must-keep facts as the summariser's additional context: the person's requests and the files", async () => {
    const stateDir = join(root, 'state-facts');
    const r = await runQwenCodeHook(input(), { ...HOOK_DEFAULTS, stateDir });
    const context = (r.output?.['hookSpecificOutput'] as { hookEventName: string; additionalContext: string }) ?? undefined;
    expect(context.hookEventName).toBe('PreCompact');
    expect(context.additionalContext.startsWith(QWEN_FACTS_LEAD)).toBe(true);
    for (const fact of ['Bump the version in package.json to 1.4.0.', 'Read notes.txt and tell me the release steps.', 'notes.txt'])
      expect(context.additionalContext).toContain(fact);
    const state = JSON.parse(readFileSync(join(stateDir, 'claude-code', 'q-1.json'), 'utf8')) as { compactions: { trigger: string; bytes: number }[] };
    expect(state.compactions).toEqual([expect.objectContaining({ trigger: 'manual', bytes: expect.any(Number) })]);
    expect(readFileSync(join(stateDir, 'hook.log'), 'utf8')).toMatch(/PreCompact \(Qwen Code\): manual compaction: \d+ must-keep facts/);
  });

  it('keeps within the 4,000 characters Qwen Code keeps once it has escaped < and >: the least important lines go first', () => {
    const item = (i: number): RestoreItem => ({
      category: 'request',
      fact: { kind: 'userMessage', value: `r${i}`, sourceId: `m${i}` } as RestoreItem['fact'],
      line: `- request ${i} <with markup> ${'x'.repeat(80)}`,
    });
    const items = Array.from({ length: 80 }, (_, i) => item(i));
    const text = factsText(items);
    expect(escapedLength(text)).toBeLessThanOrEqual(QWEN_HOOK_CONTEXT_CHARS);
    expect(text).toContain('request 0 ');
    expect(text).not.toContain('request 79 ');
    expect(escapedLength('a<b>')).toBe(10);
  });

  it('the loop guard: past the limit of automatic compactions it gives no facts and says why; a manual one is not counted', async () => {
    const stateDir = join(root, 'state-loop');
    const opts = { ...HOOK_DEFAULTS, loopLimit: 2, loopMinutes: 10, stateDir };
    await runQwenCodeHook(input({ trigger: 'manual' }), { ...opts, now: at(0) });
    for (const minute of [1, 2])
      expect((await runQwenCodeHook(input({ trigger: 'auto' }), { ...opts, now: at(minute) })).output).toHaveProperty('hookSpecificOutput');
    const third = await runQwenCodeHook(input({ trigger: 'auto' }), { ...opts, now: at(3) });
    expect(third.output).toEqual({ systemMessage: third.message });
    expect(third.message).toMatch(/automatic compaction number 3 of this Qwen Code session within 10 minutes .* A hook cannot stop Qwen Code compacting/);
    // Outside the window, facts again.
    expect((await runQwenCodeHook(input({ trigger: 'auto' }), { ...opts, now: at(30) })).output).toHaveProperty('hookSpecificOutput');
  });

  it('never stops Qwen Code over bad input: no output, one line saying why', async () => {
    const stateDir = join(root, 'state-bad');
    expect(await runQwenCodeHook('not json', { ...HOOK_DEFAULTS, stateDir })).toEqual({
      message: expect.stringMatching(/^ctxc hook: standard input is not JSON/),
    });
    expect(await runQwenCodeHook(input({ hook_event_name: 'Stop' }), { ...HOOK_DEFAULTS, stateDir })).toEqual({
      message: "ctxc hook: hook_event_name 'Stop': this hook handles PreCompact",
    });
    expect(await runQwenCodeHook(input({ transcript_path: join(root, 'gone.jsonl') }), { ...HOOK_DEFAULTS, stateDir })).toEqual({
      message: expect.stringMatching(/gone\.jsonl cannot be read \(ENOENT\); no facts added$/),
    });
  });

  it('runs as a process: the event on stdin, one JSON object on stdout, exit 0; Gemini CLI takes no hook (64, and why)', () => {
    const env = { PATH: process.env['PATH'] ?? '', HOME: root, XDG_STATE_HOME: join(root, 'xdg') };
    const r = spawnSync(process.execPath, [cli, 'hook', 'qwen-code'], { input: input(), encoding: 'utf8', env });
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext).toContain(QWEN_FACTS_LEAD);
    const g = spawnSync(process.execPath, [cli, 'hook', 'gemini-cli'], { input: '{}', encoding: 'utf8', env });
    expect(g.status).toBe(64);
    expect(g.stderr).toMatch(/Gemini CLI takes no hook of ours \(the README's "Inside the agents" says why\); agents with hooks: claude-code, qwen-code/);
  });
});
