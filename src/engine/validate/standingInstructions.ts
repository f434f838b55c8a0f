// A person's standing instructions: what they told the agent to do from then on ("always run the
// tests first", "never push to main", "from now on answer in French", "以后都用中文回答"), and the
// notes Claude Code's `#` shortcut saves to memory (recorded as <user-memory-input>…</user-memory-input>).
// They hold for the rest of the session, so a summary that drops them changes how the agent
// behaves. Each is a fact of kind userMessage whose value is the instruction's own sentence, so
// the one fact matcher decides whether a summary still holds it.
//
// Read only from what the person typed (never from tool output or the assistant); a question
// ("do you always …?") is not an instruction, nor is a sentence inside a code block.

import { userWords } from '../analyze/injectedContext';
import { isUserAuthored, messageText, type Message } from '../conversation/model';
import type { Fact } from '../result';
import { compileKeywords } from '../text/keywordMatcher';
import { isCodeSegment, splitSentences } from '../text/sentences';
import { oneLine } from '../segments/textCut';
import { normalizeForMatch } from './factMatch';

const INSTRUCTION_WORDS = compileKeywords({
  en: [
    'always',
    'never',
    'from now on',
    'from here on',
    'going forward',
    'in the future',
    'every time',
    'each time',
    'whenever',
    "don't ever",
    'do not ever',
    'make sure to',
    'make sure you',
    'remember to',
    'keep in mind',
    'for the rest of',
  ],
  zh: ['以后', '今后', '从现在起', '从现在开始', '永远', '始终', '总是', '每次', '不要再', '务必', '一定要', '记住'],
});

const MEMORY_INPUT = /<user-memory-input>([\s\S]*?)<\/user-memory-input>/g;
const QUESTION = /[?？]\s*$/;
/** A sentence longer than this is cut (the matcher reads a fact's opening anyway). */
export const INSTRUCTION_MAX_CHARS = 300;

/** The standing instructions of a span, in conversation order, each sentence once. */
export function standingInstructions(span: readonly Message[]): Fact[] {
  const out: Fact[] = [];
  const seen = new Set<string>();
  const add = (text: string, sourceId: string) => {
    const value = oneLine(text, INSTRUCTION_MAX_CHARS);
    const key = normalizeForMatch(value);
    if (!key || seen.has(key)) return;
    seen.add(key);
    out.push({ kind: 'userMessage', value, sourceId });
  };
  for (const m of span) {
    if (!isUserAuthored(m)) continue;
    const text = userWords(messageText(m));
    let memory = false;
    for (const match of text.matchAll(MEMORY_INPUT)) {
      memory = true;
      add(match[1]!, m.id);
    }
    if (memory || text.includes('<command-name>')) continue;
    for (const s of splitSentences(text)) {
      if (isCodeSegment(s) || QUESTION.test(s)) continue;
      if (INSTRUCTION_WORDS.has(s.toLowerCase())) add(s, m.id);
    }
  }
  return out;
}
