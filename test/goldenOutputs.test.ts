// Pins the exact bytes of `ctxc compact --format json` (default settings, and --ratio 0.1) and of
// `ctxc count --json` on every shared transcript (each LongMemEval instance on its own), as
// sha256 digests in test/goldenOutputs.json. A refactor must leave every digest as it is; a
// change that alters output on purpose regenerates them and says why in its commit:
//
//   UPDATE_GOLDEN=1 npx vitest run test/goldenOutputs.test.ts
//
// The CLI runs in-process with the transcripts folder as its working directory (process and io),
// so the paths it prints (and the digests) do not depend on where the folder is.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../src/cli/io';
import { main } from '../src/cli/main';
import { fixturesDir, transcriptFiles, transcriptsDir } from './helpers/transcripts';

const SNAPSHOT = join(fixturesDir, '..', 'goldenOutputs.json');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** One conversation: a file, and for LongMemEval which instance. */
interface Case {
  file: string;
  instance?: number;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const file of transcriptFiles()) {
    if (file.startsWith('longmemeval/')) {
      const n = (JSON.parse(readFileSync(join(transcriptsDir(), file), 'utf8')) as unknown[]).length;
      for (let i = 0; i < n; i++) out.push({ file, instance: i });
    } else out.push({ file });
  }
  return out;
}

async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const io: CliIO = { out: (t) => void (out += t), err: () => undefined, env: {}, cwd: transcriptsDir() };
  const code = await main(args, io);
  return { code, out };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const RUNS: { name: string; args: (c: Case) => string[] }[] = [
  { name: 'compact', args: (c) => ['compact', c.file, '--format', 'json'] },
  { name: 'compact --ratio 0.1', args: (c) => ['compact', c.file, '--format', 'json', '--ratio', '0.1'] },
  { name: 'count', args: (c) => ['count', c.file, '--json'] },
];

async function digests(): Promise<Record<string, string>> {
  const actual: Record<string, string> = {};
  for (const c of cases()) {
    const instance = c.instance !== undefined ? ['--instance', String(c.instance)] : [];
    const label = c.instance !== undefined ? `${c.file}#${c.instance}` : c.file;
    for (const r of RUNS) {
      const { code, out } = await run([...r.args(c), ...instance]);
      expect(code, `${r.name} ${label}`).toBe(0);
      actual[`${r.name} ${label}`] = sha256(out);
    }
  }
  return actual;
}

describe('golden outputs of ctxc on the shared transcripts', () => {
  it('every digest matches test/goldenOutputs.json (UPDATE_GOLDEN=1 rewrites it)', async () => {
    const home = process.cwd();
    process.chdir(transcriptsDir());
    let actual: Record<string, string>;
    try {
      actual = await digests();
    } finally {
      process.chdir(home);
    }
    if (UPDATE || !existsSync(SNAPSHOT)) {
      writeFileSync(SNAPSHOT, `${JSON.stringify(actual, null, 2)}\n`);
      if (!UPDATE) throw new Error(`${SNAPSHOT} did not exist: written now; run again to compare`);
    }
    const expected = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as Record<string, string>;
    expect(actual).toEqual(expected);
  }, 600_000);
});
