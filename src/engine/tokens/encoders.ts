// Tiktoken encoders, loaded lazily: the rank tables are large (o200k ≈ 2 MB) and building
// the rank map costs about a second, so nothing loads until the first count.

import { Tiktoken } from 'js-tiktoken/lite';
import type { EncodingName, TextCounter } from './tokenCounter';

const loaded = new Map<EncodingName, Promise<TextCounter>>();

async function loadRanks(name: EncodingName) {
  switch (name) {
    case 'o200k_base':
      return (await import('js-tiktoken/ranks/o200k_base')).default;
    case 'cl100k_base':
      return (await import('js-tiktoken/ranks/cl100k_base')).default;
  }
}

/** The encoder for `name`, loading it on first use. Conversation text is counted as ordinary
 *  text: special-token strings such as `<|endoftext|>` are not special here (TOKENS.md). */
export function loadEncoding(name: EncodingName): Promise<TextCounter> {
  let p = loaded.get(name);
  if (!p) {
    p = loadRanks(name).then((ranks) => {
      const enc = new Tiktoken(ranks);
      return { encoding: name, count: (text: string) => (text ? enc.encode(text, [], []).length : 0) };
    });
    loaded.set(name, p);
  }
  return p;
}
