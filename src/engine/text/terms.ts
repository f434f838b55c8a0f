// Word-level views of text that work for English and for CJK (which has no spaces).
// English: lower-cased runs of letters/digits/underscore. CJK: one token per character, and
// character bigrams where a "term" is needed (most Chinese words are two characters long).

/** Han, kana and hangul: the scripts written without spaces. Non-global: safe for `.test`. */
export const CJK_CHAR = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;

const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/g;
const CJK_CHAR_G = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/g;
/** English words (letters, digits, underscore) or single CJK characters, on lower-cased text. */
const WORD_OR_CJK = /[a-z0-9_]+|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/g;
const LATIN_WORD = /[a-z][a-z0-9_]*/g;

export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/** Number of CJK characters in `text`. */
export function cjkCharCount(text: string): number {
  return text.match(CJK_CHAR_G)?.length ?? 0;
}

/**
 * Tokens of already lower-cased text: English words and single CJK characters, in order.
 * The basis for shingles (near-duplicate detection) and vocabulary diversity.
 */
export function wordTokens(lower: string): string[] {
  return lower.match(WORD_OR_CJK) ?? [];
}

/** English words of lower-cased text (start with a letter), in order. */
export function latinWords(lower: string): string[] {
  return lower.match(LATIN_WORD) ?? [];
}

/** Overlapping character bigrams of each CJK run ("登录错误" → 登录, 录错, 错误); a lone
 *  character yields itself. */
export function cjkBigrams(text: string): string[] {
  const out: string[] = [];
  for (const run of text.match(CJK_RUN) ?? []) {
    if (run.length === 1) {
      out.push(run);
      continue;
    }
    for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
  }
  return out;
}

/** Common English words that say nothing about the subject of a message. */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are aren as at be because been before being below ' +
    'between both but by can cannot could did didn do does doesn doing don down during each few for from further ' +
    'get got had has have having he her here hers herself him himself his how i if in into is isn it its itself ' +
    'just let lets like me more most my myself no nor not now of off on once only or other our ours ourselves out ' +
    'over own same she should so some such than that the their theirs them themselves then there these they this ' +
    'those through to too under until up use used using very was wasn we were weren what when where which while who ' +
    'whom why will with would you your yours yourself yourselves yes okay ok please thanks thank sure need want ' +
    'make one two see look now also well new way may might must shall into via per etc one ll ve re'
  ).split(' '),
);

/** Chinese bigrams that are function words, not subjects. */
export const CHINESE_STOP_BIGRAMS: ReadonlySet<string> = new Set(
  '我们 你们 他们 她们 它们 一个 这个 那个 这些 那些 可以 什么 没有 就是 因为 所以 但是 如果 然后 还是 这样 那样 怎么 自己 不是 一下 一些 的是 了一 是一 也是 都是 请问 谢谢 好的'.split(
    ' ',
  ),
);

/**
 * The subject terms of lower-cased text, for overlap measures (relevance, focus):
 * English words of at least `minLength` letters that are not stopwords, and CJK bigrams
 * that are not function words.
 */
export function contentTerms(lower: string, minLength: number): Set<string> {
  const out = new Set<string>();
  for (const w of latinWords(lower)) {
    if (w.length >= minLength && !ENGLISH_STOPWORDS.has(w)) out.add(w);
  }
  if (hasCjk(lower)) {
    for (const b of cjkBigrams(lower)) {
      if (b.length === 2 && !CHINESE_STOP_BIGRAMS.has(b)) out.add(b);
    }
  }
  return out;
}
