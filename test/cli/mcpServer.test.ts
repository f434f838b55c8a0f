// `ctxc mcp` driven by the MCP SDK's own client over stdio, started exactly as the README's Cline
// entry says (node <dist/cli.js> mcp): the four tools listed with their schemas, each called with
// good arguments and with a bad one (a tool error with one clear line, never a crash), and the
// README's Claude Code and Codex entries naming the same command.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeProjectName } from '../../src/sessions/locations';
import { bigTurn, claudeLines, codexLines, jsonl, writeFileIn } from '../helpers/agentSessions';
import { compactedSession, FACTS } from '../helpers/claudeCompaction';
import { repoRoot } from '../helpers/transcripts';
import { README_CLI_PLACEHOLDER as PLACEHOLDER, readmeBlock as readmeBlockIn } from '../../scripts/agents/readme.mjs';

const root = mkdtempSync(join(tmpdir(), 'ctxc-mcp-'));
const home = join(root, 'home');
const work = join(root, 'work');
const cli = join(repoRoot, 'dist', 'cli.js');
const CLAUDE_ID = '11111111-1111-4111-8111-111111111111';
const CODEX_ID = '44444444-4444-4444-8444-444444444444';

const readmeBlock = (mark: string, lang: string) => readmeBlockIn(repoRoot, mark, lang);

let client: Client;
let stderr = '';

type ToolResult = { content: { type: string; text: string }[]; isError?: boolean };
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
const parsed = (r: ToolResult) => JSON.parse(r.content[0]!.text) as Record<string, unknown>;

