// Following a session file as an agent writes it: only appended lines come back, a partial last
// line waits for its newline, and a truncated or replaced file is read again from the start.

import { appendFileSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonlFollower } from '../src/sessions/jsonlFollower';
import type { FoundSession } from '../src/sessions/agentSession';
import { LiveSessionMeter } from '../src/sessions/liveSessionMeter';
import { SessionCatalog } from '../src/sessions/sessionCatalog';
import { bigTurn, claudeLines, jsonl } from './helpers/agentSessions';

const dir = mkdtempSync(join(tmpdir(), 'ctxc-follow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `s${++n}.jsonl`);

describe('JsonlFollower', () => {
  it('returns every complete line first, then only what was appended', async () => {
    const file = fresh();
    writeFileSync(file, '{"a":1}\n{"a":2}\n');
    const f = new JsonlFollower(file);
    expect(await f.read()).toMatchObject({ lines: ['{"a":1}', '{"a":2}'], reset: true, missing: false });
    expect(await f.read()).toMatchObject({ lines: [], reset: false });
    appendFileSync(file, '{"a":3}\r\n');
    expect(await f.read()).toMatchObject({ lines: ['{"a":3}'], reset: false, offset: 25 });
  });

  it('keeps a partial last line until its newline arrives, across multi-byte characters', async () => {
    const file = fresh();
    writeFileSync(file, '{"t":"first"}\n{"t":"héllo ');
    const f = new JsonlFollower(file);
    expect((await f.read()).lines).toEqual(['{"t":"first"}']);
    // The rest of the line, split inside a multi-byte character.
    const rest = Buffer.from('wörld"}\n{"t":"x');
    appendFileSync(file, rest.subarray(0, 2));
    expect((await f.read()).lines).toEqual([]);
    appendFileSync(file, rest.subarray(2));
    expect((await f.read()).lines).toEqual(['{"t":"héllo wörld"}']);
    appendFileSync(file, '"}\n');
    expect((await f.read()).lines).toEqual(['{"t":"x"}']);
  });

  it('reads a truncated file again from the start and says so', async () => {
    const file = fresh();
    writeFileSync(file, '{"a":1}\n{"a":2}\n');
    const f = new JsonlFollower(file);
    await f.read();
    truncateSync(file, 0);
    appendFileSync(file, '{"b":1}\n');
    expect(await f.read()).toMatchObject({ lines: ['{"b":1}'], reset: true });
  });

  it('notices a file replaced by another one (atomic rewrite), even one as long', async () => {
    const file = fresh();
    writeFileSync(file, '{"a":1}\n');
    const f = new JsonlFollower(file);
    await f.read();
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, '{"z":9}\n{"z":8}\n');
    renameSync(tmp, file);
    expect(await f.read()).toMatchObject({ lines: ['{"z":9}', '{"z":8}'], reset: true });
  });

  it('notices other first bytes in the same file (rewritten in place, same length)', async () => {
    const file = fresh();
    writeFileSync(file, '{"a":1}\n');
    const f = new JsonlFollower(file);
    await f.read();
    writeFileSync(file, '{"q":1}\n{"q":2}\n');
    expect(await f.read()).toMatchObject({ lines: ['{"q":1}', '{"q":2}'], reset: true });
  });

  it('a missing file is no error; when it appears, it is read from the start', async () => {
    const file = fresh();
    const f = new JsonlFollower(file);
    expect(await f.read()).toMatchObject({ lines: [], missing: true, reset: false });
    writeFileSync(file, '{"a":1}\n');
    expect(await f.read()).toMatchObject({ lines: ['{"a":1}'], reset: true, missing: false });
    rmSync(file);
    expect(await f.read()).toMatchObject({ lines: [], missing: true, reset: true });
  });

  it('reads called at once never return the same lines twice', async () => {
    const file = fresh();
    writeFileSync(file, Array.from({ length: 500 }, (_, i) => `{"i":${i}}`).join('\n') + '\n');
    const f = new JsonlFollower(file);
    const reads = await Promise.all([f.read(), f.read(), f.read()]);
    expect(reads.flatMap((r) => r.lines)).toHaveLength(500);
  });

  it('reads a large append in bounded chunks', async () => {
    const file = fresh();
    writeFileSync(file, '');
    const f = new JsonlFollower(file);
    await f.read();
    const line = `{"pad":"${'x'.repeat(4000)}"}`;
    appendFileSync(file, `${Array.from({ length: 600 }, () => line).join('\n')}\n`);
    const r = await f.read();
    expect(r.lines).toHaveLength(600);
    expect(r.lines.every((l) => l === line)).toBe(true);
  });
});

describe('LiveSessionMeter', () => {
  const found = (file: string): FoundSession => ({ agent: 'claude-code', id: 'live', file, format: 'claude-code', size: 0, mtimeMs: 0 });

  it('counts again only when lines were appended, waits for a partial line, starts over on a rewrite', async () => {
    const file = fresh();
    const lines = claudeLines({ sessionId: 'live', cwd: '/w', turns: [bigTurn('alpha', 20), bigTurn('bravo', 20), bigTurn('charlie', 20)] });
    writeFileSync(file, jsonl(lines.slice(0, 4)));
    const catalog = new SessionCatalog();
    const meter = new LiveSessionMeter(found(file), catalog.counterFor);
    const first = await meter.update();
    expect(first).toMatchObject({ changed: true, session: { messages: 4, title: 'TURN-alpha: read notes-alpha.txt and restate it' } });
    expect(await meter.update()).toMatchObject({ changed: false, session: first.session });

    // The agent is mid-way through writing a line: nothing new yet.
    const next = jsonl(lines.slice(4, 8));
    appendFileSync(file, next.slice(0, 100));
    expect((await meter.update()).changed).toBe(false);
    appendFileSync(file, next.slice(100));
    const second = await meter.update();
    expect(second).toMatchObject({ changed: true, session: { messages: 8 } });
    expect(second.session.tokens).toBeGreaterThan(first.session.tokens);

    // The same as reading the whole file.
    const whole = await catalog.meter({ ...found(file), size: 1, mtimeMs: 1 });
    expect(second.session.tokens).toBe(whole.tokens);

    // Rewritten shorter (a new session in its place): counted from the start.
    writeFileSync(file, jsonl(lines.slice(8, 12)));
    const third = await meter.update();
    expect(third).toMatchObject({ changed: true, session: { messages: 4, title: 'TURN-charlie: read notes-charlie.txt and restate it' } });
  });

  it('a session file that is gone is listed with an error', async () => {
    const file = fresh();
    writeFileSync(file, jsonl(claudeLines({ sessionId: 'live', cwd: '/w', turns: [bigTurn('alpha', 2)] })));
    const meter = new LiveSessionMeter(found(file), new SessionCatalog().counterFor);
    await meter.update();
    rmSync(file);
    expect((await meter.update()).session.error).toMatch(/the session file is gone/);
  });
});
