// Pins the exact output of `ctxc compact --format json` (default settings, and --ratio 0.1) and of
// `ctxc count --json` on every shared transcript (each LongMemEval instance on its own), as text
// snapshots under test/golden/<run>/<transcript>.txt written to be reviewed (helpers/readableJson:
// a summary's lines are the snapshot's lines, each message's fate one entry). A refactor must leave
// every snapshot as it is; a change that alters output on purpose rewrites them, and the diff in its
// commit shows what changed:
//
//   UPDATE_GOLDEN=1 npx vitest run test/cli/goldenOutputs.corpus.test.ts
//
// The CLI runs in-process with the transcripts folder as its working directory (process and io),
// so the paths it prints (and the digests) do not depend on where the folder is.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { readableJson } from '../helpers/readableJson';
import { fixturesDir, transcriptFiles, transcriptsDir } from '../helpers/transcripts';

const SNAPSHOTS = join(fixturesDir, '..', 'golden');
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

const RUNS: { name: string; folder: string; args: (c: Case) => string[] }[] = [
  { name: 'compact', folder: 'compact', args: (c) => ['compact', c.file, '--format', 'json'] },
  { name: 'compact --ratio 0.1', folder: 'compact-ratio-0.1', args: (c) => ['compact', c.file, '--format', 'json', '--ratio', '0.1'] },
  { name: 'count', folder: 'count', args: (c) => ['count', c.file, '--json'] },
];

/** Every run's snapshot text, by its path under test/golden. */
async function snapshots(): Promise<Map<string, string>> {
  const actual = new Map<string, string>();
  for (const c of cases()) {
    const instance = c.instance !== undefined ? ['--instance', String(c.instance)] : [];
    const label = c.instance !== undefined ? `${c.file}#${c.instance}` : c.file;
    for (const r of RUNS) {
      const { code, out } = await run([...r.args(c), ...instance]);
      expect(code, `${r.name} ${label}`).toBe(0);
      const value = JSON.parse(out) as unknown;
      // The output is JSON as JSON.stringify writes it (indented, or on one line: the header says
      // which), so the readable form pins every byte.
      const form = out === `${JSON.stringify(value, null, 2)}\n` ? 'indented' : 'one line';
      expect(out, `${r.name} ${label}`).toBe(`${form === 'indented' ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`);
      actual.set(join(r.folder, `${label}.txt`), `# ctxc ${[...r.args(c), ...instance].join(' ')} (JSON ${form})\n${readableJson(value)}`);
    }
  }
  return actual;
}

function storedSnapshots(dir = SNAPSHOTS): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? storedSnapshots(join(dir, e.name)) : [relative(SNAPSHOTS, join(dir, e.name))],
  );
}

describe('golden outputs of ctxc on the shared transcripts', () => {
  it('every output reads as its snapshot under test/golden (UPDATE_GOLDEN=1 rewrites them)', async () => {
    const home = process.cwd();
    process.chdir(transcriptsDir());
    let actual: Map<string, string>;
    try {
      actual = await snapshots();
    } finally {
      process.chdir(home);
    }
    const stored = storedSnapshots();
    if (UPDATE || stored.length === 0) {
      rmSync(SNAPSHOTS, { recursive: true, force: true });
      for (const [path, text] of actual) {
        mkdirSync(dirname(join(SNAPSHOTS, path)), { recursive: true });
        writeFileSync(join(SNAPSHOTS, path), text);
      }
      if (!UPDATE) throw new Error(`${SNAPSHOTS} held no snapshot: written now; run again to compare`);
    }
    expect(storedSnapshots().sort()).toEqual([...actual.keys()].sort());
    for (const [path, text] of actual) expect(text, path).toBe(readFileSync(join(SNAPSHOTS, path), 'utf8'));
  }, 600_000);
});