beforeAll(async () => {
  const turns = ['alpha', 'bravo', 'charlie', 'delta'].map((t) => bigTurn(t, 60));
  writeFileIn(join(home, '.claude', 'projects', claudeProjectName(work), `${CLAUDE_ID}.jsonl`), jsonl(claudeLines({ sessionId: CLAUDE_ID, cwd: work, turns })));
  writeFileIn(
    join(home, '.codex', 'sessions', '2026', '01', '01', `rollout-2026-01-01T00-00-00-${CODEX_ID}.jsonl`),
    jsonl(codexLines({ id: CODEX_ID, cwd: work, turns })),
  );
  writeFileIn(join(work, 'facts.jsonl'), jsonl(compactedSession().lines));
  // The README's Cline entry, with this repository's dist/cli.js in place of the placeholder.
  const entry = (JSON.parse(readmeBlock('mcp-cline', 'json')) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers[
    'context-compactor'
  ]!;
  const transport = new StdioClientTransport({
    command: entry.command === 'node' ? process.execPath : entry.command,
    args: entry.args.map((a) => (a === PLACEHOLDER ? cli : a)),
    cwd: work,
    env: { HOME: home, PATH: process.env['PATH'] ?? '', XDG_CONFIG_HOME: join(root, 'xdg'), XDG_DATA_HOME: join(root, 'xdg-data') },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  client = new Client({ name: 'ctxc-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('ctxc mcp over stdio, through the SDK client', () => {
  it('lists the four tools, each with a JSON schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['compact_session', 'count_context', 'list_sessions', 'session_facts']);
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe('object');
    }
    const compact = tools.find((t) => t.name === 'compact_session')!;
    expect(Object.keys(compact.inputSchema.properties ?? {}).sort()).toEqual(['budget', 'cwd', 'file', 'session_id', 'to']);
    expect(tools.find((t) => t.name === 'list_sessions')!.annotations?.readOnlyHint).toBe(true);
  });

  it("list_sessions: the folder's Claude Code and Codex sessions with their tokens", async () => {
    const r = parsed(await call('list_sessions', {}));
    const sessions = r['sessions'] as { agent: string; id: string; tokens: number; window: number }[];
    expect(sessions.map((s) => `${s.agent}:${s.id}`).sort()).toEqual([`claude-code:${CLAUDE_ID}`, `codex:${CODEX_ID}`]);
    for (const s of sessions) expect(s.tokens).toBeGreaterThan(1000);
    const only = parsed(await call('list_sessions', { agents: ['codex'] }))['sessions'] as { agent: string }[];
    expect(only.map((s) => s.agent)).toEqual(['codex']);
  });

  it('count_context: a session by id → tokens by category, the window and each share', async () => {
    const r = parsed(await call('count_context', { session_id: CLAUDE_ID.slice(0, 8) }));
    expect(r['format']).toBe('claude-code');
    expect(r['window']).toBeGreaterThan(100_000);
    const by = r['byCategory'] as Record<string, number>;
    expect(Object.values(by).reduce((a, b) => a + b, 0)).toBe(r['total']);
    expect(by['toolResults']).toBeGreaterThan(by['user']!);
    const share = r['share'] as Record<string, number>;
    expect(Math.round(Object.values(share).reduce((a, b) => a + b, 0))).toBe(100);
  });

  it('session_facts: the must-keep facts of a transcript file, most important first', async () => {
    const r = parsed(await call('session_facts', { file: 'facts.jsonl' }));
    const facts = r['facts'] as { category: string; value: string; line: string }[];
    expect(facts[0]!.category).toBe('instruction');
    const values = facts.map((f) => f.value);
    expect(values).toContain(FACTS.lateInstruction);
    expect(values).toContain(FACTS.todoOpen);
    expect(values.some((v) => v.startsWith('TypeError: fetchWithRetry'))).toBe(true);
    expect(values).toContain(FACTS.editedFile);
  });

  it('compact_session: a Claude Code session becomes a new session Claude Code resumes; the original is untouched', async () => {
    const original = join(home, '.claude', 'projects', claudeProjectName(work), `${CLAUDE_ID}.jsonl`);
    const before = readFileSync(original);
    const r = parsed(await call('compact_session', { session_id: CLAUDE_ID }));
    expect(r['agent']).toBe('claude-code');
    expect(r['resume']).toBe(`claude --resume ${r['id']}`);
    expect(existsSync(r['file'] as string)).toBe(true);
    expect(r['tokensAfter']).toBeLessThan(r['tokensBefore'] as number);
    expect(readFileSync(original).equals(before)).toBe(true);
    expect(readdirSync(join(home, '.claude', 'projects', claudeProjectName(work)))).toHaveLength(2);
  });

  it('compact_session to a handoff: the handoff text, the conversation fenced as data', async () => {
    const r = await call('compact_session', { session_id: CODEX_ID, to: 'handoff' });
    expect(r.isError).toBeFalsy();
    expect(JSON.parse(r.content[0]!.text)).toMatchObject({ handoff: true });
    expect(r.content[1]!.text).toMatch(/^# Handoff: /);
    expect(r.content[1]!.text).toContain('## Primary Request and Intent');
  });

  it.each([
    ['count_context', { file: 42 }, /Input validation error: .*expected string/],
    ['list_sessions', { agents: ['bogus'] }, /Input validation error/],
    ['compact_session', { file: 'facts.jsonl', budget: -5 }, /Input validation error/],
    ['compact_session', { file: 'facts.jsonl', to: 'aider' }, /Input validation error/],
    ['session_facts', { file: 'missing.jsonl' }, /missing\.jsonl: no such file/],
    ['count_context', {}, /name the session: a file .* or a session id/],
    ['count_context', { session_id: 'deadbeef-nope' }, /no session with id 'deadbeef-nope' among the \d+ sessions of/],
    ['session_facts', { file: '.' }, /not a file/],
  ])('%s with a bad argument (%j) is a tool error that says why', async (name, args, why) => {
    const r = await call(name, args);
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(why);
  });

  it('is still serving after the errors, and wrote nothing but protocol to stdout', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(4);
    expect(stderr).not.toMatch(/Unhandled|\n\s+at /);
  });
});

describe("the README's MCP entries", () => {
  it('Claude Code, Codex and Cline all run node <dist/cli.js> mcp', () => {
    expect(readmeBlock('mcp-claude-code', 'sh')).toBe(`claude mcp add context-compactor -- node ${PLACEHOLDER} mcp`);
    expect(readmeBlock('mcp-codex', 'toml')).toBe(`[mcp_servers.context-compactor]\ncommand = "node"\nargs = ["${PLACEHOLDER}", "mcp"]`);
    expect(JSON.parse(readmeBlock('mcp-cline', 'json'))).toEqual({ mcpServers: { 'context-compactor': { command: 'node', args: [PLACEHOLDER, 'mcp'] } } });
  });
});
