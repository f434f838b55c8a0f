// The indexed searches that keep compaction linear give exactly the answers of the plain ones
// they replaced: presentFacts (one token index of the text for many facts) against factPresent
// fact by fact, and firstSimilarBefore (prefix filtering) against comparing each set with every
// set in its look-back window. Random facts and texts are drawn from fragments that exercise the
// word-boundary rules (inflections, paths inside longer paths, CJK, punctuation-only facts).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fact, FactKind } from '../../../src/engine/result';
import { factPresent, joinNormalized, missingFacts, normalizeForMatch, presentFacts } from '../../../src/engine/validate/factMatch';
import { tokenizeNormalized } from '../../../src/engine/validate/factTokens';
import { firstSimilarBefore, jaccardAbove, jaccardSorted } from '../../../src/engine/text/similarity';

const WORDS = [
  'fail',
  'failed',
  'a.ts',
  'data.ts',
  'src/a.ts',
  'TypeError: x is not a function',
  'api',
  'API',
  '修复',
  '登录接口',
  'bug',
  'x',
  '42',
  '4.2',
  'FooBar',
  '!!',
  '/',
  '-',
  '好的',
  '_id',
  'é',
  'naïve',
  'the',
  'item 12',
  '12',
];
const KINDS: FactKind[] = ['userMessage', 'filePath', 'errorSignature', 'technicalTerm', 'keyword', 'number', 'pendingTask'];

const fragment = fc.constantFrom(...WORDS);
const glue = fc.constantFrom(' ', '', '\n', '.', '/', '-', '  ', '修', 'x');
const text = fc.array(fc.tuple(fragment, glue), { maxLength: 30 }).map((parts) => parts.map(([w, g]) => w + g).join(''));
const fact = fc.record({ kind: fc.constantFrom(...KINDS), value: fc.oneof(text, fragment), sourceId: fc.constant('m1') }) as fc.Arbitrary<Fact>;

describe('normalizeForMatch', () => {
  it('lower-cases, collapses every run of whitespace (tabs, newlines, no-break and ideographic spaces) to one space and trims', () => {
    expect(normalizeForMatch(' Fix\tthe  Bug\n\nin src/A.ts\u00a0now\u3000please ')).toBe('fix the bug in src/a.ts now please');
    const spaces = fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\ufeff', ' \t ');
    const spaced = fc.array(fc.tuple(fragment, spaces), { maxLength: 12 }).map((parts) => parts.map(([w, g]) => w + g).join(''));
    fc.assert(fc.property(spaced, (t) => normalizeForMatch(t) === t.toLowerCase().split(/\s+/).filter(Boolean).join(' ')));
  });
});

