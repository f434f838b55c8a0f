// The fuzz suite: the shared transcripts, cut down and then mutated (truncated, bytes flipped,
// lines shuffled, dropped or repeated, a line of up to 2 MB, 100,000 nested arrays or objects, invalid
// UTF-8, NUL bytes, values of the wrong type), fed to every importer and to `ctxc compact` —
// in-process for the bulk, as a real process for a few. Whatever comes in: an import returns or
// throws a TranscriptError (never anything else, never a stack overflow); `ctxc compact` exits 0
// or 2, prints no stack trace, and leaves an output file exactly when it succeeded. Each case has
// a generous time limit (a hang fails it) rather than a timed assertion. Seeded: the same cases on
// every run; the count is printed.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeTranscript } from '../../src/cli/readTranscript';
import { main } from '../../src/cli/main';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import { isTranscriptError } from '../../src/engine/conversation/importers/transcriptError';
import type { SourceFormat } from '../../src/engine/conversation/model';
import { fuzzCases, seedCorpus, type FuzzCase } from '../helpers/fuzzCases';
import { repoRoot } from '../helpers/transcripts';

const SEED = 0x5afe17;
/** Cases fed to every importer; the first COMPACT_CASES of them also to `ctxc compact` in-process,
 *  and PROCESS_CASES (chosen to cover each kind of damage) to `ctxc compact` as a process. */
const IMPORT_CASES = 200;
const COMPACT_CASES = 32;
const PROCESS_CASES = 6;
/** Per case: far above what any case takes; only a hang reaches it. */
const CASE_TIMEOUT_MS = 60_000;

/** Every format an importer exists for (each case is forced through each of them too). */
const FORMATS: SourceFormat[] = [
  'openai',
  'anthropic',
  'cline',
  'claude-code',
  'vscode-chat',
  'aider',
  'swe-agent',
  'mini-swe-agent',
  'openhands',
  'longmemeval',
];

const corpus = seedCorpus();
const cases = fuzzCases(SEED, IMPORT_CASES, corpus);
const tmp = mkdtempSync(join(tmpdir(), 'ctxc-fuzz-'));
const ran = { notText: 0, importerRuns: 0, transcriptErrors: 0, imported: 0, compacts: 0, processes: 0, exitCodes: {} as Record<string, number> };

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  console.log(
    `fuzz (seed ${SEED}): ${cases.length} mutated transcripts from ${corpus.length} seeds (${ran.notText} refused as not UTF-8 text); ${ran.importerRuns} importer runs (${ran.imported} imported, ${ran.transcriptErrors} TranscriptErrors), ` +
      `${ran.compacts} in-process ctxc compact runs, ${ran.processes} ctxc processes; exit codes ${JSON.stringify(ran.exitCodes)}`,
  );
});

const label = (c: FuzzCase) => `#${c.id} ${c.seed}: ${c.mutations.join(' + ')} (${c.bytes.length.toLocaleString('en-US')} bytes)`;

function noStack(text: string, what: string): void {
  expect(text, what).not.toMatch(/\n\s+at .+:\d+:\d+|internal error|RangeError|Maximum call stack/);
}

/** Runs one import; anything but a result or a TranscriptError fails the case. */
function importOnce(text: string, c: FuzzCase, format?: SourceFormat): void {
  ran.importerRuns++;
  try {
    const r = importTranscript(text, { sourcePath: c.name, ...(format ? { format } : {}) });
    expect(Array.isArray(r.conversation.messages)).toBe(true);
    ran.imported++;
  } catch (e) {
    if (!isTranscriptError(e))
      throw new Error(`${label(c)}, ${format ?? 'detected format'}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`, { cause: e });
    expect(e.message.length, 'a TranscriptError message stays short').toBeLessThan(1_000);
    ran.transcriptErrors++;
  }
}

describe('fuzz: every importer', () => {
  it.each(cases.map((c) => [label(c), c] as const))(
    '%s',
    (_name, c) => {
      let text: string;
      try {
        text = decodeTranscript(c.bytes, c.name);
      } catch (e) {
        // Not UTF-8 text: refused by the reader with a TranscriptError, before any importer.
        expect(isTranscriptError(e), String(e)).toBe(true);
        ran.notText++;
        return;
      }
      importOnce(text, c);
      for (const f of FORMATS) importOnce(text, c, f);
    },
    CASE_TIMEOUT_MS,
  );
});

async function compactInProcess(c: FuzzCase): Promise<void> {
  const dir = join(tmp, `in-${c.id}`);
  rmSync(dir, { recursive: true, force: true });
  const file = join(dir, c.name);
  const out = join(dir, 'out', 'compacted.md');
  await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
  writeFileSync(file, c.bytes);
  let stdout = '';
  let stderr = '';
  const code = await main(['compact', file, '--out', out], { out: (t) => void (stdout += t), err: (t) => void (stderr += t), env: {}, cwd: dir });
  ran.compacts++;
  ran.exitCodes[code] = (ran.exitCodes[code] ?? 0) + 1;
  expect([0, 2], `${label(c)}: exit ${code}: ${stderr.slice(0, 500)}`).toContain(code);
  noStack(stderr, label(c));
  expect(stdout).toBe('');
  expect(existsSync(out), `${label(c)}: an output file exactly when it succeeded`).toBe(code === 0);
  if (code === 2) expect(stderr.trim().split('\n').at(-1)).toMatch(/^ctxc compact: /);
  rmSync(dir, { recursive: true, force: true });
}

describe('fuzz: ctxc compact in-process', () => {
  it.each(cases.slice(0, COMPACT_CASES).map((c) => [label(c), c] as const))(
    '%s',
    async (_name, c) => {
      await compactInProcess(c);
    },
    CASE_TIMEOUT_MS,
  );
});

/** One case per kind of damage that reaches the process differently, then the first others. */
function processCases(): FuzzCase[] {
  const wanted = ['deep nesting', 'invalid UTF-8', 'huge line', 'truncate', 'tree edit', 'flip bytes'];
  const picked: FuzzCase[] = [];
  for (const m of wanted) {
    const c = cases.find((x) => x.mutations.includes(m) && !picked.includes(x));
    if (c) picked.push(c);
  }
  for (const c of cases) if (picked.length < PROCESS_CASES && !picked.includes(c)) picked.push(c);
  return picked.slice(0, PROCESS_CASES);
}

function runProcess(args: string[], cwd: string): Promise<{ code: number | null; stderr: string; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'dist', 'cli.js'), ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), CASE_TIMEOUT_MS - 5_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, stderr, signal });
    });
  });
}

describe('fuzz: ctxc compact as a process', () => {
  it.each(processCases().map((c) => [label(c), c] as const))(
    '%s',
    async (_name, c) => {
      const dir = join(tmp, `proc-${c.id}`);
      rmSync(dir, { recursive: true, force: true });
      await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
      writeFileSync(join(dir, c.name), c.bytes);
      const r = await runProcess(['compact', c.name, '--out', 'compacted.md'], dir);
      ran.processes++;
      expect(r.signal, `${label(c)}: did not end in time`).toBeNull();
      expect([0, 2], `${label(c)}: exit ${r.code}: ${r.stderr.slice(0, 500)}`).toContain(r.code);
      noStack(r.stderr, label(c));
      expect(existsSync(join(dir, 'compacted.md'))).toBe(r.code === 0);
      // Nothing half-written is left beside it.
      expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    },
    CASE_TIMEOUT_MS,
  );
});
