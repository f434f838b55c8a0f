// The agent registry: one module per agent, read by every surface; and what every session written
// for an agent gets from it alike — a private file, the folder the agent looks in from here, a
// read-back with the agent's own rules, the original's measured figures, and the version check.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { compactConversation } from '../../src/engine/compactor';
import { importClaudeCode } from '../../src/engine/conversation/importers/claudeCode';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { AGENT_IDS, AGENT_MODULES, agentById, resumableAgent, usageSourceLabel } from '../../src/sessions/agents/registry';
import testedVersions from '../../src/sessions/agents/testedVersions.json';
import { compareVersions, newerThanTested } from '../../src/sessions/agents/versions';
import { claudeProjectName } from '../../src/sessions/locations';
import { listSessions } from '../../src/sessions/sessionCatalog';
import { inheritedFigures, ReadBackError, SESSION_FILE_MODE, writeCompactedSession } from '../../src/sessions/writeSession';
import { bigTurn, claudeLines, jsonl, writeFileIn, type Turn } from '../helpers/agentSessions';
import { tokenReport } from '../../src/engine/tokens/report';

const root = mkdtempSync(join(tmpdir(), 'ctxc-registry-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const TURNS: Turn[] = ['alpha', 'bravo', 'charlie', 'delta'].map((t) => bigTurn(t, 40));

async function compacted(cwd: string, version = '2.1.328') {
  const text = jsonl(claudeLines({ sessionId: 'orig', cwd, turns: TURNS, version }));
  const conv = importClaudeCode(text).conversation;
  const counter = await createTokenCounter(conv.meta.model);
  const result = await compactConversation(conv, { counter, archive: new MemoryArchive(), keepRecentRounds: 1 });
  return { conv, result, counter, text };
}

describe('the registry', () => {
  it('knows each agent once, with a name, an icon, a setting and where its sessions are', () => {
    expect(new Set(AGENT_IDS).size).toBe(AGENT_IDS.length);
    expect(new Set(AGENT_MODULES.map((a) => a.settingKey)).size).toBe(AGENT_MODULES.length);
    for (const a of AGENT_MODULES) {
      expect(a.name.length, a.id).toBeGreaterThan(0);
      expect(a.icon, a.id).toMatch(/^[a-z-]+$/);
      expect(a.where.length, a.id).toBeGreaterThan(0);
      expect(a.formats.length, a.id).toBeGreaterThan(0);
      // Every agent either resumes files or takes a handoff; the handoff is the default.
      if (a.resume) expect(a.resume.command('ID')).toContain('ID');
    }
  });

  it('takes the tested versions of each CLI from the one list', () => {
    for (const [id, v] of Object.entries(testedVersions)) {
      expect(compareVersions(v.oldest, v.newest), id).toBeLessThanOrEqual(0);
      const a = agentById(id);
      if (a) expect(a.versions, id).toEqual(v);
    }
  });

  it("gives each agent's hooks a command that runs that agent's hook (what Install Agent Hooks writes)", () => {
    const hooked = AGENT_MODULES.filter((a) => a.hooks);
    expect(hooked.map((a) => a.id)).toEqual(expect.arrayContaining(['claude-code', 'opencode', 'copilot-cli']));
    for (const a of hooked) {
      expect(a.hooks!.commandLine('/x/cli.js')).toBe(`node "/x/cli.js" hook ${a.id}`);
      expect(a.hooks!.commandLine('/x/cli.js', { maxTokens: 900, loopLimit: 3 })).toBe(`node "/x/cli.js" hook ${a.id} --max-tokens 900`);
    }
  });

  it('names the reporter of a usage figure from the registry', () => {
    expect(usageSourceLabel('claude-code')).toBe('Claude Code');
    expect(usageSourceLabel('openai', 'l’export')).toBe('l’export');
  });
});

describe('versions', () => {
  it('compares dotted versions numerically', () => {
    expect(compareVersions('2.1.332', '2.1.328')).toBe(1);
    expect(compareVersions('2.1.40', '2.1.332')).toBe(-1);
    expect(compareVersions('0.171.0', '0.171.0')).toBe(0);
    expect(compareVersions('1.0.102-beta', '1.0.102')).toBe(0);
  });

  it('a session from a newer version than the newest tested says so, in the listing and once in `ctxc sessions`', async () => {
    const home = join(root, 'newer-home');
    const cwd = join(root, 'newer-work');
    mkdirSync(cwd, { recursive: true });
    const dir = join(home, '.claude', 'projects', claudeProjectName(cwd));
    const newest = testedVersions['claude-code'].newest;
    const newer = newest.replace(/\d+$/, (d) => String(Number(d) + 7));
    expect(newerThanTested(agentById('claude-code')!, newer)).toBe(newest);
    expect(newerThanTested(agentById('claude-code')!, newest)).toBeUndefined();
    for (const id of ['s1', 's2']) writeFileIn(join(dir, `${id}.jsonl`), jsonl(claudeLines({ sessionId: id, cwd, turns: TURNS.slice(0, 1), version: newer })));
    const sessions = await listSessions({ folders: [cwd], env: {}, home, globalStorage: [], workspaceStorage: [] });
    expect(sessions.map((s) => [s.agentVersion, s.newerThanTested])).toEqual([
      [newer, newest],
      [newer, newest],
    ]);
    let stdout = '';
    const io: CliIO = { out: (t) => void (stdout += t), err: () => undefined, env: { HOME: home }, cwd };
    expect(await main(['sessions'], io)).toBe(0);
    expect(stdout.split(`newer than the newest tested (${newest})`).length - 1).toBe(1);
  });
});

describe('every session written for an agent', () => {
  it('is private to its owner (0600), like the sessions the agents write', async () => {
    const cwd = join(root, 'private-work');
    mkdirSync(cwd, { recursive: true });
    const { conv, result } = await compacted(cwd);
    const w = await writeCompactedSession('claude-code', conv, result, { env: {}, home: join(root, 'private-home'), fallbackCwd: root });
    expect(statSync(w.file).mode & 0o777).toBe(SESSION_FILE_MODE);
  });

  it('goes where the agent looks from this workspace when the recorded folder is from another machine', async () => {
    const here = join(root, 'here');
    mkdirSync(here, { recursive: true });
    const home = join(root, 'elsewhere-home');
    const { conv, result } = await compacted('/Users/someone-else/project-that-is-not-here');
    const w = await writeCompactedSession('claude-code', conv, result, { env: {}, home, fallbackCwd: here });
    expect(w.cwd).toBe(here);
    expect(w.file.startsWith(join(home, '.claude', 'projects', claudeProjectName(here)))).toBe(true);
  });

  it('is read back as the agent resumes it, and removed with the reason when the agent would not send the summary', async () => {
    const cwd = join(root, 'readback-work');
    mkdirSync(cwd, { recursive: true });
    const home = join(root, 'readback-home');
    const { conv, result } = await compacted(cwd);
    const agent = resumableAgent('claude-code')!;
    const spy = vi.spyOn(agent.resume, 'readBack').mockResolvedValueOnce({ lastUserTurn: 'x' });
    try {
      await expect(writeCompactedSession('claude-code', conv, result, { env: {}, home, fallbackCwd: root })).rejects.toThrow(ReadBackError);
      await expect(writeCompactedSession('claude-code', conv, result, { env: {}, home, fallbackCwd: root })).resolves.toBeDefined();
    } finally {
      spy.mockRestore();
    }
    // The refused file is gone; the second one stays.
    expect(readdirSync(join(home, '.claude', 'projects', claudeProjectName(cwd)))).toHaveLength(1);
  });

  it('records what the original measured (model, overhead, window), so the new session inherits it', async () => {
    const cwd = join(root, 'inherit-work');
    mkdirSync(cwd, { recursive: true });
    const { conv, result, counter } = await compacted(cwd);
    const withUsage = {
      ...conv,
      meta: {
        ...conv.meta,
        reportedUsage: { tokens: 40_000, source: 'claude-code' as const, atMessageId: conv.messages.at(-1)!.id, parts: { input: 40_000 } },
      },
    };
    const report = tokenReport(withUsage.messages, counter, withUsage.meta);
    const inherited = inheritedFigures(withUsage, report, 'claude-code');
    expect(inherited.model).toBe(conv.meta.model);
    expect(inherited.overhead).toBeGreaterThan(0);
    const w = await writeCompactedSession('claude-code', withUsage, result, { env: {}, home: join(root, 'inherit-home'), fallbackCwd: root, inherited });
    const boundary = JSON.parse(readFileSync(w.file, 'utf8').split('\n')[0]!) as { contextCompactor: { inherited: unknown } };
    expect(boundary.contextCompactor.inherited).toEqual({ model: conv.meta.model, overhead: Math.round(inherited.overhead!) });
    // Another agent's session gets that agent's own estimate, not the source's measured overhead.
    expect(inheritedFigures(withUsage, report, 'codex')).toEqual({ overhead: resumableAgent('codex')!.resume.overheadEstimate });
  });
});
