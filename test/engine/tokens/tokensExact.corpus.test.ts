// Our counter must give exactly js-tiktoken's `encode(text, [], []).length` — on every real
// transcript, on scripts where BPE is hardest (CJK, emoji, combining marks), on the inputs
// that break naive tokenizers (special-token strings, lone surrogates, long runs), for both
// encodings. A count that is off by one is a bug: the gauge says "exact".

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHINESE_SENTENCES, chineseParagraphs } from '../../../bench/lib/chineseText';
import { transcriptTexts } from '../../../bench/lib/corpus';
import { createPieceCounter, loadRankFile } from '../../../src/engine/tokens/encoders';
import { HEAP_MERGE_MIN_BYTES } from '../../../src/engine/tokens/bytePairCount';
import { MEMO_GENERATION_ENTRIES, MEMO_MAX_PIECE_LENGTH, type PieceCounter } from '../../../src/engine/tokens/pieceCounter';
import { RankTable } from '../../../src/engine/tokens/rankTable';
import type { EncodingName } from '../../../src/engine/tokens/tokenCounter';
import { transcriptFiles, transcriptPath } from '../../helpers/transcripts';

const ENCODINGS: EncodingName[] = ['o200k_base', 'cl100k_base'];

const MIXED_SCRIPTS: string[] = [
  ...CHINESE_SENTENCES,
  chineseParagraphs(3_000, 7).join('\n\n'),
  '日本語のテキストも正しく数えられるべきです。カタカナ、ひらがな、漢字が混ざっています。',
  '東京都渋谷区の天気は晴れ、最高気温は２５度（全角数字）です。',
  '한국어 문장도 정확하게 세어야 합니다. 띄어쓰기가 있는 언어입니다.',
  'Привет, мир! Это проверка кириллицы: ёжик, щука, объём.',
  'مرحبا بالعالم، هذا اختبار للنص العربي مع التشكيل: كَتَبَ',
  'नमस्ते दुनिया, यह देवनागरी लिपि का परीक्षण है: क्षत्रिय, ज्ञान',
  'สวัสดีชาวโลก ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ',
  'Ελληνικά: Γειά σου Κόσμε, ΑΒΓΔ αβγδ',
  'emoji 😀😃😄 family 👨‍👩‍👧‍👦 flags 🇨🇳🇯🇵🇺🇸 skin 👍🏽 keycap 1️⃣ ZWJ 🏳️‍🌈',
  'combining: e\u0301 a\u0308 n\u0303 Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  'mixed 中文English混合123数字，标点。和code: const x = "值";',
  '// 计算令牌数\nfunction count(text: string): number {\n  return encode(text).length; // 返回长度\n}\n',
  '\ufeffleading BOM and a middle \ufeff BOM',
  '\ufeff',
  'full-width ＡＢＣ１２３ and half-width ｱｲｳ',
];

const EDGE_CASES: string[] = [
  '',
  ' ',
  'a',
  '<|endoftext|>',
  'before <|endoftext|> after <|fim_prefix|><|fim_middle|><|fim_suffix|><|endofprompt|>',
  '<|im_start|>user\nhi<|im_end|>',
  'lone high \ud800 and lone low \udc00 and reversed \udc00\ud800 and end \ud83d',
  '\ud800',
  '\udfff\udfff\udfff',
  'line one\r\nline two\r\n\r\n\r\nline three\r',
  '\r\n'.repeat(50),
  ' '.repeat(900),
  '\t'.repeat(300) + 'x',
  'x' + ' \n'.repeat(200) + '  \t  \n\n  y',
  '\u00a0\u2003\u3000 unicode spaces \u2028\u2029',
  '1234567890'.repeat(300),
  '3.14159265358979323846264338327950288419716939937510',
  'a'.repeat(800),
  'ab'.repeat(400),
  'supercalifragilisticexpialidocious'.repeat(20),
  'Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen',
  "I'm you're they've she'll we'd it's I'M YOU'RE THEY'VE SHE'LL WE'D IT'S 'S 'T 'Re 'rE",
  'QmFzZTY0IGJsb2I6IGRHaHBjeUJwY3lCaElHeHZibWNnWW1GelpUWTBJSE4wY21sdVp5QjBhR0YwSUdkdlpYTWdiMjRnWVc1a0lHOXU='.repeat(20),
  '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
  '='.repeat(600) + '\n' + '-'.repeat(600),
  '😀'.repeat(200),
  '中'.repeat(300),
  'é'.repeat(400),
  'ℝℕℤ∀∃∈∉⊂⊃∪∩ ≤≥≠≈ ∑∏∫ √∞',
  '\u0000\u0001\u0002\u001f\u007f control characters',
];

