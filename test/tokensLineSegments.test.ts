// A long text counted as the sum of its line parts (tokens/lineSegments.ts) gives exactly the
// count of the whole text, for both tiktoken encodings: on every real transcript's text, on
// random texts built from the characters that decide where pieces end (line breaks, slashes,
// spaces of every kind, punctuation, digits, letters, CJK), and on the cases at the edge of the
// rule. The compaction counts its summary this way, so a difference would move tokensAfter.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { transcriptTexts } from '../bench/lib/corpus';
import { createPieceCounter } from '../src/engine/tokens/encoders';
import { countByLines, forEachLinePart } from '../src/engine/tokens/lineSegments';
import type { PieceCounter } from '../src/engine/tokens/pieceCounter';
import { estimateCounter } from '../src/engine/tokens/estimate';
import type { EncodingName } from '../src/engine/tokens/tokenCounter';
import { transcriptFiles, transcriptPath } from './helpers/transcripts';

const ENCODINGS: EncodingName[] = ['o200k_base', 'cl100k_base'];

const EDGES = [
  'a.\n/b',
  'a.\n\n/b\n//c',
  'x\n y\n\tz\n\u00a0w\n\u2028v\n\u3000u',
  'line\r\nnext\rsame\n\nafter blank\n',
  '- item one.\n- item two\n## Heading\n\\# escaped\n',
  '\n\n\nstarts with breaks',
  'ends with breaks\n\n\n',
  "it's\n's\n'd done\n123\n4567\n",
  '中文\n。标点\n（括号）\n',
  '😀\n👍🏽\nx',
  '\ud800\n\udc00\n',
];

const CHARS = [
  '\n',
  '\n',
  '\r',
  '/',
  ' ',
  '  ',
  '\t',
  '\u00a0',
  '\u3000',
  '.',
  ',',
  '-',
  '#',
  '`',
  "'s",
  '1',
  '22',
  '333',
  'a',
  'Bc',
  'word',
  '中',
  '文',
  '😀',
  'é',
  'e\u0301',
];

function parts(text: string): string[] {
  const out: string[] = [];
  forEachLinePart(text, (s) => out.push(s));
  return out;
}

describe('counting a text by its line parts', () => {
  const counters = new Map<EncodingName, PieceCounter>();
  beforeAll(async () => {
    for (const e of ENCODINGS) counters.set(e, await createPieceCounter(e));
  });

  it('cuts only after a line break, and the parts join to the text', () => {
    for (const t of EDGES) expect(parts(t).join('')).toBe(t);
    expect(parts('a\nb\n/c\n d\ne')).toEqual(['a\n', 'b\n/c\n d\n', 'e']);
  });

  it.each(ENCODINGS)('%s: the parts add up to the whole on the edge cases and random texts', (e) => {
    const c = counters.get(e)!;
    for (const t of EDGES) expect(countByLines(t, c, (s) => c.count(s))).toBe(c.count(t));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CHARS), { maxLength: 200 }), (xs) => {
        const t = xs.join('');
        expect(countByLines(t, c, (s) => c.count(s))).toBe(c.count(t));
      }),
      { numRuns: 3000, seed: 27 },
    );
  });

  it.each(ENCODINGS)('%s: the parts add up to the whole on every real transcript', (e) => {
    const c = counters.get(e)!;
    let n = 0;
    for (const rel of transcriptFiles()) {
      for (const t of transcriptTexts(transcriptPath(rel))) {
        expect(countByLines(t, c, (s) => c.count(s))).toBe(c.count(t));
        n++;
      }
    }
    expect(n).toBeGreaterThan(1000);
  });

  it('a counter that is not additive over lines (the estimate) counts the whole text', () => {
    const t = 'ab\ncd\nef';
    expect(countByLines(t, estimateCounter, () => 1000)).toBe(estimateCounter.count(t));
  });
});
