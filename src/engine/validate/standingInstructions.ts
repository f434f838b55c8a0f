// A person's standing instructions (analyze/standingRules.ts: "always …", "never …", "from now
// on …", the notes Claude Code's `#` shortcut saves to memory) as facts. They hold for the rest
// of the session, so a summary that drops them changes how the agent behaves. Each is a fact of
// kind userMessage whose value is the instruction's own sentence, whole, so the one fact matcher
// decides whether a summary still holds it.

import { userWords } from '../analyze/injectedContext';
import { ruleSentences } from '../analyze/standingRules';
import { isUserAuthored, messageText, type Message } from '../conversation/model';
import type { Fact } from '../result';
import { normalizeForMatch } from './factMatch';

/** The standing instructions of a span, in conversation order, each sentence once. */
export function standingInstructions(span: readonly Message[]): Fact[] {
  const out: Fact[] = [];
  const seen = new Set<string>();
  for (const m of span) {
    if (!isUserAuthored(m)) continue;
    for (const value of ruleSentences(userWords(messageText(m)))) {
      const key = normalizeForMatch(value);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      out.push({ kind: 'userMessage', value, sourceId: m.id });
    }
  }
  return out;
}