describe('presentFacts', () => {
  it('answers as factPresent does, fact by fact, on random facts and texts', () => {
    fc.assert(
      fc.property(fc.array(fact, { maxLength: 25 }), text, (facts, t) => {
        const hay = normalizeForMatch(t);
        expect(presentFacts(facts, hay)).toEqual(facts.map((f) => factPresent(f, hay)));
      }),
      { numRuns: 400 },
    );
  });

  it('answers as factPresent does for facts cut from the text at random places', () => {
    fc.assert(
      fc.property(text, fc.array(fc.tuple(fc.constantFrom(...KINDS), fc.nat(), fc.nat()), { maxLength: 25 }), (t, cuts) => {
        const hay = normalizeForMatch(t);
        const facts: Fact[] = cuts.map(([kind, a, b]) => ({
          kind,
          value: t.slice(Math.min(a, b) % (t.length + 1), Math.max(a, b) % (t.length + 1)),
          sourceId: 'm',
        }));
        expect(presentFacts(facts, hay)).toEqual(facts.map((f) => factPresent(f, hay)));
      }),
      { numRuns: 400 },
    );
  });

  it('answers the same from the joined texts tokenized one by one (empty ones among them) as from the whole, checked once or again', () => {
    fc.assert(
      fc.property(fc.array(fact, { maxLength: 25 }), fc.array(fc.oneof(text, fc.constant('')), { maxLength: 6 }), (facts, texts) => {
        const parts = texts.map((t) => tokenizeNormalized(normalizeForMatch(t)));
        const hay = joinNormalized(parts.map((p) => p.text));
        const expected = facts.map((f) => factPresent(f, hay));
        expect(presentFacts(facts, hay, parts)).toEqual(expected);
        // Checked again, the parts keep what they hold for these facts: the same answers.
        expect(presentFacts(facts, hay, parts)).toEqual(expected);
        expect(presentFacts(facts, hay, parts)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('answers as factPresent does for fact arrays met one after another that share fact objects, older arrays met again among them', () => {
    // Each new array continues the anchor numbering of the last one (its facts met before keep
    // their anchors' ids); an older array met again, or an array after it, must not be misled.
    fc.assert(
      fc.property(
        fc.array(fact, { maxLength: 10 }),
        fc.array(fc.tuple(fc.constantFrom(...KINDS), fc.nat(), fc.nat()), { maxLength: 20 }),
        fc.array(fc.tuple(fc.array(fc.nat(), { maxLength: 25 }), fc.nat(), fc.boolean()), { minLength: 1, maxLength: 8 }),
        fc.array(fc.oneof(text, fc.constant('')), { maxLength: 4 }),
        (other, cuts, draws, texts) => {
          const parts = texts.map((t) => tokenizeNormalized(normalizeForMatch(t)));
          const hay = joinNormalized(parts.map((p) => p.text));
          // Facts cut from the text (most of them present) and others.
          const pool: Fact[] = [
            ...cuts.map(([kind, a, b]) => ({ kind, value: hay.slice(Math.min(a, b) % (hay.length + 1), Math.max(a, b) % (hay.length + 1)), sourceId: 'm' })),
            ...other,
          ];
          if (pool.length === 0) return;
          const met: Fact[][] = [];
          for (const [picks, back, again] of draws) {
            const facts = again && met.length > 0 ? met[back % met.length]! : picks.map((k) => pool[k % pool.length]!);
            met.push(facts);
            const expected = facts.map((f) => factPresent(f, hay));
            expect(presentFacts(facts, hay, parts)).toEqual(expected);
            expect(presentFacts(facts, hay)).toEqual(expected);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('answers the same for the same texts checked again, against facts read again or other facts', () => {
    // The parts keep what they were found to hold for the facts last looked for in them.
    const parts = ['Fix src/a.ts and src/b.ts', 'TypeError: x is not a function', '', 'the tests fail in b.ts'].map((t) =>
      tokenizeNormalized(normalizeForMatch(t)),
    );
    const hay = joinNormalized(parts.map((p) => p.text));
    const facts = (): Fact[] => [
      { kind: 'filePath', value: 'src/b.ts', sourceId: 'a' },
      { kind: 'errorSignature', value: 'TypeError: x is not a function', sourceId: 'a' },
      { kind: 'userMessage', value: 'the tests fail in c.ts', sourceId: 'a' },
      { kind: 'keyword', value: 'fail', sourceId: 'a' },
      { kind: 'technicalTerm', value: 'TypeError', sourceId: 'a' },
      { kind: 'number', value: '3.14', sourceId: 'a' },
    ];
    const other: Fact[] = [
      { kind: 'filePath', value: 'a.ts', sourceId: 'a' },
      { kind: 'userMessage', value: 'the tests fail in b.ts', sourceId: 'a' },
      { kind: 'keyword', value: 'function', sourceId: 'a' },
      { kind: 'number', value: '42', sourceId: 'a' },
    ];
    for (const list of [facts(), facts(), other, facts(), other]) expect(presentFacts(list, hay, parts)).toEqual(list.map((f) => factPresent(f, hay)));
    expect(presentFacts(other, hay, parts)).toEqual([true, true, true, false]);
    expect(presentFacts(facts(), hay, parts)).toEqual([true, true, false, true, true, false]);
  });

  it('finds a fact taken from the text itself, and misses one cut inside a word', () => {
    const hay = normalizeForMatch('Please fix src/data.ts: it failed with TypeError: x is not a function. 请修复登录接口');
    const facts: Fact[] = [
      { kind: 'filePath', value: 'data.ts', sourceId: 'a' },
      { kind: 'filePath', value: 'a.ts', sourceId: 'a' },
      { kind: 'keyword', value: 'fail', sourceId: 'a' },
      { kind: 'errorSignature', value: 'TypeError: x is not a function', sourceId: 'a' },
      { kind: 'userMessage', value: '登录接口', sourceId: 'a' },
      { kind: 'userMessage', value: 'please fix src/da', sourceId: 'a' },
    ];
    expect(presentFacts(facts, hay)).toEqual([true, false, true, true, true, true]);
    expect(missingFacts(facts, hay).map((f) => f.value)).toEqual(['a.ts']);
  });
});

function brute(sets: readonly (Uint32Array | undefined)[], t: number, lookback: number): (number | undefined)[] {
  return sets.map((a, i) => {
    if (!a || a.length === 0) return undefined;
    for (let j = Math.max(0, i - lookback); j < i; j++) {
      const b = sets[j];
      if (b && b.length > 0 && jaccardSorted(a, b) >= t) return j;
    }
    return undefined;
  });
}

const set = fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 12 }).map((xs) => Uint32Array.from(xs.sort((a, b) => a - b)));

describe('firstSimilarBefore', () => {
  it('finds the same earliest similar set as comparing every pair in the window', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(set, { nil: undefined }), { maxLength: 40 }),
        fc.constantFrom(0, 0.2, 0.5, 0.6, 0.75, 0.8, 1),
        fc.integer({ min: 1, max: 50 }),
        (sets, t, lookback) => {
          expect(firstSimilarBefore(sets, t, lookback)).toEqual(brute(sets, t, lookback));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds the same for hashes over the whole 32-bit range (rarest first by one numeric sort)', () => {
    // A few hashes above 2^31 and near 2^32 among small ones, shared by many sets or few.
    const pool = [0, 1, 7, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 5, 3_000_000_000, 2 ** 32 - 2, 2 ** 32 - 1, 123_456_789, 4_000_000_000, 42];
    const wide = fc.uniqueArray(fc.constantFrom(...pool), { maxLength: 10 }).map((xs) => Uint32Array.from(xs.sort((a, b) => a - b)));
    fc.assert(
      fc.property(
        fc.array(fc.option(wide, { nil: undefined }), { maxLength: 60 }),
        fc.constantFrom(0.2, 0.5, 0.6, 0.75, 0.8, 1),
        fc.integer({ min: 1, max: 60 }),
        (sets, t, lookback) => {
          expect(firstSimilarBefore(sets, t, lookback)).toEqual(brute(sets, t, lookback));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('jaccardAbove', () => {
  it('answers jaccardSorted(a, b) > t for every pair of sets and threshold, stopping early or not', () => {
    fc.assert(
      fc.property(set, set, fc.constantFrom(0, 0.2, 0.5, 0.6, 0.75, 0.8, 0.9, 0.99, 1), (a, b, t) => {
        expect(jaccardAbove(a, b, t)).toBe(jaccardSorted(a, b) > t);
      }),
      { numRuns: 3000, seed: 27 },
    );
  });
});