/** Fragments random text is built from: each exercises a different pre-tokenizer branch. */
const FRAGMENTS = [
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\t',
  '\u00a0',
  '\u3000',
  '<|endoftext|>',
  '<|fim_prefix|>',
  "'s",
  "'LL",
  "'re",
  'the',
  'The',
  'THE',
  'HTTPServer',
  'camelCase',
  'snake_case',
  '123',
  '4567',
  '3.14',
  '中文',
  '日本語',
  '한국어',
  'ё',
  'é',
  'e\u0301',
  '😀',
  '👨‍👩‍👧',
  '🇺🇸',
  '\ud800',
  '\udc00',
  '\ufeff',
  '{"a":1}',
  '=>',
  '...',
  '!!!',
  '/usr/bin',
  'C:\\Windows',
  '$',
  '€',
  '，',
  '。',
];

const unit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(' ', '\n', 'a', '9', '中', '!', '\t'), fc.integer({ min: 2, max: 300 })).map(([c, n]) => c.repeat(n)) },
);
const randomText = fc.array(unit, { maxLength: 40 }).map((parts) => parts.join(''));

for (const encoding of ENCODINGS) {
  describe(`${encoding}: counts equal js-tiktoken encode(text, [], []).length`, () => {
    let reference: Tiktoken;
    let ours: PieceCounter;
    const expected = (text: string) => reference.encode(text, [], []).length;

    beforeAll(async () => {
      reference = new Tiktoken(await loadRankFile(encoding));
      ours = await createPieceCounter(encoding);
    });

    it('on every text of every shared transcript', () => {
      let texts = 0;
      let tokens = 0;
      const mismatches: string[] = [];
      for (const rel of transcriptFiles()) {
        for (const text of transcriptTexts(transcriptPath(rel))) {
          const want = expected(text);
          const got = ours.count(text);
          texts++;
          tokens += want;
          if (got !== want && mismatches.length < 5) mismatches.push(`${rel}: ${got} ≠ ${want} for ${JSON.stringify(text.slice(0, 120))}`);
        }
      }
      expect(mismatches).toEqual([]);
      expect(texts).toBeGreaterThan(20_000);
      expect(tokens).toBeGreaterThan(1_000_000);
    });

    it('on Chinese, Japanese, Korean, emoji and other scripts', () => {
      for (const text of MIXED_SCRIPTS) expect(ours.count(text), JSON.stringify(text.slice(0, 60))).toBe(expected(text));
    });

    it('on edge cases: special-token strings, lone surrogates, CRLF, long runs', () => {
      for (const text of EDGE_CASES) expect(ours.count(text), JSON.stringify(text.slice(0, 60))).toBe(expected(text));
    });

    it('on random text (fast-check)', () => {
      fc.assert(
        fc.property(randomText, (text) => ours.count(text) === expected(text)),
        { numRuns: 400, seed: 20_240_601 },
      );
    });

    it('on long single pieces, where the heap merge takes over from the scan', () => {
      const letters = fc.string({ unit: fc.constantFrom('a', 'b', 'e', 'r', 't', 'n', 'é', 'ü'), minLength: HEAP_MERGE_MIN_BYTES - 8, maxLength: 600 });
      fc.assert(
        fc.property(letters, (word) => ours.count(word) === expected(word) && ours.count(' ' + word) === expected(' ' + word)),
        { numRuns: 60, seed: 7 },
      );
    });

    it('a memoized count is the same on the second and later passes', () => {
      const text = MIXED_SCRIPTS.join('\n') + EDGE_CASES.slice(0, 12).join(' ');
      const first = ours.count(text);
      expect(ours.count(text)).toBe(first);
      expect(first).toBe(expected(text));
    });
  });
}

