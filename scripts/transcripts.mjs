// Where the shared public transcripts are, for the tests, the benchmarks and the end-to-end
// scripts alike: the folder named by CTXC_TRANSCRIPTS, else ../shared/transcripts beside the
// repository, else the repository's own copy of them (test/transcripts: the same files, byte for
// byte, with their sources and licenses in its MANIFEST.md), so a clone anywhere runs its tests.
// Nothing else is searched, so a run never picks up some other copy by accident.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const TRANSCRIPTS_ENV = 'CTXC_TRANSCRIPTS';
/** The repository's own copy, relative to its root. */
export const REPO_TRANSCRIPTS = join('test', 'transcripts');

/** The folder holding MANIFEST.md and the transcripts; throws naming where it looked.
 *  @param {string} repoRoot the repository's root folder
 *  @returns {string} */
export function findTranscriptsDir(repoRoot) {
  const fromEnv = process.env[TRANSCRIPTS_ENV];
  const holds = (dir) => existsSync(join(dir, 'MANIFEST.md'));
  if (fromEnv) {
    const dir = resolve(fromEnv);
    if (holds(dir)) return dir;
    throw new Error(`shared transcripts not found: no MANIFEST.md in ${TRANSCRIPTS_ENV}=${fromEnv}. Set ${TRANSCRIPTS_ENV} to the folder holding MANIFEST.md.`);
  }
  const beside = resolve(repoRoot, '..', 'shared', 'transcripts');
  if (holds(beside)) return beside;
  const own = resolve(repoRoot, REPO_TRANSCRIPTS);
  if (holds(own)) return own;
  throw new Error(
    `shared transcripts not found: no MANIFEST.md in ${beside} (beside the repository), nor in ${own} (the repository's copy). Set ${TRANSCRIPTS_ENV} to the folder holding MANIFEST.md.`,
  );
}

/** Transcript files (no `.source.json` sidecars, no licenses), relative to `dir`, sorted.
 *  @param {string} dir
 *  @returns {string[]} */
export function listTranscripts(dir) {
  const out = [];
  for (const sub of readdirSync(dir)) {
    const full = join(dir, sub);
    if (!statSync(full).isDirectory()) continue;
    for (const f of readdirSync(full)) if (!f.endsWith('.source.json') && f !== 'LICENSE') out.push(join(sub, f));
  }
  return out.sort();
}
