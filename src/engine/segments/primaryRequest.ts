// "Primary Request and Intent": the user's first
// request, whole when the budget allows, then the requirement sentences of later user messages
// (sentences with requirement words — need, must, should, implement, 需要, 必须 … — English and
// Chinese), a few per message at most. A message that carries a pasted document (a prompt, a
// spec: analyze/pasted.ts) gives the person's own words and the paste's gist, never the rules
// of the paste as requests. The focus of this
// compaction, when one was given, leads the section. On re-compaction the earlier intent stays
// first and required: the goal of a session does not change because it grew long. The section
// ends with the ledger (segments/ledger.ts): rules, decisions and plan statuses, carried verbatim.

import { statesTask } from '../analyze/keyEvents';
import { isRuleSentence, ruleSentences } from '../analyze/standingRules';
import { compileKeywords } from '../text/keywordMatcher';
import { isCodeSegment, splitSentences } from '../text/sentences';
import { previousItems } from './previousItems';
import { latestRequestOf } from './evidence';
import { LEDGER_HEAD, ledgerOf, parseLedger, renderLedgerEntry, withoutLedger } from './ledger';
import type { BuilderContext } from './sectionBuilder';
import { orNone } from '../conversation/messageMemo';
import { fromMessage, importanceAt, recency } from './sectionBuilder';
import type { SectionItem } from './sectionItems';
import { distinctForms } from './sectionItems';
import { balanceFences, collapseWhitespace, cutAfter, cutText, listItem, oneLine, withoutListMarkers } from '../text/textCut';
import { readableUserText, requestParts } from './userMessages';
import { requestWords, type MessageParts } from '../analyze/pasted';
import type { SegmentConstants } from './constants';

/** Requirement keywords (need want require should must implement create build
 *  develop) plus the usual ways of asking, in English and Chinese. */
export const REQUIREMENT_KEYWORDS = compileKeywords({
  en: [
    'need',
    'needs',
    'want',
    'wants',
    'require*',
    'should',
    'must',
    'implement*',
    'create',
    'build',
    'develop',
    'please',
    'add',
    'fix',
    'make',
    'update',
    'change',
    'write',
    'ensure',
    'support',
    'can you',
    'could you',
    "i'd like",
    'i would like',
    "let's",
    'goal',
    'task',
  ],
  zh: ['需要', '想要', '要求', '应该', '必须', '实现', '创建', '构建', '开发', '请', '帮我', '希望', '添加', '修复', '修改', '目标', '任务'],
});

/** Shortest requirement sentence worth listing, in characters (CJK counts double). */
const MIN_REQUIREMENT_CHARS = 12;

function weightedLength(s: string): number {
  let n = 0;
  for (const ch of s) n += ch.charCodeAt(0) > 0x2e80 ? 2 : 1;
  return n;
}

/** The requirement sentences of one user message, each with its index. A sentence that ends
 *  with a colon announces what follows ("Please show me the diff for:"), so the sentences
 *  after it join it, up to `maxChars`. */
function requirementSentences(text: string, maxChars: number): { s: string; k: number }[] {
  const sentences = splitSentences(text.slice(0, 20000)).map(withoutListMarkers);
  const out: { s: string; k: number }[] = [];
  for (let k = 0; k < sentences.length; k++) {
    let s = sentences[k]!;
    const at = k;
    while (/[:：]\s*$/.test(s) && k + 1 < sentences.length && s.length < maxChars && !isCodeSegment(sentences[k + 1]!)) {
      s = `${s} ${sentences[++k]!}`;
    }
    // A standing rule is the ledger's, quoted whole there (never cut here).
    if (isCodeSegment(s) || weightedLength(s) < MIN_REQUIREMENT_CHARS || isRuleSentence(s)) continue;
    if (!REQUIREMENT_KEYWORDS.has(s.toLowerCase())) continue;
    out.push({ s, k: at });
  }
  return out;
}

/** What one later message gives the section: the person's words with the paste's gist when it
 *  carries a paste (their words are the request, whatever words they use), else its requirement
 *  sentences — at most PRIMARY_MAX_PER_MESSAGE, the first ones, so one long message cannot
 *  fill the section. */
function requirementsOf(parts: MessageParts, c: SegmentConstants): { k: number; key: string; form: string }[] {
  if (parts.pasted) {
    const words = requestWords(parts, c.PRIMARY_SENTENCE_MAX_CHARS);
    return [{ k: 0, key: `req:${collapseWhitespace(words).toLowerCase()}`, form: listItem(words) }];
  }
  return requirementSentences(parts.own, c.PRIMARY_SENTENCE_MAX_CHARS)
    .slice(0, c.PRIMARY_MAX_PER_MESSAGE)
    .map(({ s, k }) => ({ k, key: `req:${collapseWhitespace(s).toLowerCase()}`, form: listItem(oneLine(s, c.PRIMARY_SENTENCE_MAX_CHARS)) }));
}

/** Higher priority first, then the earlier. */
function byRank(priority: number, order: number, than: { priority: number; order: number }): number {
  return than.priority - priority || order - than.order;
}

