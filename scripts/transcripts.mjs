// Where the shared public transcripts are, for the tests, the benchmarks and the end-to-end
// scripts alike: the folder named by CTXC_TRANSCRIPTS, else ../shared/transcripts beside the
// repository. Nothing else is searched, so a run never picks up some other copy by accident.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const TRANSCRIPTS_ENV = 'CTXC_TRANSCRIPTS';

/** The folder holding MANIFEST.md and the transcripts; throws naming where it looked.
 *  @param {string} repoRoot the repository's root folder
 *  @returns {string} */
export function findTranscriptsDir(repoRoot) {
  const fromEnv = process.env[TRANSCRIPTS_ENV];
  const dir = fromEnv ? resolve(fromEnv) : resolve(repoRoot, '..', 'shared', 'transcripts');
  if (existsSync(join(dir, 'MANIFEST.md'))) return dir;
  const where = fromEnv ? `${TRANSCRIPTS_ENV}=${fromEnv}` : `${dir} (beside the repository)`;
  throw new Error(`shared transcripts not found: no MANIFEST.md in ${where}. Set ${TRANSCRIPTS_ENV} to the folder holding MANIFEST.md.`);
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
