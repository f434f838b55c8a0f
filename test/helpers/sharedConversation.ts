// A shared transcript imported as the CLI imports it, and a text fed to a reader in pieces: what
// many tests do the same way. (Kept apart from transcripts.ts, which only finds the files, so a
// test that needs paths does not load the importers.)

import { readFileSync } from 'node:fs';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import type { ImportOptions } from '../../src/engine/conversation/importers/importOptions';
import type { Conversation } from '../../src/engine/conversation/model';
import { transcriptPath } from './transcripts';

/** The shared transcript at `rel` (relative to transcriptsDir()), imported with `opts`. */
export function importShared(rel: string, opts: Omit<ImportOptions, 'sourcePath'> = {}): Conversation {
  const path = transcriptPath(rel);
  return importTranscript(readFileSync(path, 'utf8'), { sourcePath: path, ...opts }).conversation;
}

/** Pushes `text` to `push` cut at each of `cuts` (taken modulo its length + 1, in order; a cut
 *  before the last is skipped), then the rest: the pieces join to `text`. */
export function pushInPieces(text: string, cuts: readonly number[], push: (piece: string) => void): void {
  let at = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    const to = c % (text.length + 1);
    if (to < at) continue;
    push(text.slice(at, to));
    at = to;
  }
  push(text.slice(at));
}
