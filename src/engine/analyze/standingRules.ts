// A person's standing rules: what they told the agent to do from then on ("From now on, answer in
// French.", "Never push to main.", "Always run the tests first.", "以后都用中文回答。") and the notes
// Claude Code's `#` shortcut saves to memory (<user-memory-input>…</user-memory-input>). They hold
// for the rest of the session, so they are quoted whole wherever the summary quotes them — never
// cut — and carried in its ledger (segments/ledger.ts).
//
// Read only from the person's own words (after analyze/injectedContext.ts); a question ("do you
// always …?") is no rule, nor is a sentence inside a code block. "always" and "never" make a
// rule only as an instruction — opening the sentence ("Never push to main.") or said to the agent
// with a modal or "please" ("you should always …", "please never …") — not in a report ("it never
// compiled", "they also never check").

import { compileKeywords } from '../text/keywordMatcher';
import { isCodeSegment, splitSentences } from '../text/sentences';

/** Words that make a sentence a standing rule wherever they stand in it. */
const RULE_WORDS = compileKeywords({
  en: ['from now on', 'from here on', 'going forward', 'for the rest of this', 'every time you', 'each time you', 'whenever you', 'at all times', 'as a rule'],
  zh: ['从现在起', '从现在开始', '今后', '以后都', '以后请', '以后不要', '永远不要', '始终', '不要再', '务必', '一定要', '记住'],
});
/** Fillers a spoken instruction may open with ("Also, please …"). */
const FILLERS = String.raw`(?:(?:and|also|but|so|ok|okay|then|please|plus|oh|btw|by the way)[,\s]+)*`;
/** An instruction at the opening of the sentence: "Always …", "Never …", "Make sure to …",
 *  "Remember to …", "Don't ever …" (not "I need to remember to …", a note to oneself). */
const OPENING = new RegExp(
  String.raw`^${FILLERS}(?:always|never|make sure (?:to|you|that)|remember to|keep in mind|don't ever|do not ever|don't forget to|do not forget to)\b`,
  'i',
);
/** "always" / "never" said to the agent with a modal or "please" ("you should always …", "we must
 *  never …", "please always …"); elsewhere in a sentence they report ("they also never check"). */
const ALWAYS_NEVER = /\b(?:you|we)\s+(?:should|must|need\s+to|have\s+to|shall)\s+(?:always|never)\b|\bplease\s+(?:always|never)\b/i;
const QUESTION = /[?？]\s*$/;
const MEMORY_INPUT = /<user-memory-input>([\s\S]*?)<\/user-memory-input>/g;

/** Whether one sentence of a person's own words sets a standing rule. */
export function isRuleSentence(sentence: string): boolean {
  const s = sentence.trim();
  if (!s || isCodeSegment(s) || QUESTION.test(s)) return false;
  return RULE_WORDS.has(s.toLowerCase()) || OPENING.test(s) || ALWAYS_NEVER.test(s);
}

/** The standing rules in a person's own words, whole, whitespace collapsed, in order: the `#`
 *  memory notes (a message holding one is that note), else every rule sentence. */
export function ruleSentences(words: string): string[] {
  const out: string[] = [];
  if (words.includes('<user-memory-input>')) {
    for (const m of words.matchAll(MEMORY_INPUT)) {
      const note = m[1]!.replace(/\s+/g, ' ').trim();
      if (note) out.push(note);
    }
    return out;
  }
  // A slash command's markup is no sentence of the person's.
  if (words.includes('<command-name>')) return out;
  for (const s of splitSentences(words)) if (isRuleSentence(s)) out.push(s.replace(/\s+/g, ' ').trim());
  return out;
}
