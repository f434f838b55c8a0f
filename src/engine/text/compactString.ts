// A string cut from a larger text (slice, a regex group, a one-element join) is stored by V8 as
// a view of that text: one short model name read from a 50 MB history keeps the whole history
// alive. It also keeps the text's width (two bytes per character once the text holds one
// character beyond Latin-1 anywhere). JSON.parse makes each string it reads a flat copy, as
// narrow as its characters allow; a string with a character beyond Latin-1 cannot be narrowed,
// and a copy by concatenation (detached) spares the JSON text the round trip would build as
// large as it.

import { detached } from '../tokens/pieceCounter';

/** A character that needs two bytes in a V8 string. */
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

/** `s` as a string of its own (the same text): no reference to a text it was cut from, stored
 *  one byte per character when its characters allow it. */
export function compactString(s: string): string {
  if (s.length === 0) return s;
  return BEYOND_LATIN1.test(s) ? detached(s) : (JSON.parse(JSON.stringify(s)) as string);
}
