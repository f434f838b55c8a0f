// The extension inside the agents, against the vscode fake: "Install / Remove Agent Hooks" for
// every agent with hooks (Claude Code, Qwen Code, opencode, Copilot CLI: the exact JSON shown,
// asked, merged, refused on a broken file, removed exactly; the settings reach the installed
// command), the Copilot agent-mode tools (usage without confirmation,
// compaction with one, both on this workspace's real session files), and the MCP server offered
// where VS Code has the API (and not where it has not) — a definition that really serves.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as vscode from 'vscode';
import { LM_TOOLS, MCP_PROVIDER_ID } from '../../src/extension/ids';
import { HOOK_DEFAULTS, runClaudeCodeHook } from '../../src/sessions/claudeHook/claudeHook';
import { hookCommandLine, hooksEntry } from '../../src/sessions/claudeHook/hookSettings';
import { HOOK_BIN, HOOK_BUNDLES } from '../../src/extension/agents/hookBin';
import { agentById } from '../../src/sessions/agents/registry';
import { copilotHookCommandLine, copilotHooksEntry } from '../../src/sessions/agents/copilot-cli/hookSettings';
import { claudeProjectName } from '../../src/sessions/locations';
import { bigTurn, claudeLines, jsonl, writeFileIn } from '../helpers/agentSessions';
import { repoRoot } from '../helpers/transcripts';
import { standInEngine } from '../fakes/compactionEngine';
import { activateHost, HOST_SETTLES, type ActivatedHost } from '../fakes/extensionHost';
import {
  CancellationTokenSource,
  fake,
  McpStdioServerDefinition,
  resetFake,
  type LanguageModelTextPart,
  type LanguageModelToolResult,
  type MarkdownString,
} from '../fakes/vscode';

const root = mkdtempSync(join(tmpdir(), 'ctxc-ext-agents-'));
const home = join(root, 'home');
const work = join(root, 'work');
const cli = join(repoRoot, 'dist', 'cli.js');
const SESSION = '22222222-2222-4222-8222-222222222222';
const sessionFile = join(home, '.claude', 'projects', claudeProjectName(work), `${SESSION}.jsonl`);
const saved = {
  HOME: process.env['HOME'],
  CLAUDE_CONFIG_DIR: process.env['CLAUDE_CONFIG_DIR'],
  XDG_CONFIG_HOME: process.env['XDG_CONFIG_HOME'],
  XDG_DATA_HOME: process.env['XDG_DATA_HOME'],
  XDG_STATE_HOME: process.env['XDG_STATE_HOME'],
};
const stateDir = join(root, 'state', 'context-compactor');

beforeAll(() => {
  // The tools read the sessions of HOME; none of this machine's own may leak in or be touched.
  process.env['HOME'] = home;
  process.env['CLAUDE_CONFIG_DIR'] = join(home, '.claude');
  process.env['XDG_CONFIG_HOME'] = join(root, 'xdg');
  process.env['XDG_DATA_HOME'] = join(root, 'xdg-data');
  process.env['XDG_STATE_HOME'] = join(root, 'state');
  mkdirSync(work, { recursive: true });
  const turns = ['alpha', 'bravo', 'charlie', 'delta'].map((t) => bigTurn(t, 60));
  turns[0]!.user = 'TURN-alpha: read notes-alpha.txt and restate it. | <b>not markup</b>';
  writeFileIn(sessionFile, jsonl(claudeLines({ sessionId: SESSION, cwd: work, turns })));
});

afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(root, { recursive: true, force: true });
});

let host: ActivatedHost;
beforeEach(() => {
  resetFake();
  fake.setWorkspaceRoot(work);
});
afterEach(() => host?.deactivate());

const settingsFile = join(work, '.claude', 'settings.json');
const EXISTING = `{\n    "model": "opus",\n    "hooks": {\n        "PreCompact": [{ "hooks": [{ "type": "command", "command": "echo mine" }] }]\n    }\n}\n`;

