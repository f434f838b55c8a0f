// The fuzz suite for `ctxc mcp`, over stdio as a client drives it, with the requests of an outside
// review that sent it hostile and broken input: a message over 10 MiB, a 10 MB argument, a 5 MB
// tool name, JSON-RPC "1.0", params as a string, a batch, lines that are not JSON, seeded garbage;
// and paths that try to leave the places it reads (`../../`, absolute paths, a link out of the
// workspace, /etc/shadow, a workspace `.env`). What it must do: answer every one (an error reply
// carrying the request's id, or null when none can be told), keep serving (a ping after each is
// answered, and it exits only when stdin ends, with 0), never echo more than a prefix of what it
// was sent, and never quote a file it was not asked to read — refused paths are refused before
// anything is opened. Seeded: the same garbage on every run; the counts are printed.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_ECHO_CHARS, MCP_MAX_MESSAGE_BYTES } from '../../src/cli/mcp/stdioTransport';
import { claudeProjectDir } from '../../src/sessions/locations';
import { bigTurn, claudeLines, jsonl, writeFileIn } from '../helpers/agentSessions';
import { prng } from '../helpers/fuzzCases';
import { repoRoot } from '../helpers/transcripts';

const SEED = 0x3c9d;
const GARBAGE_LINES = 60;
/** Each reply must come within this; only a server that dropped the request or died reaches it. */
const REPLY_TIMEOUT_MS = 20_000;
/** The longest reply line to anything but tools/list and a successful tool call. */
const MAX_ERROR_LINE = MCP_ECHO_CHARS + 600;

/** What the review planted: a secret in each file the server must not show. */
const SECRETS = { notes: 'NOTES-SECRET-41c2', env: 'sk-proj-ENVSECRET77', listed: 'sk-proj-LISTEDSECRET3' };

const root = mkdtempSync(join(tmpdir(), 'ctxc-fuzz-mcp-'));
const home = join(root, 'home');
const work = join(root, 'work');
const outside = join(root, 'outside');
const SESSION_ID = '51515151-5151-4151-8151-515151515151';
const sessionFile = join(claudeProjectDir({}, home, work), `${SESSION_ID}.jsonl`);

let server: ChildProcessWithoutNullStreams;
let stderr = '';
let exit: Promise<number | null>;
const replies: { line: string; value: Record<string, unknown> }[] = [];
const waiters: (() => void)[] = [];
const ran = { requests: 0, oversized: 0, malformed: 0, garbage: 0, garbageNotJson: 0, pathsRefused: 0 };

beforeAll(() => {
  mkdirSync(work, { recursive: true });
  writeFileIn(sessionFile, jsonl(claudeLines({ sessionId: SESSION_ID, cwd: work, turns: ['alpha', 'bravo'].map((t) => bigTurn(t, 10)) })));
  // A broken session file the listing shows with an error (its first line is a secret, not JSON).
  writeFileIn(join(claudeProjectDir({}, home, work), 'broken.jsonl'), `OPENAI_API_KEY=${SECRETS.listed}\n`);
  // A transcript-shaped file outside every place the server reads, and a link to it from inside.
  writeFileIn(join(outside, 'notes.jsonl'), jsonl(claudeLines({ sessionId: 'n', cwd: outside, turns: [bigTurn(SECRETS.notes, 3)] })));
  symlinkSync(join(outside, 'notes.jsonl'), join(work, 'link.jsonl'));
  writeFileSync(join(work, '.env'), `OPENAI_API_KEY=${SECRETS.env}\n`);

  server = spawn(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'mcp'], {
    cwd: work,
    env: { HOME: home, PATH: process.env['PATH'] ?? '', XDG_CONFIG_HOME: join(root, 'xdg'), XDG_DATA_HOME: join(root, 'xdg-data') },
  });
  server.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let buf = '';
  server.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      replies.push({ line, value: JSON.parse(line) as Record<string, unknown> });
      for (const w of waiters.splice(0)) w();
    }
  });
  exit = new Promise((done) => server.on('exit', (code) => done(code)));
});

afterAll(async () => {
  if (server && server.exitCode === null) server.kill();
  rmSync(root, { recursive: true, force: true });
  console.log(
    `fuzz mcp (seed ${SEED}): ${ran.requests} requests — ${ran.oversized} over ${MCP_MAX_MESSAGE_BYTES / 1024 / 1024} MiB, ${ran.malformed} malformed, ` +
      `${ran.pathsRefused} path escapes refused, ${ran.garbage} garbage lines (${ran.garbageNotJson} not JSON, each answered -32700); ${replies.length} replies`,
  );
});

