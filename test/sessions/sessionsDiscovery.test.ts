// Session discovery on fake home trees, one per agent: what belongs to the workspace is listed with
// its tokens, what belongs to another workspace is not, and a file that cannot be read is listed
// with its error (a malformed line is a warning, an empty file has no tokens, a binary file and an
// unknown shape are errors, a line being written is left for later; a symbolic link or a FIFO is
// listed with an error saying what it is).

import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentSession } from '../../src/sessions/agentSession';
import { claudeProjectName } from '../../src/sessions/locations';
import { listSessions, SessionCatalog, type SessionQuery } from '../../src/sessions/sessionCatalog';
import { bigTurn, claudeLines, codexLines, jsonl, writeFileIn } from '../helpers/agentSessions';

const root = mkdtempSync(join(tmpdir(), 'ctxc-sessions-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
const work = join(root, 'work space');
const other = join(root, 'other');
const globalStorage = join(root, 'Code', 'User', 'globalStorage');
const workspaceStorage = join(root, 'Code', 'User', 'workspaceStorage');
const projects = join(home, '.claude', 'projects');
const codexSessions = join(home, '.codex', 'sessions', '2026', '01', '01');

function query(extra: Partial<SessionQuery> = {}): SessionQuery {
  return { folders: [work], env: {}, home, globalStorage: [globalStorage], workspaceStorage: [workspaceStorage], ...extra };
}

const byId = (list: AgentSession[], id: string) => list.find((s) => s.id === id);

beforeAll(() => {
  const turns = [bigTurn('alpha', 10), bigTurn('bravo', 10)];
  // Claude Code: a session, its sub-agent (current and legacy layouts), malformed / empty / binary
  // / partial files, and a session of another workspace.
  const dir = join(projects, claudeProjectName(work));
  writeFileIn(join(dir, 'main-session.jsonl'), jsonl(claudeLines({ sessionId: 'main-session', cwd: work, turns })));
  writeFileIn(
    join(dir, 'main-session', 'subagents', 'agent-a1.jsonl'),
    jsonl(claudeLines({ sessionId: 'main-session', cwd: work, turns: [bigTurn('sub', 3)], sidechain: true })),
  );
  writeFileIn(
    join(dir, 'main-session', 'subagents', 'agent-a1.meta.json'),
    JSON.stringify({ agentType: 'general-purpose', description: 'inspect the tables' }),
  );
  writeFileIn(join(dir, 'agent-legacy.jsonl'), jsonl(claudeLines({ sessionId: 'main-session', cwd: work, turns: [bigTurn('old', 2)], sidechain: true })));
  const malformed = jsonl(claudeLines({ sessionId: 'malformed', cwd: work, turns: [bigTurn('gamma', 3)] })).replace('\n', '\n{"type": "user", oops\n');
  writeFileIn(join(dir, 'malformed.jsonl'), malformed);
  writeFileIn(join(dir, 'empty.jsonl'), '');
  writeFileIn(join(dir, 'binary.jsonl'), Buffer.from([0x7b, 0x00, 0x01, 0x02, 0xff, 0x0a]));
  writeFileIn(join(dir, 'unknown.jsonl'), '[1, 2, 3]\n');
  const partial = jsonl(claudeLines({ sessionId: 'partial', cwd: work, turns: [bigTurn('delta', 3)] }));
  writeFileIn(join(dir, 'partial.jsonl'), `${partial}{"parentUuid":"x","type":"assistant","message":{"role":"assis`);
  // Titles: a bare /command opens the session, then the request; a command with arguments is one.
  const cmd = (name: string, args = '') =>
    `<command-message>${name} is running…</command-message>\n<command-name>/${name}</command-name>\n<command-args>${args}</command-args>`;
  const titled = claudeLines({
    sessionId: 'titled',
    cwd: work,
    turns: [
      { ...bigTurn('t1', 1), user: cmd('clear') },
      { ...bigTurn('t2', 1), user: 'make the loader\nstream its input' },
    ],
  });
  writeFileIn(join(dir, 'titled.jsonl'), jsonl(titled));
  writeFileIn(
    join(dir, 'review.jsonl'),
    jsonl(claudeLines({ sessionId: 'review', cwd: work, turns: [{ ...bigTurn('r1', 1), user: cmd('review', 'check the loader') }] })),
  );
  writeFileIn(join(projects, claudeProjectName(other), 'elsewhere.jsonl'), jsonl(claudeLines({ sessionId: 'elsewhere', cwd: other, turns })));
  // A sub-directory of the workspace, and a sibling whose folder name starts the same way.
  writeFileIn(
    join(projects, claudeProjectName(join(work, 'pkg')), 'in-sub.jsonl'),
    jsonl(claudeLines({ sessionId: 'in-sub', cwd: join(work, 'pkg'), turns: [bigTurn('sub2', 2)] })),
  );
  writeFileIn(
    join(projects, `${claudeProjectName(work)}-x`, 'sibling.jsonl'),
    jsonl(claudeLines({ sessionId: 'sibling', cwd: `${work}-x`, turns: [bigTurn('sib', 2)] })),
  );

  // Codex: one rollout here, one elsewhere.
  writeFileIn(
    join(codexSessions, 'rollout-2026-01-01T00-00-00-11111111-1111-4111-8111-111111111111.jsonl'),
    jsonl(codexLines({ id: '11111111-1111-4111-8111-111111111111', cwd: work, turns })),
  );
  writeFileIn(
    join(codexSessions, 'rollout-2026-01-01T00-00-01-22222222-2222-4222-8222-222222222222.jsonl'),
    jsonl(codexLines({ id: '22222222-2222-4222-8222-222222222222', cwd: other, turns })),
  );

  // Cline: the task index names each task's folder.
  const cline = join(globalStorage, 'saoudrizwan.claude-dev');
  const clineMessages = [
    { role: 'user', content: [{ type: 'text', text: '<task>\nadd a retry to the fetcher\n</task>' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'I will read it.\n<read_file>\n<path>src/fetch.ts</path>\n</read_file>' }] },
    { role: 'user', content: [{ type: 'text', text: "[read_file for 'src/fetch.ts'] Result:\nexport function fetch() {}" }] },
  ];
  writeFileIn(join(cline, 'tasks', '1700000000001', 'api_conversation_history.json'), JSON.stringify(clineMessages));
  writeFileIn(join(cline, 'tasks', '1700000000002', 'api_conversation_history.json'), JSON.stringify(clineMessages));
  writeFileIn(join(cline, 'tasks', '1700000000003', 'api_conversation_history.json'), JSON.stringify(clineMessages));
  writeFileIn(
    join(cline, 'state', 'taskHistory.json'),
    JSON.stringify([
      { id: '1700000000001', task: 'add a retry to the fetcher', ts: 1, cwdOnTaskInitialization: work },
      { id: '1700000000002', task: 'elsewhere', ts: 2, cwdOnTaskInitialization: other },
    ]),
  );
  // Roo Code: history_item.json in the task folder.
  const roo = join(globalStorage, 'rooveterinaryinc.roo-cline', 'tasks');
  writeFileIn(join(roo, 'roo-1', 'api_conversation_history.json'), JSON.stringify(clineMessages));
  writeFileIn(join(roo, 'roo-1', 'history_item.json'), JSON.stringify({ id: 'roo-1', task: 'add a retry', workspace: work }));
  writeFileIn(join(roo, 'roo-2', 'api_conversation_history.json'), JSON.stringify(clineMessages));
  writeFileIn(join(roo, 'roo-2', 'history_item.json'), JSON.stringify({ id: 'roo-2', task: 'other', workspace: other }));
  // Cline 4 sessions.
  const c4 = join(home, '.cline', 'data', 'sessions', 'sess-4');
  writeFileIn(
    join(c4, 'sess-4.json'),
    JSON.stringify({ version: 1, session_id: 'sess-4', cwd: work, workspace_root: work, model: 'claude-sonnet-4-5', prompt: 'tidy the imports' }),
  );
  writeFileIn(
    join(c4, 'sess-4.messages.json'),
    JSON.stringify({
      version: 1,
      sessionId: 'sess-4',
      messages: [
        { role: 'user', content: 'tidy the imports' },
        { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      ],
    }),
  );

  // Copilot Chat: the workspace storage whose workspace.json names this folder.
  const mine = join(workspaceStorage, 'hash-mine');
  writeFileIn(join(mine, 'workspace.json'), JSON.stringify({ folder: pathToFileURL(work).href }));
  const chat = {
    version: 3,
    sessionId: 'chat-a',
    requests: [{ requestId: 'r1', message: { text: 'explain the loader' }, response: [{ kind: 'markdownContent', value: { value: 'It reads JSON.' } }] }],
  };
  writeFileIn(join(mine, 'chatSessions', 'chat-a.json'), JSON.stringify(chat));
  writeFileIn(
    join(mine, 'chatSessions', 'chat-b.jsonl'),
    jsonl([
      { kind: 0, v: { ...chat, sessionId: 'chat-b', requests: [] } },
      { kind: 2, k: ['requests'], v: chat.requests },
    ]),
  );
  const theirs = join(workspaceStorage, 'hash-theirs');
  writeFileIn(join(theirs, 'workspace.json'), JSON.stringify({ folder: pathToFileURL(other).href }));
  writeFileIn(join(theirs, 'chatSessions', 'chat-c.json'), JSON.stringify(chat));

  // aider.
  writeFileIn(join(work, '.aider.chat.history.md'), '# aider chat started at 2026-01-01 10:00:00\n\n#### add tests for the loader\n\nI added them.\n');
});

describe('listing a workspace', () => {
  let list: AgentSession[];
  beforeAll(async () => {
    list = await listSessions(query());
  });

  it('finds every agent’s sessions of this workspace, and none of another', () => {
    const ids = list.map((s) => `${s.agent}:${s.id}`).sort();
    expect(ids).toEqual(
      [
        'aider:' + join(work, '.aider.chat.history.md'),
        'claude-code:agent-legacy',
        'claude-code:binary',
        'claude-code:empty',
        'claude-code:in-sub',
        'claude-code:main-session',
        'claude-code:main-session/agent-a1',
        'claude-code:malformed',
        'claude-code:partial',
        'claude-code:review',
        'claude-code:titled',
        'claude-code:unknown',
        'cline:1700000000001',
        'cline:sess-4',
        'codex:11111111-1111-4111-8111-111111111111',
        'copilot-chat:chat-a',
        'copilot-chat:chat-b',
        'roo-code:roo-1',
      ].sort(),
    );
  });

  it('meters each session: tokens, window, model, title (the first request), last activity', () => {
    const main = byId(list, 'main-session')!;
    expect(main).toMatchObject({
      agent: 'claude-code',
      title: 'TURN-alpha: read notes-alpha.txt and restate it',
      model: 'claude-sonnet-4-5',
      window: 200_000,
      messages: 8,
      resumable: true,
      cwd: work,
    });
    expect(main.tokens).toBeGreaterThan(500);
    expect(main.updated).toMatch(/^\d{4}-\d\d-\d\dT/);
    const codex = byId(list, '11111111-1111-4111-8111-111111111111')!;
    expect(codex).toMatchObject({ agent: 'codex', title: 'TURN-alpha: read notes-alpha.txt and restate it', resumable: true });
    expect(codex.tokens).toBeGreaterThan(500);
    expect(byId(list, '1700000000001')).toMatchObject({ agent: 'cline', title: 'add a retry to the fetcher', resumable: false });
    expect(byId(list, 'sess-4')).toMatchObject({ agent: 'cline', title: 'tidy the imports', messages: 2 });
    expect(byId(list, 'roo-1')).toMatchObject({ agent: 'roo-code', title: 'add a retry to the fetcher' });
    expect(byId(list, 'chat-b')).toMatchObject({ agent: 'copilot-chat', title: 'explain the loader', messages: 2 });
    expect(list.find((s) => s.agent === 'aider')).toMatchObject({ title: 'add tests for the loader' });
  });

  it('a title is one line of what was asked: a bare /command gives way to the request, a command with arguments is one', () => {
    expect(byId(list, 'titled')!.title).toBe('make the loader stream its input');
    expect(byId(list, 'review')!.title).toBe('/review check the loader');
  });

  it('lists sub-agents under their session', () => {
    const main = byId(list, 'main-session')!;
    expect(main.children.sort()).toEqual(['agent-legacy', 'main-session/agent-a1']);
    expect(byId(list, 'main-session/agent-a1')).toMatchObject({ parent: 'main-session', relation: 'subagent', title: 'inspect the tables' });
    expect(byId(list, 'main-session/agent-a1')!.tokens).toBeGreaterThan(100);
    expect(byId(list, 'agent-legacy')).toMatchObject({ parent: 'main-session', relation: 'subagent' });
  });

  it('a malformed line is a warning; an empty file has no tokens; a binary file and an unknown shape are listed with their error', () => {
    const malformed = byId(list, 'malformed')!;
    expect(malformed.error).toBeUndefined();
    expect(malformed.warnings).toBeGreaterThan(0);
    expect(malformed.messages).toBe(4);
    expect(byId(list, 'empty')).toMatchObject({ tokens: 0, messages: 0 });
    expect(byId(list, 'empty')!.error).toBeUndefined();
    expect(byId(list, 'binary')!.error).toMatch(/binary\.jsonl: byte 1: expected text \(UTF-8\), found a NUL byte/);
    expect(byId(list, 'unknown')!.error).toBe(
      `${join(projects, claudeProjectName(work), 'unknown.jsonl')}: line 1: expected JSON lines of Claude Code entries (objects with a 'type' field), found an array of 3`,
    );
  });

  it('a session being written: the complete lines are counted, the partial last line waits', () => {
    const partial = byId(list, 'partial')!;
    expect(partial.error).toBeUndefined();
    expect(partial.messages).toBe(4);
  });

  it('newest first', () => {
    const times = list.map((s) => s.mtimeMs);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});

describe('where Claude Code keeps a folder’s sessions', () => {
  it('names the folder after the path, and cuts a long one with a hash (as the real CLI named it)', () => {
    expect(claudeProjectName('/tmp/w s.x_y')).toBe('-tmp-w-s-x-y');
    // Named by Claude Code 2.1.328 for this working directory.
    const cwd = `/tmp/explore/lp-6spNOj/${'a'.repeat(60)}/${'b_b.c'.repeat(12)}/é-dir/${'c'.repeat(60)}`;
    expect(claudeProjectName(cwd)).toBe(`-tmp-explore-lp-6spNOj-${'a'.repeat(60)}-${'b-b-c'.repeat(12)}---dir-${'c'.repeat(49)}-2n4don`);
  });
});

describe('options', () => {
  it('each source can be turned off', async () => {
    const list = await listSessions(query({ agents: { 'claude-code': false, codex: false, aider: false } }));
    expect(new Set(list.map((s) => s.agent))).toEqual(new Set(['cline', 'roo-code', 'copilot-chat']));
    const only = await listSessions(query({ agents: { cline: false, 'roo-code': false, 'copilot-chat': false, aider: false, 'claude-code': false } }));
    expect(only.map((s) => s.agent)).toEqual(['codex']);
  });

  it('CLAUDE_CONFIG_DIR and CODEX_HOME move where sessions are looked for', async () => {
    const list = await listSessions(query({ env: { CLAUDE_CONFIG_DIR: join(root, 'nowhere'), CODEX_HOME: join(root, 'nowhere') } }));
    expect(list.filter((s) => s.agent === 'claude-code' || s.agent === 'codex')).toEqual([]);
  });

  it('a workspace storage folder given directly (the extension’s own) needs no workspace.json', async () => {
    const list = await listSessions(
      query({
        workspaceStorage: [join(workspaceStorage, 'hash-theirs')],
        agents: { 'copilot-chat': true, 'claude-code': false, codex: false, cline: false, 'roo-code': false, aider: false },
      }),
    );
    expect(list.map((s) => s.id)).toEqual(['chat-c']);
  });

  it('reports each session as it is metered', async () => {
    const seen: [string, number, number][] = [];
    const list = await listSessions(query({ agents: { 'claude-code': false }, onSession: (s, done, total) => seen.push([s.id, done, total]) }));
    expect(seen.map((x) => x[1])).toEqual(list.map((_, i) => i + 1));
    expect(new Set(seen.map((x) => x[2]))).toEqual(new Set([list.length]));
  });

  it('a cancelled listing rejects', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(listSessions(query({ signal: ac.signal }))).rejects.toThrow();
  });
});

describe('refreshing', () => {
  it('re-reads only files whose size or modification time changed', async () => {
    const catalog = new SessionCatalog();
    const q = query({ agents: { codex: false, cline: false, 'roo-code': false, 'copilot-chat': false, aider: false } });
    const file = join(projects, claudeProjectName(work), 'main-session.jsonl');
    // Whole seconds, so the time can be put back exactly.
    utimesSync(file, 1_767_225_600, 1_767_225_600);
    const first = byId(await catalog.list(q), 'main-session')!;
    // Same size, same mtime, other bytes: not read again.
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('TURN-alpha', 'TURN-ALPHA'));
    utimesSync(file, 1_767_225_600, 1_767_225_600);
    expect(byId(await catalog.list(q), 'main-session')!.title).toBe(first.title);
    // Appended to: read again.
    appendFileSync(
      file,
      jsonl(claudeLines({ sessionId: 'main-session', cwd: work, turns: [bigTurn('echo', 3)], start: 200, parent: '00000000-0000-4000-8000-000000000008' })),
    );
    const again = byId(await catalog.list(q), 'main-session')!;
    expect(again.title).toBe('TURN-ALPHA: read notes-alpha.txt and restate it');
    expect(again.messages).toBe(12);
    expect(again.tokens).toBeGreaterThan(first.tokens);
    writeFileSync(file, text);
  });
});

describe('links and pipes where sessions are', () => {
  // A session file that is a symbolic link or a FIFO is listed with an error naming what it is (a
  // session is read only from the file itself; a FIFO would hang the read), never skipped unsaid.
  const base = join(root, 'special');
  const h = join(base, 'home');
  const w = join(base, 'work');
  const gs = join(base, 'Code', 'User', 'globalStorage');
  const ws = join(base, 'Code', 'User', 'workspaceStorage');
  const fifo = (path: string) => {
    mkdirSync(dirname(path), { recursive: true });
    const r = spawnSync('mkfifo', [path]);
    if (r.status !== 0) throw new Error(`mkfifo ${path}: ${r.stderr}`);
  };
  const link = (target: string, path: string) => {
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(target, path);
  };

  beforeAll(() => {
    const real = writeFileIn(join(base, 'elsewhere', 'real.jsonl'), jsonl(claudeLines({ sessionId: 'real', cwd: w, turns: [bigTurn('linked', 2)] })));
    const project = join(h, '.claude', 'projects', claudeProjectName(w));
    writeFileIn(join(project, 'plain.jsonl'), jsonl(claudeLines({ sessionId: 'plain', cwd: w, turns: [bigTurn('plain', 2)] })));
    link(real, join(project, 'linked.jsonl'));
    fifo(join(project, 'piped.jsonl'));
    const rolloutId = '77777777-7777-4777-8777-777777777777';
    const rollout = writeFileIn(join(base, 'elsewhere', 'rollout.jsonl'), jsonl(codexLines({ id: rolloutId, cwd: w, turns: [bigTurn('cx', 2)] })));
    link(rollout, join(h, '.codex', 'sessions', '2026', '01', '02', `rollout-2026-01-02T00-00-00-${rolloutId}.jsonl`));
    const cline = join(gs, 'saoudrizwan.claude-dev');
    fifo(join(cline, 'tasks', '1700000000009', 'api_conversation_history.json'));
    writeFileIn(join(cline, 'state', 'taskHistory.json'), JSON.stringify([{ id: '1700000000009', task: 'piped task', ts: 1, cwdOnTaskInitialization: w }]));
    mkdirSync(w, { recursive: true });
    link(join(base, 'elsewhere', 'real.jsonl'), join(w, '.aider.chat.history.md'));
    const mine = join(ws, 'hash-w');
    writeFileIn(join(mine, 'workspace.json'), JSON.stringify({ folder: pathToFileURL(w).href }));
    fifo(join(mine, 'chatSessions', 'piped-chat.json'));
  });

  it.skipIf(process.platform === 'win32')(
    'are listed with an error that says what they are, and the listing never waits on a FIFO',
    async () => {
      const list = await listSessions({ folders: [w], env: {}, home: h, globalStorage: [gs], workspaceStorage: [ws] });
      const errors = Object.fromEntries(list.map((s) => [`${s.agent}:${s.id}`, s.error ?? null]));
      const LINK = /: a symbolic link, not a regular file: a session is read only from the file itself$/;
      const FIFO = /: a named pipe \(FIFO\), not a regular file: a session is read only from the file itself$/;
      expect(errors).toEqual({
        'claude-code:plain': null,
        'claude-code:linked': expect.stringMatching(LINK),
        'claude-code:piped': expect.stringMatching(FIFO),
        'codex:77777777-7777-4777-8777-777777777777': expect.stringMatching(LINK),
        'cline:1700000000009': expect.stringMatching(FIFO),
        [`aider:${join(w, '.aider.chat.history.md')}`]: expect.stringMatching(LINK),
        'copilot-chat:piped-chat': expect.stringMatching(FIFO),
      });
      expect(list.find((s) => s.id === 'linked')!.error!.startsWith(join(h, '.claude', 'projects'))).toBe(true);
    },
    20_000,
  );
});
