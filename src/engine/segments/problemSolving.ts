// "Problem Solving": the decisions taken, the approaches tried and abandoned, and why — the
// sentences of the assistant (its text and thinking) and of the user that carry decision,
// cause or approach words. Scored by how
// many such words they hold, the message's importance and recency; abandoned approaches
// ("instead", "didn't work", 放弃) score higher because they are what a fresh context would
// otherwise try again. An assistant sentence that only announces its next step ("First, I need
// to add an import for …", "I'll run the tests") is narration, not problem solving
// (analyze/narration.ts): it is kept only when it gives a reason or states a finding; nor is
// a sentence that restates what the assistant was told ("The user wants …", "The prompt says …"). On
// re-compaction earlier entries stay as optional items, ranked below new ones. A person's
// sentences come from their own words, not from a document they pasted (analyze/pasted.ts), and
// no message gives more than PROBLEM_MAX_PER_MESSAGE sentences.

import { DECISION_KEYWORDS } from '../analyze/keywords';
import { isNarration, restatesInstructions } from '../analyze/narration';
import { isRuleSentence } from '../analyze/standingRules';
import { compileKeywords, mergeSpecs } from '../text/keywordMatcher';
import { isCodeSegment, splitSentences } from '../text/sentences';
import { previousItems } from './previousItems';
import type { BuilderContext } from './sectionBuilder';
import { NONE, orNone } from '../conversation/messageMemo';
import { fromMessage, importanceAt, recency } from './sectionBuilder';
import type { SegmentConstants } from './constants';
import type { SpanMessage } from './spanView';
import type { SectionItem } from './sectionItems';
import { uniqueByKey } from './sectionItems';
import { collapseWhitespace, listItem, oneLine, withoutListMarkers } from '../text/textCut';
import { requestParts } from './userMessages';

const REASONING = compileKeywords(
  mergeSpecs(DECISION_KEYWORDS, {
    en: [
      'because',
      'since',
      'so that',
      'the issue',
      'the problem',
      'root cause',
      'the cause',
      'caused by',
      'turns out',
      'it seems',
      'the reason',
      'the fix',
      'the solution',
      'solution',
      'workaround',
      'fallback',
      'try',
      'tried',
      'trying',
      'let me try',
      "let's try",
      'alternative*',
      'rather than',
      'should be',
      'need to',
      'in order to',
      'this means',
      'therefore',
      'conclude*',
    ],
    zh: ['因为', '所以', '原因', '问题在于', '根本原因', '解决方案', '尝试', '改为', '于是', '因此', '结论', '导致'],
  }),
);
const ABANDONED = compileKeywords({
  en: [
    "didn't work",
    "doesn't work",
    'did not work',
    'does not work',
    "won't work",
    'will not work',
    'instead',
    'abandon*',
    'revert*',
    'gave up',
    'give up',
    'no longer',
    'not the right',
    'wrong approach',
    'dead end',
    'rolled back',
    'roll back',
  ],
  zh: ['放弃', '不行', '失败了', '行不通', '回滚', '撤销', '换成', '改用'],
});

/** Sentences worth listing: prose, not a list of flags or a command line. Letters (ASCII and
 *  CJK) are counted in a loop: a global match would build an array of every letter, and this
 *  runs on every sentence of a long session. */
function prose(s: string): boolean {
  if (isCodeSegment(s)) return false;
  let letters = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if ((ch >= 0x41 && ch <= 0x5a) || (ch >= 0x61 && ch <= 0x7a) || (ch >= 0x4e00 && ch <= 0x9fff)) letters++;
  }
  return letters >= s.length * 0.5;
}

/** The sentences of one message worth listing, with what their priority needs. */
function reasoningSentences(
  sm: SpanMessage,
  words: string,
  c: SegmentConstants,
): readonly { k: number; key: string; form: string; hits: number; abandoned: number }[] {
  const text = `${sm.thinking ? `${sm.thinking}\n\n` : ''}${words}`.slice(0, c.PROBLEM_TEXT_SAMPLE_CHARS);
  if (!text.trim() || !REASONING.has(text.toLowerCase())) return NONE;
  const out: { k: number; key: string; form: string; hits: number; abandoned: number }[] = [];
  splitSentences(text).forEach((raw, k) => {
    const s = withoutListMarkers(raw);
    if (s.length < c.PROBLEM_SENTENCE_MIN_CHARS || !prose(s)) return;
    if (!sm.userAuthored && (isNarration(s) || restatesInstructions(s))) return;
    // A person's standing rule is the ledger's, quoted whole there (never cut here).
    if (sm.userAuthored && isRuleSentence(s)) return;
    const lower = s.toLowerCase();
    const hits = REASONING.count(lower);
    if (hits === 0) return;
    out.push({
      k,
      key: `ps:${collapseWhitespace(s).toLowerCase()}`,
      form: listItem(`${sm.userAuthored ? 'User: ' : ''}${oneLine(s, c.PROBLEM_SENTENCE_MAX_CHARS)}`),
      hits,
      abandoned: ABANDONED.has(lower) ? 0.3 : 0,
    });
  });
  return orNone(out);
}

export function buildProblemSolving(ctx: BuilderContext): SectionItem[] {
  const { view, c } = ctx;
  const out: SectionItem[] = ctx.previous ? previousItems(ctx.previous, { required: false, priority: 0.25 }) : [];
  const fresh: SectionItem[] = [];
  for (const sm of view.messages) {
    if (sm.summary || !(sm.assistant || sm.userAuthored)) continue;
    // A person's own words only: a pasted prompt's rules are not how the problem was solved.
    const words = sm.userAuthored ? requestParts(ctx, sm).own : sm.text;
    const sentences = fromMessage(ctx, sm, 'problem.sentences', (x) => reasoningSentences(x, words, c));
    if (sentences.length === 0) continue;
    const decision = sm.analysis?.keyEvents.includes('decision') ? 0.2 : 0;
    // The strongest few of each message: one long message does not fill the section.
    const strongest = [...sentences].sort((a, b) => b.hits + b.abandoned - (a.hits + a.abandoned) || a.k - b.k).slice(0, c.PROBLEM_MAX_PER_MESSAGE);
    for (const { k, key, form, hits, abandoned } of strongest) {
      fresh.push({
        key,
        forms: [form],
        required: false,
        priority: (Math.min(hits, 3) / 3) * 0.3 + 0.3 * importanceAt(view, sm.pos) + 0.3 * recency(view, sm.pos) + decision + abandoned,
        order: sm.pos * 1000 + k,
        sourceIds: [sm.message.id],
      });
    }
  }
  const kept = uniqueByKey(fresh)
    .sort((a, b) => b.priority - a.priority || a.order - b.order)
    .slice(0, c.PROBLEM_MAX_SENTENCES);
  return [...out, ...kept];
}