describe('Install / Remove Agent Hooks', () => {
  beforeEach(() => {
    host = activateHost(standInEngine());
    mkdirSync(join(work, '.claude'), { recursive: true });
    writeFileSync(settingsFile, EXISTING);
  });

  const install = async (answer: string | undefined) => {
    fake.answers.quickPick.push((items) => items[0]);
    fake.answers.warning.push(answer);
    await fake.command('contextCompactor.installClaudeHooks')!();
  };

  it('offers this workspace and the user settings, shows the exact JSON, and merges it keeping everything else', async () => {
    await install('Install');
    const picked = fake.state.quickPicks[0]!.items.map((i) => i.label);
    // Every agent with hooks, from the registry's order (opencode's user config is under
    // XDG_CONFIG_HOME, outside the home here: shown whole).
    expect(picked).toEqual([
      '$(folder) work/.claude/settings.json',
      '$(account) ~/.claude/settings.json',
      '$(folder) work/.qwen/settings.json',
      '$(account) ~/.qwen/settings.json',
      '$(folder) work/opencode.json',
      `$(account) ${join(root, 'xdg', 'opencode', 'opencode.json')}`,
      '$(account) ~/.copilot/hooks/context-compactor.json',
    ]);
    expect(fake.state.quickPicks[0]!.items.map((i) => i.description)).toEqual([
      'Claude Code · this workspace',
      'Claude Code · all your projects',
      'Qwen Code · this workspace',
      'Qwen Code · all your projects',
      'opencode · this workspace',
      'opencode · all your projects',
      'Copilot CLI · all your projects',
    ]);
    const command = hookCommandLine(join(host.context.globalStorageUri.fsPath, HOOK_BIN, 'cli.js'));
    const modal = fake.messages.find((m) => m.modal)!;
    expect(modal.message).toBe(`Add the Claude Code hooks to ${settingsFile}?`);
    expect(modal.detail).toContain(JSON.stringify({ hooks: hooksEntry(command) }, null, 2));
    const written = JSON.parse(readFileSync(settingsFile, 'utf8'));
    expect(written.model).toBe('opus');
    expect(written.hooks.PreCompact).toEqual([{ hooks: [{ type: 'command', command: 'echo mine' }] }, { hooks: [{ type: 'command', command }] }]);
    expect(written.hooks.SessionStart).toEqual([{ matcher: 'compact', hooks: [{ type: 'command', command }] }]);
    // The file's own indentation is kept.
    expect(readFileSync(settingsFile, 'utf8')).toMatch(/^\{\n {4}"model"/);
    expect(fake.messages.at(-1)!.message).toBe(`Claude Code hooks installed in ${settingsFile}. Claude Code reads them when a session starts.`);
  });

  it('writes the hook settings into the command: changing one changes what is installed', async () => {
    fake.setConfig('contextCompactor.claudeHook.maxTokens', 500);
    fake.setConfig('contextCompactor.claudeHook.loopLimit', 5);
    await install('Install');
    const text = readFileSync(settingsFile, 'utf8');
    expect(text).toContain('hook claude-code --max-tokens 500 --loop-limit 5');
    // Installing again with other settings replaces the entry instead of adding a second.
    fake.setConfig('contextCompactor.claudeHook.maxTokens', 900);
    await install('Install');
    const again = JSON.parse(readFileSync(settingsFile, 'utf8'));
    expect(again.hooks.UserPromptSubmit).toHaveLength(1);
    expect(again.hooks.UserPromptSubmit[0].hooks[0].command).toContain('--max-tokens 900 --loop-limit 5');
    expect(fake.messages.filter((m) => m.modal).at(-1)!.detail).toContain('It replaces the 3 entries an earlier install added.');
  });

  it("runs a copy of ctxc whose path outlives an update (the extension's folder is named by its version); another build renews it", async () => {
    await install('Install');
    const bin = join(host.context.globalStorageUri.fsPath, HOOK_BIN);
    const command = JSON.parse(readFileSync(settingsFile, 'utf8')).hooks.UserPromptSubmit[0].hooks[0].command as string;
    expect(command).toBe(hookCommandLine(join(bin, 'cli.js')));
    expect(command).not.toContain(repoRoot);
    for (const b of HOOK_BUNDLES) expect(readFileSync(join(bin, b)).equals(readFileSync(join(repoRoot, 'dist', b))), b).toBe(true);
    // The copy runs: bad input on stdin, exit 0 and nothing on stdout, as the hook answers it.
    const run = spawnSync(process.execPath, [join(bin, 'cli.js'), 'hook', 'claude-code'], { input: 'not json', encoding: 'utf8', timeout: 30_000 });
    expect([run.status, run.stdout]).toEqual([0, '']);
    // Left by an older build: the next activation of this one renews it.
    writeFileSync(join(bin, 'hook.js'), '// an older build');
    writeFileSync(join(bin, 'source.json'), '{"from":"/old/context-compactor-0.0.9/dist"}');
    host.deactivate();
    host = activateHost(standInEngine(), host.profile);
    await vi.waitFor(() => expect(readFileSync(join(bin, 'hook.js')).equals(readFileSync(join(repoRoot, 'dist', 'hook.js')))).toBe(true), HOST_SETTLES);
  });

  it('changes nothing when the question is dismissed', async () => {
    await install(undefined);
    expect(readFileSync(settingsFile, 'utf8')).toBe(EXISTING);
  });

  it('refuses a settings file that is not valid JSON, saying where it breaks, and leaves it alone', async () => {
    writeFileSync(settingsFile, '{\n  "model": "opus",\n  "hooks": {\n}\n');
    await install('Install');
    const error = fake.messages.find((m) => m.kind === 'error')!;
    expect(error.message).toMatch(
      /settings\.json is not valid JSON \(line \d+, column \d+: expected .*\)\. Fix it, or add the hooks by hand as the README shows\. Nothing was changed\./,
    );
    expect(readFileSync(settingsFile, 'utf8')).toBe('{\n  "model": "opus",\n  "hooks": {\n}\n');
    expect(fake.messages.some((m) => m.modal)).toBe(false);
  });

  it('removes exactly what it added', async () => {
    await install('Install');
    fake.answers.warning.push('Remove');
    await fake.command('contextCompactor.removeClaudeHooks')!();
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual(JSON.parse(EXISTING));
    expect(fake.messages.at(-1)!.message).toBe(`Claude Code hooks removed from ${settingsFile}.`);
    // Nothing of ours is left to remove.
    await fake.command('contextCompactor.removeClaudeHooks')!();
    expect(fake.messages.at(-1)!.message).toMatch(/No Context Compactor hooks were found/);
  });

  it("installs Copilot CLI's hooks as a file of their own, and removing them removes the file", async () => {
    const copilotFile = join(home, '.copilot', 'hooks', 'context-compactor.json');
    fake.answers.quickPick.push((items) => items.find((i) => i.label.includes('.copilot'))!);
    fake.answers.warning.push('Install');
    await fake.command('contextCompactor.installClaudeHooks')!();
    const command = copilotHookCommandLine(join(host.context.globalStorageUri.fsPath, HOOK_BIN, 'cli.js'));
    const modal = fake.messages.find((m) => m.modal)!;
    expect(modal.message).toBe(`Add the Copilot CLI hooks to ${copilotFile}?`);
    expect(modal.detail).toContain(JSON.stringify(copilotHooksEntry(command), null, 2));
    expect(JSON.parse(readFileSync(copilotFile, 'utf8'))).toEqual(copilotHooksEntry(command));
    expect(fake.messages.at(-1)!.message).toBe(`Copilot CLI hooks installed in ${copilotFile}. Copilot CLI reads them when a session starts.`);
    // Claude Code's settings hold none of ours: the Copilot file is the only one to offer.
    fake.answers.warning.push('Remove');
    await fake.command('contextCompactor.removeClaudeHooks')!();
    expect(fake.messages.filter((m) => m.modal).at(-1)!.detail).toContain('The file holds nothing else and is removed.');
    expect(existsSync(copilotFile)).toBe(false);
    expect(fake.messages.at(-1)!.message).toBe(`Copilot CLI hooks removed from ${copilotFile}.`);
  });
});

describe('Install / Remove Agent Hooks: Qwen Code', () => {
  const qwenSettings = join(work, '.qwen', 'settings.json');
  beforeEach(() => {
    host = activateHost(standInEngine());
    mkdirSync(join(work, '.qwen'), { recursive: true });
    writeFileSync(qwenSettings, '{\n  "model": { "name": "qwen3-coder-plus" }\n}\n');
  });

  it("adds the registry's Qwen Code entry to the workspace's .qwen/settings.json, and takes out exactly it", async () => {
    fake.setConfig('contextCompactor.claudeHook.maxTokens', 700);
    fake.answers.quickPick.push((items) => items.find((i) => i.label === '$(folder) work/.qwen/settings.json'));
    fake.answers.warning.push('Install');
    await fake.command('contextCompactor.installClaudeHooks')!();
    const command = hookCommandLine(join(host.context.globalStorageUri.fsPath, HOOK_BIN, 'cli.js'), { maxTokens: 700 }, 'node', 'qwen-code');
    expect(command).toMatch(/ hook qwen-code --max-tokens 700$/);
    expect(fake.messages.find((m) => m.modal)!.message).toBe(`Add the Qwen Code hooks to ${qwenSettings}?`);
    const written = JSON.parse(readFileSync(qwenSettings, 'utf8'));
    expect(written).toEqual({ model: { name: 'qwen3-coder-plus' }, ...(agentById('qwen-code')!.hooks!.entry(command) as object) });
    expect(written.hooks.PreCompact).toEqual([{ matcher: '*', hooks: [{ type: 'command', command }] }]);
    fake.answers.warning.push('Remove');
    await fake.command('contextCompactor.removeClaudeHooks')!();
    expect(JSON.parse(readFileSync(qwenSettings, 'utf8'))).toEqual({ model: { name: 'qwen3-coder-plus' } });
    expect(fake.messages.at(-1)!.message).toBe(`Qwen Code hooks removed from ${qwenSettings}.`);
  });
});

describe("the loop guard's reason in VS Code", () => {
  it('shows it once when the hook records a blocked automatic compaction (Claude Code does not)', async () => {
    mkdirSync(join(stateDir, 'claude-code'), { recursive: true });
    host = activateHost(standInEngine());
    const input = JSON.stringify({ session_id: 'sess-loop-1', transcript_path: sessionFile, hook_event_name: 'PreCompact', trigger: 'auto' });
    const state = join(stateDir, 'claude-code', 'sess-loop-1.json');
    const settle = () => new Promise((r) => setTimeout(r, 50));
    await runClaudeCodeHook(input, { ...HOOK_DEFAULTS, loopLimit: 1, stateDir });
    // The hook's state folder is watched: the change reaches the extension.
    expect(fake.fileEvent(state, 'change')).toBe(1);
    await settle();
    expect(fake.messages.filter((m) => m.kind === 'warning')).toEqual([]);
    const blocked = await runClaudeCodeHook(input, { ...HOOK_DEFAULTS, loopLimit: 1, stateDir });
    expect(blocked.output?.['decision']).toBe('block');
    fake.fileEvent(state, 'change');
    fake.fileEvent(state, 'change');
    await vi.waitFor(() => expect(fake.messages.filter((m) => m.kind === 'warning')).toHaveLength(1), HOST_SETTLES);
    await settle();
    const warnings = fake.messages.filter((m) => m.kind === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toBe(`Claude Code session sess-loo: ${String(blocked.output?.['reason'])}`);
  });
});

describe("Copilot agent mode's tools", () => {
  beforeEach(() => {
    host = activateHost(standInEngine());
  });

  const token = () => new CancellationTokenSource().token as unknown as vscode.CancellationToken;
  const tool = (name: string) => fake.lmTool(name)!;
  const text = (r: unknown) => ((r as LanguageModelToolResult).content as LanguageModelTextPart[]).map((p) => p.value).join('');

  it('are contributed in package.json with schemas and localized descriptions, and registered', () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      contributes: {
        languageModelTools: {
          name: string;
          toolReferenceName: string;
          canBeReferencedInPrompt: boolean;
          modelDescription: string;
          userDescription: string;
          inputSchema: { type: string };
        }[];
      };
    };
    const nls = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const zh = JSON.parse(readFileSync(join(repoRoot, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;
    const tools = manifest.contributes.languageModelTools;
    expect(tools.map((t) => t.name).sort()).toEqual(Object.values(LM_TOOLS).sort());
    for (const t of tools) {
      expect(fake.lmTool(t.name), t.name).toBeDefined();
      expect(t.canBeReferencedInPrompt).toBe(true);
      expect(t.inputSchema.type).toBe('object');
      for (const key of [t.modelDescription, t.userDescription]) {
        const k = key.replace(/^%|%$/g, '');
        expect(nls[k], k).toBeTruthy();
        expect(zh[k], k).toBeTruthy();
      }
    }
  });

  it('sessionUsage reports the sessions of this workspace and what fills the latest, without asking', async () => {
    const prepared = (await tool(LM_TOOLS.sessionUsage).prepareInvocation!({ input: {} }, token())) as vscode.PreparedToolInvocation;
    expect(prepared.confirmationMessages).toBeUndefined();
    expect(prepared.invocationMessage).toBe("Reading this workspace's agent sessions");
    const out = text(await tool(LM_TOOLS.sessionUsage).invoke({ input: {}, toolInvocationToken: undefined }, token()));
    expect(out).toMatch(new RegExp(`^1 agent session of this workspace.*\\n\\n- claude-code ${SESSION}: [\\d,]+ / [\\d,]+ \\(`));
    // The session's own words are quoted as data.
    expect(out).toContain('\\| ‹b\\>not markup‹/b\\>');
    expect(out).toMatch(/What fills the most recently active one .*\n- Tool results: [\d,]+ tokens \(\d+(\.\d)?%\)/);
    const none = text(await tool(LM_TOOLS.sessionUsage).invoke({ input: { agent: 'codex' }, toolInvocationToken: undefined }, token()));
    expect(none).toBe('No codex sessions were found for this workspace.');
  });

  it('compactSession asks first, naming the session and its size, then returns the handoff and changes no file', async () => {
    const before = readFileSync(sessionFile);
    const prepared = (await tool(LM_TOOLS.compactSession).prepareInvocation!({ input: {} }, token())) as vscode.PreparedToolInvocation;
    expect(prepared.confirmationMessages?.title).toBe('Compact an agent session?');
    const message = prepared.confirmationMessages!.message as unknown as MarkdownString;
    expect(message.value).toMatch(/^Compact the claude-code session "TURN-alpha: read notes-alpha.txt and restate it. \\\| .*" \([\d,]+ of [\d,]+ tokens\)/);
    const out = text(await tool(LM_TOOLS.compactSession).invoke({ input: {}, toolInvocationToken: undefined }, token()));
    // The figures every surface shows (this session records no usage: nothing outside the file).
    expect(out).toMatch(
      new RegExp(`^claude-code session ${SESSION}: [\\d,]+ → [\\d,]+ tokens \\([\\d.]+x, \\d+% of the original\\)\\. The handoff follows\\.\\n\\n# Handoff: `),
    );
    expect(out).toContain('## Primary Request and Intent');
    expect(readFileSync(sessionFile).equals(before)).toBe(true);
    expect(readdirSync(join(home, '.claude', 'projects', claudeProjectName(work)))).toEqual([`${SESSION}.jsonl`]);
  });

  it('compactSession with an id no session has says so', async () => {
    await expect(tool(LM_TOOLS.compactSession).prepareInvocation!({ input: { sessionId: 'nope-nope-nope' } }, token())).rejects.toThrow(
      'No single agent session of this workspace has the id nope-nope-nope.',
    );
  });
});

describe('the MCP server offered to VS Code', () => {
  it('is not offered where VS Code has no MCP API (before 1.101), and says so in the log', () => {
    host = activateHost(standInEngine());
    expect(fake.state.mcpProviders.size).toBe(0);
    expect(fake.outputChannel('Context Compactor')!.lines.join('\n')).toMatch(/no MCP server API/);
  });

  it('is offered where it has one: VS Code runs dist/cli.js mcp with its own runtime in the workspace folder, and it serves', async () => {
    fake.setMcpApi(true);
    host = activateHost(standInEngine());
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { contributes: { mcpServerDefinitionProviders: { id: string }[] } };
    expect(manifest.contributes.mcpServerDefinitionProviders.map((p) => p.id)).toEqual([MCP_PROVIDER_ID]);
    const provider = fake.state.mcpProviders.get(MCP_PROVIDER_ID)!;
    const [def] = provider.provideMcpServerDefinitions(token()) as McpStdioServerDefinition[];
    expect(def).toBeInstanceOf(McpStdioServerDefinition);
    expect([def!.label, def!.command, def!.args, def!.env]).toEqual(['Context Compactor', process.execPath, [cli, 'mcp'], { ELECTRON_RUN_AS_NODE: '1' }]);
    expect(def!.cwd?.fsPath).toBe(work);
    const client = new Client({ name: 'vscode-fake', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: def!.command,
        args: def!.args,
        cwd: def!.cwd!.fsPath,
        env: { ...(def!.env as Record<string, string>), HOME: home, PATH: process.env['PATH'] ?? '' },
        stderr: 'pipe',
      }),
    );
    try {
      const listed = (await client.callTool({ name: 'list_sessions', arguments: {} })) as { content: { text: string }[] };
      expect(JSON.parse(listed.content[0]!.text).sessions.map((s: { id: string }) => s.id)).toEqual([SESSION]);
    } finally {
      await client.close();
    }
  });

  function token(): vscode.CancellationToken {
    return new CancellationTokenSource().token as unknown as vscode.CancellationToken;
  }
});
