// Following a session file as an agent writes it: only appended lines come back, a partial last
// line waits for its newline, and a truncated or replaced file is read again from the start.

import { appendFileSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonlFollower } from '../src/sessions/jsonlFollower';

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
