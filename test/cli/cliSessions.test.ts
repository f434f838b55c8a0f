// `ctxc sessions` and `ctxc compact --to` through main() with a captured io and a fake home.

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { claudeProjectName } from '../../src/sessions/locations';
import { bigTurn, claudeLines, codexLines, jsonl, writeFileIn } from '../helpers/agentSessions';

const root = mkdtempSync(join(tmpdir(), 'ctxc-cli-sessions-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
const work = join(root, 'work');
const env = { HOME: home, XDG_CONFIG_HOME: join(root, 'xdg'), XDG_DATA_HOME: join(root, 'xdg-data') };
const projectDir = join(home, '.claude', 'projects', claudeProjectName(work));
const session = join(projectDir, 'orig.jsonl');
const turns = ['alpha', 'bravo', 'charlie', 'delta'].map((t) => bigTurn(t, 60));

async function run(args: string[], cwd = work): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env, cwd };
  const code = await main(args, io);
  return { code, out, err };
}

beforeAll(() => {
  writeFileIn(session, jsonl(claudeLines({ sessionId: 'orig', cwd: work, turns })));
  writeFileIn(
    join(home, '.codex', 'sessions', '2026', '01', '01', 'rollout-2026-01-01T00-00-00-44444444-4444-4444-8444-444444444444.jsonl'),
    jsonl(codexLines({ id: '44444444-4444-4444-8444-444444444444', cwd: work, turns })),
  );
});

describe('ctxc compact --to', () => {
  it('writes a Claude Code session and prints its id and the command that resumes it, not the conversation', async () => {
    const before = { bytes: readFileSync(session), mtimeMs: statSync(session).mtimeMs };
    const r = await run(['compact', session, '--to', 'claude-code']);
    expect(r.code).toBe(0);
    const m = /^session: ([0-9a-f-]{36})\nfile: (.+)\nresume: (.+)\n$/.exec(r.out);
    expect(m).not.toBeNull();
    const [, id, file, command] = m!;
    expect(file).toBe(join(projectDir, `${id}.jsonl`));
    expect(command).toBe(`cd ${work} && claude --resume ${id}`);
    expect(readFileSync(file!, 'utf8').split('\n')[0]).toContain('"subtype":"compact_boundary"');
    expect(r.err).toMatch(/orig\.jsonl: [\d,]+ → [\d,]+ tokens/);
    expect(readFileSync(session).equals(before.bytes)).toBe(true);
    expect(statSync(session).mtimeMs).toBe(before.mtimeMs);
  });

  it('--format json prints the written session; --cwd chooses its folder', async () => {
    const other = join(root, 'other place');
    const r = await run(['compact', session, '--to', 'claude-code', '--cwd', other, '--format', 'json']);
    expect(r.code).toBe(0);
    const w = JSON.parse(r.out);
    expect(w).toMatchObject({ agent: 'claude-code', cwd: other, resume: `claude --resume ${w.id}`, command: `cd '${other}' && claude --resume ${w.id}` });
    expect(w.file).toBe(join(home, '.claude', 'projects', claudeProjectName(other), `${w.id}.jsonl`));
    expect(w.tokensAfter).toBeLessThan(w.tokensBefore);
  });

  it('writes a Codex rollout under CODEX_HOME', async () => {
    const r = await run(['compact', session, '--to', 'codex', '--format', 'json']);
    expect(r.code).toBe(0);
    const w = JSON.parse(r.out);
    expect(w.resume).toBe(`codex resume ${w.id}`);
    expect(w.file.startsWith(join(home, '.codex', 'sessions'))).toBe(true);
  });

  it('usage errors: an unknown target, --out with --to, --cwd without --to', async () => {
    expect(await run(['compact', session, '--to', 'roo-code'])).toMatchObject({
      code: 64,
      err: expect.stringMatching(/--to expects one of claude-code, codex\b.*copilot-cli, cline\b.*, got 'roo-code'/),
    });
    expect(await run(['compact', session, '--to', 'codex', '--out', 'x.md'])).toMatchObject({ code: 64 });
    expect(await run(['compact', session, '--cwd', root])).toMatchObject({ code: 64, err: expect.stringContaining('--cwd goes with --to') });
  });

  it('a session too short to compact: exit 4 (no session to write), nothing written', async () => {
    const tiny = writeFileIn(join(root, 'tiny', 'tiny.jsonl'), jsonl(claudeLines({ sessionId: 'tiny', cwd: join(root, 'tiny'), turns: [bigTurn('one', 1)] })));
    const r = await run(['compact', tiny, '--to', 'claude-code']);
    expect(r.code).toBe(4);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/nothing was written/);
    expect(readdirSync(join(home, '.claude', 'projects')).some((d) => d === claudeProjectName(join(root, 'tiny')))).toBe(false);
  });
});

