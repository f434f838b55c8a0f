// Following a session file as an agent writes it: only appended lines come back, a partial last
// line waits for its newline, and a truncated or replaced file is read again from the start. The
// work is linear in what was appended (a long line arriving in pieces included), a file over the
// listing's limit is not read, and a FIFO or a link is never opened through.

import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { overLimitError, SESSION_MAX_BYTES } from '../../src/sessions/diskReads';
import { JsonlFollower } from '../../src/sessions/jsonlFollower';
import type { FoundSession } from '../../src/sessions/agentSession';
import { LiveSessionMeter } from '../../src/sessions/liveSessionMeter';
import { SessionCatalog } from '../../src/sessions/sessionCatalog';
import { bigTurn, claudeLines, jsonl } from '../helpers/agentSessions';

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

describe('following within bounds', () => {
  const found = (file: string): FoundSession => ({ agent: 'claude-code', id: 'live', file, format: 'claude-code', size: 0, mtimeMs: 0 });

  it('a line without a newline, appended in pieces, costs its length: each piece is read and kept once', async () => {
    const file = fresh();
    writeFileSync(file, '{"a":1}\n');
    const f = new JsonlFollower(file);
    await f.read();
    const start = f.bytesTouched;
    const piece = 256 * 1024;
    const pieces = 64;
    appendFileSync(file, '{"pad":"');
    for (let i = 0; i < pieces; i++) {
      appendFileSync(file, 'x'.repeat(piece));
      expect((await f.read()).lines).toEqual([]);
    }
    appendFileSync(file, '"}\n');
    const done = await f.read();
    expect(done.lines).toHaveLength(1);
    expect(done.lines[0]!.length).toBe(piece * pieces + 10);
    // Read once, kept once, joined once: about three times the line, whatever the number of pieces
    // (the pieces joined again at each read would be ~pieces/2 times the line).
    const appended = piece * pieces + 13;
    expect(f.bytesTouched - start).toBeLessThanOrEqual(3 * appended + 64);
  });

  it('a file over the limit is not read, and says so; back within it, it is read from the start', async () => {
    const file = fresh();
    writeFileSync(file, '{"a":1}\n{"a":2');
    const f = new JsonlFollower(file, { maxBytes: 1024 });
    expect((await f.read()).lines).toEqual(['{"a":1}']);
    const before = f.bytesTouched;
    truncateSync(file, 4096);
    expect(await f.read()).toMatchObject({ lines: [], tooLarge: 4096, offset: 0 });
    expect(f.bytesTouched).toBe(before);
    writeFileSync(file, '{"b":1}\n');
    expect(await f.read()).toMatchObject({ lines: ['{"b":1}'], reset: true });
  });

  it('the live meter holds to the listing’s limit: past it, the listing’s error and nothing read or kept', async () => {
    const file = fresh();
    writeFileSync(file, jsonl(claudeLines({ sessionId: 'live', cwd: '/w', turns: [bigTurn('alpha', 20)] })));
    const meter = new LiveSessionMeter(found(file), new SessionCatalog().counterFor);
    const first = await meter.update();
    expect(first.session.error).toBeUndefined();
    const touched = meter.bytesTouched;
    // The agent appends past SESSION_MAX_BYTES (a sparse file: nothing is written to disk).
    truncateSync(file, SESSION_MAX_BYTES + 1024 * 1024);
    const over = await meter.update();
    expect(over).toMatchObject({
      changed: true,
      session: { error: overLimitError(SESSION_MAX_BYTES + 1024 * 1024, SESSION_MAX_BYTES), messages: 0, tokens: 0 },
    });
    expect(over.result).toBeUndefined();
    expect(meter.bytesTouched).toBe(touched);
    expect((await meter.update()).changed).toBe(false);
    // The same words as the listing for a file that size.
    const listed = await new SessionCatalog().meter({ ...found(file), size: SESSION_MAX_BYTES + 1024 * 1024, mtimeMs: 1 });
    expect(listed.error).toBe(over.session.error);
  });

  it.skipIf(process.platform === 'win32')('a FIFO or a link in its place is not opened through, and the read says what it is', async () => {
    const pipe = fresh();
    spawnSync('mkfifo', [pipe]);
    const meter = new LiveSessionMeter(found(pipe), new SessionCatalog().counterFor);
    expect((await meter.update()).session.error).toBe(`${pipe}: a named pipe (FIFO), not a regular file: a session is read only from the file itself`);
    const target = fresh();
    writeFileSync(target, jsonl(claudeLines({ sessionId: 'live', cwd: '/w', turns: [bigTurn('alpha', 2)] })));
    const linked = fresh();
    symlinkSync(target, linked);
    expect(await new JsonlFollower(linked).read()).toMatchObject({ lines: [], notFile: 'a symbolic link' });
  });
});
