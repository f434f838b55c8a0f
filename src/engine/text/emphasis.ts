// Capitals written for emphasis, not as a term: "YOU MUST", "ALWAYS check", "TASK ALGORITHM",
// "UNVERIFIED". A word of letters only is emphasis when it is an ordinary English word (a
// stopword or one of SHOUTED_WORDS), has EMPHASIS_MIN_LETTERS letters or more (acronyms used as
// terms are short: LLM, RCA, AST, HTTP, JSON, CRUD), or is a placeholder of one repeated letter
// ("XXXXX"). Words with digits or underscores (UTF8, HTTP2, BUILD_FLAGS) are never emphasis.
// Where code names the word (`TIMEOUT = 30`), it is a term whatever this says: the caller knows
// the context (segments/technicalConcepts.ts).

import { ENGLISH_STOPWORDS } from './terms';

const EMPHASIS_MIN_LETTERS = 6;
/** Short ordinary words that prompts write in capitals and ENGLISH_STOPWORDS does not hold.
 *  Acronyms that are also words and name techniques (REST, SOLID, SMART) are not here. */
const SHOUTED_WORDS: ReadonlySet<string> = new Set(
  (
    'always never every only exact exactly full final first last next keep code core task tasks step steps rule rules goal goals stop wait ' +
    'read write run test tests fail pass done sure true real both each none zero one two three four five ask tell show give find fix add ' +
    'drop skip hard soft high low big small good bad best worst safe open close left right word words mode role plan plans data user users ' +
    'file files scope input must avoid check note notes key keys main entry level minor major phase stage type form list item items time date ' +
    'name names path paths line lines part parts page view case cases point flag flags rank order fast slow late early short long clear ' +
    'valid false yes exit start begin end ends off out base deep wide root head body tail least less more most much many few all ' +
    'new old same other else shall will would could might need needs want use used uses work works make made take took call calls ' +
    'send sent get got set put let see saw say said asked look looks think idea why what when where which who whom whose how ' +
    'here there this that these those them they their then than thus also even just very ever once twice again still yet soon now ' +
    'ok okay hello thanks please sorry warn alert fatal halt block allow deny grant reply answer query topic issue bug bugs ' +
    'fact facts proof prove claim claims model models agent agents tool tools admin owner team self side inner outer upper lower'
  ).split(' '),
);
export const LETTERS_ONLY_CAPS = /^[A-Z]+$/;
const ONE_LETTER_REPEATED = /^([A-Z])\1+$/;

/** A capitals word of letters only that reads as emphasis (see the rule above). */
export function isEmphasisWord(term: string): boolean {
  if (!LETTERS_ONLY_CAPS.test(term)) return false;
  const lower = term.toLowerCase();
  return term.length >= EMPHASIS_MIN_LETTERS || ENGLISH_STOPWORDS.has(lower) || SHOUTED_WORDS.has(lower) || ONE_LETTER_REPEATED.test(term);
}