describe('ctxc count on a rewound Claude Code session', () => {
  it('counts the chain the CLI resumes; --whole-file counts every line', async () => {
    const main = claudeLines({ sessionId: 'rw', cwd: work, turns: turns.slice(0, 2) });
    const fork = claudeLines({ sessionId: 'rw', cwd: work, turns: [bigTurn('zulu', 5)], start: 100, parent: main[3]!['uuid'] as string });
    const file = writeFileIn(join(root, 'rewound.jsonl'), jsonl([...main, ...fork]));
    const live = await run(['count', file, '--json']);
    const whole = await run(['count', file, '--json', '--whole-file']);
    expect(JSON.parse(live.out).messageCount).toBe(8);
    expect(JSON.parse(whole.out).messageCount).toBe(12);
    expect(live.err).toMatch(/4 lines are not on the chain Claude Code sends when the session is resumed \(4 on other branches \(rewinds\)\)/);
    expect(whole.err).not.toMatch(/not on the chain/);
  });
});

describe('ctxc sessions', () => {
  it('--json: an array of the folder’s sessions with agent, id, file, title, tokens, window, updated', async () => {
    const r = await run(['sessions', '--json']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.out) as Record<string, unknown>[];
    const orig = list.find((s) => s['id'] === 'orig')!;
    expect(orig).toMatchObject({ agent: 'claude-code', file: session, title: turns[0]!.user, window: 200_000, error: null, parent: null });
    expect(orig['tokens']).toBeGreaterThan(1000);
    expect(typeof orig['updated']).toBe('string');
    // The compacted sessions written above are listed under it.
    const children = list.filter((s) => s['parent'] === 'orig');
    expect(children.length).toBeGreaterThan(0);
    // Smaller in the file; a session written for another agent adds that agent's own overhead.
    const inFile = (s: Record<string, unknown>) => (s['tokens'] as number) - (s['overhead'] as number);
    expect(children.every((c) => c['relation'] === 'compacted' && inFile(c) < inFile(orig))).toBe(true);
    expect(orig['children']).toEqual(expect.arrayContaining(children.map((c) => c['id'])));
    expect(list.some((s) => s['agent'] === 'codex')).toBe(true);
  });

  it('the table shows compacted sessions under their original; --agents limits the sources', async () => {
    const r = await run(['sessions', '--agents', 'claude-code']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Agent sessions of /);
    expect(r.out).toMatch(/\n\S+\s+[\d,]+ \/ 200k\s+.*orig\s+TURN-alpha/);
    expect(r.out).toMatch(/└ compacted [0-9a-f-]{36}/);
    expect(r.out).not.toMatch(/\ncodex /);
  });

  it('--cwd of a folder with no sessions; a bad --agents list is a usage error', async () => {
    expect((await run(['sessions', '--cwd', join(root, 'empty')])).out).toMatch(/^No agent sessions found for /);
    expect(await run(['sessions', '--agents', 'emacs'])).toMatchObject({ code: 64 });
  });
});
