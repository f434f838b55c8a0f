// ctxc as a real process (dist/cli.js, what `npx ctxc` runs): output piped into a reader that
// stops early (`ctxc compact FILE | head`) ends quietly, not with a stack trace.

import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir, repoRoot } from '../helpers/transcripts';

const cli = join(repoRoot, 'dist', 'cli.js');

beforeAll(() => {
  if (!existsSync(cli)) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot });
});

function runUntilFirstChunk(args: string[]): Promise<{ code: number | null; stderr: string; first: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let first = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', (d: Buffer) => {
      first = d.toString();
      child.stdout.destroy(); // the reader goes away, as `head` does
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, first }));
  });
}

describe('ctxc as a process', () => {
  it('ends quietly when the reader closes the pipe early', async () => {
    const r = await runUntilFirstChunk(['compact', join(fixturesDir, 'afi-core.aider.chat.history.md'), '--format', 'json']);
    expect(r.first).toContain('"tokensBefore"');
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    expect(r.code).toBe(0);
  }, 30_000);
});
