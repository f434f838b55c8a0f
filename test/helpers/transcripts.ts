// Where the shared public transcripts live. CI and fresh clones in a temporary folder both
// need to find them, so look in the usual places and fail loudly when none holds them.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..');

function candidates(): string[] {
  const list: string[] = [];
  if (process.env.CTXC_TRANSCRIPTS) list.push(process.env.CTXC_TRANSCRIPTS);
  list.push(resolve(repoRoot, '..', 'shared', 'transcripts'));
  list.push('/work/shared/transcripts');
  return list;
}

export function transcriptsDir(): string {
  for (const c of candidates()) {
    if (existsSync(join(c, 'MANIFEST.md'))) return c;
  }
  throw new Error(
    `shared transcripts not found; looked in ${candidates().join(', ')}. Set CTXC_TRANSCRIPTS to the folder holding MANIFEST.md.`,
  );
}

/** Every transcript file (not sidecars, not licenses), relative to transcriptsDir(). */
export function transcriptFiles(): string[] {
  const root = transcriptsDir();
  const out: string[] = [];
  for (const dir of readdirSync(root)) {
    const full = join(root, dir);
    if (!statSync(full).isDirectory()) continue;
    for (const f of readdirSync(full)) {
      if (f.endsWith('.source.json') || f === 'LICENSE') continue;
      out.push(join(dir, f));
    }
  }
  return out.sort();
}

export function transcriptPath(rel: string): string {
  return join(transcriptsDir(), rel);
}

export const fixturesDir = join(repoRoot, 'test', 'fixtures');
