// The shared public transcripts, found as scripts/transcripts.mjs says (CTXC_TRANSCRIPTS, else
// ../shared/transcripts beside the repository), and the repository's own fixtures.

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findTranscriptsDir, listTranscripts } from '../../scripts/transcripts.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..');

export function transcriptsDir(): string {
  return findTranscriptsDir(repoRoot);
}

/** Every transcript file (not sidecars, not licenses), relative to transcriptsDir(). */
export function transcriptFiles(): string[] {
  return listTranscripts(transcriptsDir());
}

export function transcriptPath(rel: string): string {
  return join(transcriptsDir(), rel);
}

export const fixturesDir = join(repoRoot, 'test', 'fixtures');
