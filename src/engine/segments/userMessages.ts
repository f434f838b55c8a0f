// "All user messages": every message a person wrote, in order. Long ones are cut at a sentence
// boundary with a marker that says how much was left out; none is dropped, whatever the budget
// (each keeps at least its first USER_MESSAGE_MIN_CHARS characters, verbatim). Identical
// messages (whitespace aside) are listed once with a count. On re-compaction the earlier
// entries come first and stay: they may be shortened further, never removed.

import { compileKeywords, mergeSpecs } from '../text/keywordMatcher';
import { splitSentences, isCodeSegment } from '../text/sentences';
import type { BuilderContext } from './sectionBuilder';
import { importanceAt, recency } from './sectionBuilder';
import type { SectionItem } from './sectionItems';
import { distinctForms } from './sectionItems';
import { previousItems, shortenEntry } from './mergeSections';
import { balanceFences, collapseWhitespace, cutAfter, cutText, listItem, oneLine } from './textCut';

/** Sentences that state facts worth keeping when a long message is shortened: numbers, amounts,
 *  dates, names, first-person statements ("I …", "my …", 我…). */
const FACT_WORDS = compileKeywords(
  mergeSpecs({ en: ['i', "i'm", "i've", "i'd", 'my', 'we', 'our', 'must', 'need', 'want', 'should', 'please'] }, { zh: ['我', '我们', '必须', '需要', '希望', '请'] }),
);
const HAS_NUMBER = /\d/;
const HAS_NAME = /(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+/;

function factScore(sentence: string): number {
  let s = 0;
  if (HAS_NUMBER.test(sentence)) s += 2;
  if (HAS_NAME.test(sentence)) s += 1;
  if (FACT_WORDS.has(sentence.toLowerCase())) s += 1;
  return s;
}

/** The prefix form plus the message's most informative later sentences, in their order. */
function withFacts(text: string, maxChars: number, ctx: BuilderContext): string {
  const cut = cutText(text, maxChars, ctx.c);
  if (!cut.cut || ctx.c.USER_MESSAGE_FACT_SENTENCES <= 0) return cut.text;
  const keptChars = text.trim().length - cut.omitted;
  const rest = text.trim().slice(keptChars);
  const picked = splitSentences(rest.slice(0, 20000))
    .filter((s) => !isCodeSegment(s) && s.length >= 20)
    .map((s, i) => ({ s, i, score: factScore(s) }))
    .filter((x) => x.score >= 2)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, ctx.c.USER_MESSAGE_FACT_SENTENCES)
    .sort((a, b) => a.i - b.i)
    .map((x) => `“${oneLine(x.s, 300)}”`);
  return picked.length > 0 ? `${cut.text}\nKey sentences further on: ${picked.join(' ')}` : cut.text;
}

const COMMAND_MARKUP = /<command-message>[\s\S]*?<\/command-message>\s*|<command-name>\s*([\s\S]*?)\s*<\/command-name>\s*|<command-args>\s*([\s\S]*?)\s*<\/command-args>/g;

/** A slash command as the person typed it: Claude Code records `/cmd args` as markup
 *  (<command-message>, <command-name>, <command-args>) whose first characters say nothing, so
 *  a shortened entry would keep only the markup and lose the request. */
export function readableUserText(text: string): string {
  if (!text.includes('<command-name>')) return text;
  const out = text.replace(COMMAND_MARKUP, (_m, name: string | undefined, args: string | undefined) => (name ? `${name} ` : args ? `${args}\n` : ''));
  return out.trim() || text;
}

export function buildUserMessages(ctx: BuilderContext): SectionItem[] {
  const { view, c } = ctx;
  const items: SectionItem[] = [];
  if (ctx.previous) {
    items.push(
      ...previousItems(ctx.previous, {
        required: true,
        priority: 0.4,
        keyOf: (t) => `prev:${collapseWhitespace(t)}`,
        shorten: (t) => shortenEntry(t, c.USER_MESSAGE_MIN_CHARS, c),
      }),
    );
  }
  const byText = new Map<string, SectionItem & { count: number; base: string[] }>();
  for (const sm of view.messages) {
    if (!sm.userAuthored || sm.summary) continue;
    const text = balanceFences(readableUserText(sm.text).trim());
    if (!text) continue;
    const key = collapseWhitespace(text);
    const existing = byText.get(key);
    if (existing) {
      existing.count++;
      existing.sourceIds.push(sm.message.id);
      existing.forms = existing.base.map((f) => listItem(`${f} (×${existing.count})`));
      existing.priority = Math.max(existing.priority, 0.5 * importanceAt(view, sm.pos) + 0.5 * recency(view, sm.pos));
      continue;
    }
    const base = distinctForms([
      cutAfter(text, c.USER_MESSAGE_MIN_CHARS, c).text,
      withFacts(text, c.USER_MESSAGE_MID_CHARS, ctx),
      withFacts(text, c.USER_MESSAGE_MAX_CHARS, ctx),
    ]);
    const item = {
      key: `user:${key}`,
      forms: base.map((f) => listItem(f)),
      required: true,
      priority: 0.5 * importanceAt(view, sm.pos) + 0.5 * recency(view, sm.pos),
      order: sm.pos,
      sourceIds: [sm.message.id],
      count: 1,
      base,
    };
    byText.set(key, item);
    items.push(item);
  }
  return items.map(({ key, forms, required, priority, order, sourceIds }) => ({ key, forms, required, priority, order, sourceIds }));
}