/** Waits for the first reply (from index `from` on) that matches. */
async function replyWhere(match: (v: Record<string, unknown>) => boolean, from = 0): Promise<{ line: string; value: Record<string, unknown> }> {
  const deadline = Date.now() + REPLY_TIMEOUT_MS;
  for (;;) {
    const found = replies.slice(from).find((r) => match(r.value));
    if (found) return found;
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}); stderr: ${stderr.slice(-500)}`);
    if (Date.now() > deadline) throw new Error(`no reply within ${REPLY_TIMEOUT_MS} ms`);
    await new Promise<void>((done) => {
      waiters.push(done);
      setTimeout(done, 200);
    });
  }
}

function sendLine(line: string): number {
  ran.requests++;
  const from = replies.length;
  server.stdin.write(`${line}\n`);
  return from;
}

async function ask(message: Record<string, unknown> | string, id: unknown): Promise<{ line: string; value: Record<string, unknown> }> {
  const from = sendLine(typeof message === 'string' ? message : JSON.stringify(message));
  return replyWhere((v) => v['id'] === id, from);
}

let pings = 0;
/** The server answers a ping: still alive and reading. */
async function alive(): Promise<void> {
  const id = `ping-${++pings}`;
  const r = await ask({ jsonrpc: '2.0', id, method: 'ping' }, id);
  expect(r.value['result']).toEqual({});
}

let calls = 0;
async function callTool(name: string, args: Record<string, unknown>): Promise<{ line: string; text: string; isError: boolean }> {
  const id = `call-${++calls}`;
  const r = await ask({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, id);
  const result = r.value['result'] as { content: { text: string }[]; isError?: boolean };
  return { line: r.line, text: result.content.map((c) => c.text).join('\n'), isError: result.isError === true };
}

const errorOf = (v: Record<string, unknown>) => v['error'] as { code: number; message: string };

describe('ctxc mcp under hostile and broken input', () => {
  it('initializes', async () => {
    const r = await ask(
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } },
      0,
    );
    expect((r.value['result'] as { serverInfo: { name: string } }).serverInfo.name).toBe('context-compactor');
    sendLine(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    await alive();
  });

  it('answers a message over the limit with an error carrying its id, and goes on', async () => {
    const big = 'x'.repeat(MCP_MAX_MESSAGE_BYTES + 1024);
    // The SDK's client writes the id last; other clients first.
    for (const [line, id] of [
      [`{"method":"tools/call","params":{"name":"count_context","arguments":{"file":"${big}"}},"jsonrpc":"2.0","id":"big-tail"}`, 'big-tail'],
      [`{"jsonrpc":"2.0","id":"big-head","method":"tools/call","params":{"name":"count_context","arguments":{"file":"${big}"}}}`, 'big-head'],
    ] as const) {
      ran.oversized++;
      const r = await ask(line, id);
      expect(errorOf(r.value)).toEqual({ code: -32600, message: expect.stringMatching(/larger than 10 MiB, the most this server reads; it was dropped/) });
      expect(r.line.length).toBeLessThan(MAX_ERROR_LINE);
      await alive();
    }
  });

  it.each([
    ['JSON-RPC "1.0"', '{"jsonrpc":"1.0","id":"m1","method":"tools/list"}', 'm1', -32600, /expected "jsonrpc": "2.0"/],
    ['params as a string', '{"jsonrpc":"2.0","id":"m2","method":"tools/list","params":"x"}', 'm2', -32600, /expected "params" to be an object/],
    ['no method', '{"jsonrpc":"2.0","id":"m3"}', 'm3', -32600, /Invalid Request/],
    ['an id that is an object', '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', null, -32600, /Invalid Request/],
    ['not JSON', '{"jsonrpc":"2.0","id":"m5","method":', 'm5', -32700, /Parse error/],
    ['a bare string', '"hello"', null, -32600, /expected a JSON-RPC 2\.0 message/],
    ['an empty batch', '[]', null, -32600, /batches are not supported/],
  ])('answers a malformed message (%s) with an error reply', async (_label, line, id, code, why) => {
    ran.malformed++;
    const r = await ask(line, id);
    expect(errorOf(r.value).code).toBe(code);
    expect(errorOf(r.value).message).toMatch(why);
    await alive();
  });

  it('answers each request of a batch', async () => {
    ran.malformed++;
    const from = sendLine(
      '[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":"b2","method":"tools/list"}]',
    );
    const r = await replyWhere((v) => Array.isArray(v), from);
    const list = r.value as unknown as { id: string; error: { code: number } }[];
    expect(list.map((x) => [x.id, x.error.code])).toEqual([
      ['b1', -32600],
      ['b2', -32600],
    ]);
    await alive();
  });

  it('echoes no more than a prefix of a huge argument or tool name', async () => {
    for (const [name, args] of [
      ['count_context', { file: 'A'.repeat(9 * 1024 * 1024) }],
      ['session_facts', { session_id: 'B'.repeat(2 * 1024 * 1024) }],
      ['list_sessions', { cwd: 'C'.repeat(1024 * 1024) }],
      ['Z'.repeat(5 * 1024 * 1024), {}],
    ] as const) {
      const r = await callTool(name, args);
      expect(r.isError).toBe(true);
      expect(r.line.length).toBeLessThan(MAX_ERROR_LINE);
    }
    await alive();
  });

  it('refuses paths outside the workspace and the agents’ session folders, quoting nothing of them', async () => {
    const escapes = [
      '../outside/notes.jsonl',
      join(outside, 'notes.jsonl'),
      'link.jsonl',
      '/etc/shadow',
      '/etc/passwd',
      `${home}/../outside/notes.jsonl`,
      `${work}/../../../../etc/hosts`,
    ];
    for (const file of escapes) {
      for (const tool of ['count_context', 'session_facts', 'compact_session']) {
        const r = await callTool(tool, { file });
        expect(r.isError, `${tool} ${file}`).toBe(true);
        expect(r.text).toMatch(/not a session this server reads/);
        expect(r.text).not.toContain(SECRETS.notes);
        expect(r.text).not.toMatch(/root:|NOTES-/);
        ran.pathsRefused++;
      }
    }
    // The same answer for a path that is not there: nothing tells what exists outside.
    expect((await callTool('count_context', { file: '/nonexistent/x.jsonl' })).text).toMatch(/not a session this server reads/);
    await alive();
  });

  it('reads a file of the workspace only as a transcript: a .env is refused without a word of it', async () => {
    const r = await callTool('session_facts', { file: '.env' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/\.env: .*expected/);
    expect(r.text).not.toContain('OPENAI_API_KEY');
    expect(r.text).not.toContain(SECRETS.env);
  });

  it('lists a session that cannot be read with an error that does not quote it', async () => {
    const r = await callTool('list_sessions', {});
    expect(r.isError).toBe(false);
    const sessions = (JSON.parse(r.text) as { sessions: { id: string; error: string | null }[] }).sessions;
    expect(sessions.find((s) => s.id === 'broken')!.error).toMatch(/broken\.jsonl: .*expected/);
    expect(r.text).not.toContain(SECRETS.listed);
    expect(r.text).not.toContain('OPENAI_API_KEY');
  });

  it('still reads what it should: the workspace’s session by id and by its path in the agent’s folder', async () => {
    for (const args of [{ session_id: SESSION_ID }, { file: sessionFile }]) {
      const r = await callTool('count_context', args);
      expect(r.isError, r.text).toBe(false);
      expect(JSON.parse(r.text)).toMatchObject({ file: sessionFile, format: 'claude-code' });
    }
  });

  it(`answers every seeded garbage line (${GARBAGE_LINES}) and stays up`, async () => {
    const rnd = prng(SEED);
    const template = JSON.stringify({ jsonrpc: '2.0', id: 'g', method: 'tools/call', params: { name: 'count_context', arguments: { file: 'x.jsonl' } } });
    for (let i = 0; i < GARBAGE_LINES; i++) {
      const bytes = [...template];
      const kind = Math.floor(rnd() * 4);
      if (kind === 0) bytes.length = Math.floor(rnd() * bytes.length);
      else if (kind === 1) for (let k = 0; k < 3; k++) bytes[Math.floor(rnd() * bytes.length)] = String.fromCharCode(32 + Math.floor(rnd() * 95));
      else if (kind === 2) bytes.splice(Math.floor(rnd() * bytes.length), 0, ...'{"[,]}'.slice(Math.floor(rnd() * 5)));
      else bytes.reverse();
      const line = bytes.join('').replace(/\n/g, ' ');
      ran.garbage++;
      const from = sendLine(line);
      await alive();
      // Replies since the line, but the ping's (a garbage line that is still a valid tool call is
      // answered when the tool is done, maybe after a later line's replies: those count as well).
      const between = replies.slice(from, -1);
      for (const r of between) expect(r.line.length).toBeLessThan(MAX_ERROR_LINE);
      const parseErrors = between.filter((r) => errorOf(r.value)?.code === -32700).length;
      try {
        JSON.parse(line);
        expect(parseErrors).toBe(0);
      } catch {
        // Not JSON: exactly one parse-error reply, before the ping's.
        expect(parseErrors).toBe(1);
        ran.garbageNotJson++;
      }
    }
  });

  it('exits 0 only when its stdin ends, having printed no stack', async () => {
    expect(server.exitCode).toBeNull();
    server.stdin.end();
    expect(await exit).toBe(0);
    expect(stderr).not.toMatch(/Unhandled|\n\s+at .+:\d+:\d+/);
  });
});
