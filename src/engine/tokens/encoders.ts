// Tiktoken encodings, loaded lazily: the rank files are large (o200k ≈ 2.3 MB of base64), so
// nothing is imported or built until the first count asks for it — never on the activation
// path. The counter is our own memoized per-piece BPE (pieceCounter.ts), exact to
// js-tiktoken's `encode(text, [], []).length`; js-tiktoken supplies only the rank files.

import { PieceCounter } from './pieceCounter';
import { RankTable, type RankFile } from './rankTable';
import type { EncodingName, TextCounter } from './tokenCounter';

export const ENCODING_NAMES: readonly EncodingName[] = ['o200k_base', 'cl100k_base'];

interface LoadedEncoding {
  file: RankFile;
  table: RankTable;
  counter: PieceCounter;
}

const loading = new Map<EncodingName, Promise<LoadedEncoding>>();
const ready = new Map<EncodingName, LoadedEncoding>();

/** The rank file of `name` (js-tiktoken's), imported on first use. */
export async function loadRankFile(name: EncodingName): Promise<RankFile> {
  switch (name) {
    case 'o200k_base':
      return (await import('js-tiktoken/ranks/o200k_base')).default;
    case 'cl100k_base':
      return (await import('js-tiktoken/ranks/cl100k_base')).default;
    default:
      throw new Error(`unknown encoding "${String(name)}"; expected one of ${ENCODING_NAMES.join(', ')}`);
  }
}

function load(name: EncodingName): Promise<LoadedEncoding> {
  let p = loading.get(name);
  if (!p) {
    p = loadRankFile(name).then((file) => {
      const table = new RankTable(file);
      const enc = { file, table, counter: new PieceCounter(name, table, file) };
      ready.set(name, enc);
      return enc;
    });
    // A failed load (e.g. a broken bundle) may be retried rather than cached forever.
    p.catch(() => loading.delete(name));
    loading.set(name, p);
  }
  return p;
}

/** The shared counter for `name`, loading it on first use. Conversation text is counted as
 *  ordinary text: special-token strings such as `<|endoftext|>` are not special (TOKENS.md). */
export async function loadEncoding(name: EncodingName): Promise<TextCounter> {
  return (await load(name)).counter;
}

/** The shared counter for `name` if it is already loaded, without waiting: lets a status bar
 *  show a count synchronously once the ranks are in, and never trigger the load itself. */
export function loadedEncoding(name: EncodingName): TextCounter | undefined {
  return ready.get(name)?.counter;
}

/** A counter with its own empty memo over the shared rank table (benchmarks use it to
 *  measure a cold memo; tests to avoid sharing state). */
export async function createPieceCounter(name: EncodingName): Promise<PieceCounter> {
  const enc = await load(name);
  return new PieceCounter(name, enc.table, enc.file);
}