export function buildPrimaryRequest(ctx: BuilderContext): SectionItem[] {
  const { view, c } = ctx;
  const items: SectionItem[] = [];
  if (ctx.focus?.trim()) {
    items.push({
      key: 'focus',
      forms: [listItem(`Focus of this compaction: ${oneLine(ctx.focus, 300)}`)],
      required: true,
      priority: 2,
      order: -2_000_000,
      sourceIds: [],
    });
  }
  if (ctx.previous) {
    const earlier = withoutLedger(ctx.previous);
    if (earlier) items.push(...previousItems(earlier, { required: true, priority: 1.5, shorten: (t) => cutAfter(t, c.PRIMARY_FIRST_MIN_CHARS, c).text }));
  }
  const users = view.messages.filter((m) => m.userAuthored && !m.summary && m.text.trim());
  // The first message that states a task: not "/clear", not "ok", not a "[Yes]: y" prompt answer.
  const first = users.find((m) => statesTask(readableUserText(m.text), m.analysis?.isAcknowledgement === true)) ?? users[0];
  // The task is kept verbatim after the summary (the first request is also the latest one): the
  // section still says what it is.
  const latest = !first && !ctx.continues ? latestRequestOf(ctx) : undefined;
  if (latest?.kept) {
    items.push({
      key: `first:${latest.sm.message.id}`,
      forms: [listItem(`Initial request (kept verbatim after this summary): ${requestWords(requestParts(ctx, latest.sm), 200)}`)],
      required: true,
      priority: 1.2,
      order: -1,
      sourceIds: [latest.sm.message.id],
    });
  }
  if (first && !ctx.continues) {
    const parts = requestParts(ctx, first);
    // A paste after the person's words is named by its gist; a message that is all paste is
    // the task itself (an issue, a spec), shown from its beginning.
    const text = balanceFences(parts.pasted && parts.own ? requestWords(parts) : readableUserText(first.text).trim());
    const rules = ruleSentences(parts.own);
    items.push({
      key: `first:${first.message.id}`,
      forms: distinctForms([
        listItem(`Initial request: ${cutText(text, c.PRIMARY_FIRST_MIN_CHARS, c, rules).text}`),
        listItem(`Initial request: ${cutText(text, c.PRIMARY_FIRST_MAX_CHARS, c, rules).text}`),
      ]),
      required: true,
      priority: 1.2,
      order: first.pos * 1000,
      sourceIds: [first.message.id],
    });
  }
  // The PRIMARY_MAX_REQUIREMENTS first by priority, then order, among the first of each key:
  // kept as they come (a long span offers one per message), best first; made items at the end
  // (most of those kept for a while are pushed out by later, more recent ones).
  const kept: { key: string; form: string; priority: number; order: number; id: string }[] = [];
  const seen = new Set<string>();
  const max = c.PRIMARY_MAX_REQUIREMENTS;
  for (const sm of users) {
    if ((sm === first && !ctx.continues) || sm.analysis?.isAcknowledgement) continue;
    const parts = requestParts(ctx, sm);
    const sentences = fromMessage(ctx, sm, 'primary.requirements', () => orNone(requirementsOf(parts, c)));
    for (const { k, key, form } of sentences) {
      if (seen.has(key)) continue;
      seen.add(key);
      const priority = 0.5 * importanceAt(view, sm.pos) + 0.5 * recency(view, sm.pos);
      const order = sm.pos * 1000 + k + 1;
      // Ties go to the one kept first.
      const worst = kept[kept.length - 1];
      if (max <= 0 || (kept.length >= max && worst && byRank(priority, order, worst) >= 0)) continue;
      let at = kept.length;
      while (at > 0 && byRank(priority, order, kept[at - 1]!) < 0) at--;
      kept.splice(at, 0, { key, form, priority, order, id: sm.message.id });
      if (kept.length > max) kept.pop();
    }
  }
  const requirements = kept.map(({ key, form, priority, order, id }): SectionItem => ({
    key,
    forms: [form],
    required: false,
    priority,
    order,
    sourceIds: [id],
  }));
  return [...items, ...requirements, ...ledgerItems(ctx)];
}

/** Where the ledger block stands: after everything else in the section. */
const LEDGER_ORDER = 3_000_000_000;

/** The ledger (segments/ledger.ts) as items: its head, then one per entry, each required and
 *  never reduced (its words are carried verbatim); the head is given up last. */
function ledgerItems(ctx: BuilderContext): SectionItem[] {
  const previous = ctx.previous ? parseLedger(ctx.previous) : undefined;
  const latest = latestRequestOf(ctx);
  const entries = ledgerOf(ctx.view, previous, ctx.memo, latest?.kept ? latest.sm : undefined);
  if (entries.length === 0) return [];
  const verbatim = { reduced: { verbatim: true } };
  return [
    { key: 'ledger', forms: [LEDGER_HEAD], required: true, priority: 1.6, order: LEDGER_ORDER, sourceIds: [], ...verbatim },
    ...entries.map((e, i) => ({
      key: `ledger:${e.kind}:${i}`,
      forms: [renderLedgerEntry(e)],
      required: true,
      priority: e.kind === 'Decision' ? 1.3 : 1.4,
      order: LEDGER_ORDER + 1 + i,
      sourceIds: [],
      ...verbatim,
    })),
  ];
}