describe('piece memo', () => {
  it('stays bounded and exact when far more distinct pieces pass than it holds', async () => {
    const counter = await createPieceCounter('o200k_base');
    const reference = new Tiktoken(await loadRankFile('o200k_base'));
    let text = '';
    for (let i = 0; i < MEMO_GENERATION_ENTRIES * 2.5; i++) text += ` w${i.toString(36)}q`;
    const want = reference.encode(text, [], []).length;
    expect(counter.count(text)).toBe(want);
    expect(counter.stats().memoEntries).toBeLessThanOrEqual(2 * MEMO_GENERATION_ENTRIES);
    expect(counter.count(text)).toBe(want);
  });

  it('does not keep the texts its pieces were cut from alive', async () => {
    // Memo keys cut from a 200 KB tool output must not pin the output in memory.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const counter = await createPieceCounter('o200k_base');
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100; i++) {
      const word = `distinctword${String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26))}`;
      counter.count(`${word} ${'x '.repeat(100_000)}`);
    }
    gc();
    const retainedMB = (process.memoryUsage().heapUsed - before) / 1e6;
    expect(counter.stats().memoEntries).toBeGreaterThanOrEqual(100);
    expect(retainedMB).toBeLessThan(8); // the 100 texts hold 20 MB
  });

  it('does not keep pieces longer than the limit', async () => {
    const counter = await createPieceCounter('o200k_base');
    counter.count('x'.repeat(MEMO_MAX_PIECE_LENGTH + 1));
    expect(counter.stats().memoEntries).toBe(0);
    counter.count('x'.repeat(MEMO_MAX_PIECE_LENGTH));
    expect(counter.stats().memoEntries).toBe(1);
  });

  it('serves repeated pieces from the memo', async () => {
    const counter = await createPieceCounter('cl100k_base');
    counter.count('hello world hello world hello world');
    // Six pieces: 'hello', ' world', ' hello' are new; ' world', ' hello', ' world' repeat.
    expect(counter.stats()).toEqual({ hits: 3, misses: 3, memoEntries: 3 });
    counter.count('hello world');
    expect(counter.stats()).toEqual({ hits: 5, misses: 3, memoEntries: 3 });
  });
});

describe('rank table', () => {
  it('holds every token of both encodings, each byte among them', async () => {
    for (const [name, size] of [
      ['o200k_base', 199_998],
      ['cl100k_base', 100_256],
    ] as const) {
      const table = new RankTable(await loadRankFile(name));
      expect(table.size).toBe(size);
      expect([...table.byteRank].every((r) => r >= 0)).toBe(true);
    }
  });

  it('rejects a rank file that is not one, naming what was expected', () => {
    expect(() => new RankTable({} as never)).toThrow(/expected \{ pat_str: string, bpe_ranks: string \}/);
    expect(() => new RankTable({ pat_str: '.', special_tokens: {}, bpe_ranks: '! 0 QQ== Q*== ' })).toThrow(/bad base64 character at 10/);
  });

  it('keeps the last rank of a token listed twice and numbers ranks per line', () => {
    // "QQ==" is "A", "Qg==" is "B"; the second line restarts at rank 10.
    const table = new RankTable({ pat_str: '.', special_tokens: {}, bpe_ranks: '! 0 QQ== Qg==\n! 10 QQ==' });
    const bytes = new Uint8Array([65, 66]);
    expect(table.rank(bytes, 0, 1)).toBe(10);
    expect(table.rank(bytes, 1, 2)).toBe(1);
    expect(table.size).toBe(2);
  });
});
