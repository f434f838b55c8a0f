// A long text counted as the sum of its line parts (tokens/lineSegments.ts) gives exactly the
// count of the whole text, for both tiktoken encodings: on every real transcript's text, on
// random texts built from the characters that decide where pieces end (line breaks, slashes,
// spaces of every kind, punctuation, digits, letters, CJK), and on the cases at the edge of the
// rule. The compaction counts its summary this way, so a difference would move tokensAfter.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { transcriptTexts } from '../../../bench/lib/corpus';
import { createPieceCounter } from '../../../src/engine/tokens/encoders';
import { countByLines, forEachLinePart } from '../../../src/engine/tokens/lineSegments';
import type { PieceCounter } from '../../../src/engine/tokens/pieceCounter';
import { estimateCounter } from '../../../src/engine/tokens/estimate';
import type { EncodingName } from '../../../src/engine/tokens/tokenCounter';
import { transcriptFiles, transcriptPath } from '../../helpers/transcripts';

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

/** The parts cut at every line break where a piece starts (mask 0), or by content (the default). */
function parts(text: string, mask?: number): string[] {
  const out: string[] = [];
  forEachLinePart(text, (s) => out.push(s), mask);
  return out;
}

/** The sum of the counts of the parts cut at every possible line break. */
function byEveryLine(c: PieceCounter, t: string): number {
  return parts(t, 0).reduce((n, s) => n + c.count(s), 0);
}

describe('counting a text by its line parts', () => {
  const counters = new Map<EncodingName, PieceCounter>();
  beforeAll(async () => {
    for (const e of ENCODINGS) counters.set(e, await createPieceCounter(e));
  });

  it('cuts only after a line break, and the parts join to the text', () => {
    for (const t of EDGES) {
      expect(parts(t, 0).join('')).toBe(t);
      expect(parts(t).join('')).toBe(t);
    }
    expect(parts('a\nb\n/c\n d\ne', 0)).toEqual(['a\n', 'b\n/c\n d\n', 'e']);
    const long = Array.from({ length: 5000 }, (_, i) => `- line ${i} of a long summary`).join('\n');
    const cut = parts(long);
    expect(cut.join('')).toBe(long);
    // About one part per 32 lines, cut by content: the same lines give the same parts elsewhere.
    expect(cut.length).toBeGreaterThan(5000 / 128);
    expect(cut.length).toBeLessThan(5000 / 8);
    const shifted = parts(`# a new first line\n${long}`);
    expect(shifted.slice(shifted.length - cut.length + 1)).toEqual(cut.slice(1));
  });

  it.each(ENCODINGS)('%s: the parts add up to the whole on the edge cases and random texts', (e) => {
    const c = counters.get(e)!;
    for (const t of EDGES) {
      expect(byEveryLine(c, t)).toBe(c.count(t));
      expect(countByLines(t, c, (s) => c.count(s))).toBe(c.count(t));
    }
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CHARS), { maxLength: 200 }), (xs) => {
        const t = xs.join('');
        expect(byEveryLine(c, t)).toBe(c.count(t));
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
        expect(byEveryLine(c, t)).toBe(c.count(t));
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
