// The ledger: what a session decided that must never decay through compactions — the person's
// standing rules, decisions with their reason, and the plan's items with a status (open, done,
// cancelled, superseded) and where that status was set. It is a marked block at the end of
// "Primary Request and Intent" (the intent: how the work is to be done, what was settled, what is
// planned), one line per entry:
//
//   - Ledger (carried forward verbatim by every compaction; an entry changes only on new evidence):
//     - Rule (user, 2026-01-05 10:02): “From now on, answer in French.”
//     - Decision (assistant, 2026-01-05 10:05): “We'll use an LRU cache because the hit rate plateaus at 500.”
//     - Plan [done] (TodoWrite, 2026-01-05 10:30): Write the migration
//     - Plan [cancelled] (user, 2026-01-05 10:31): Rewrite the parser in Rust
//
// Every later compaction parses the block back (and any block the hook put back after an agent's
// own compaction) and carries each line verbatim: an entry's text is never rewritten; only new
// evidence in the conversation changes its status (a later task list marks a plan done, the
// person cancels it, revokes a rule), and then the line says where. A cancelled or done plan
// stays marked so — it is never revived as open by an older list.

import { splitPasted } from '../analyze/pasted';
import { ruleSentences } from '../analyze/standingRules';
import { memoSlot, orNone, type MessageMemo } from '../conversation/messageMemo';
import { messageText, type Message } from '../conversation/model';
import { compileKeywords } from '../text/keywordMatcher';
import { isCodeSegment, splitSentences } from '../text/sentences';
import { taskListAt } from './pendingTasks';
import { buildSpanView, type SpanMessage, type SpanView } from './spanView';
import { collapseWhitespace } from '../text/textCut';

export type LedgerKind = 'Rule' | 'Decision' | 'Plan';
export type LedgerStatus = 'open' | 'done' | 'cancelled' | 'superseded' | 'revoked';

export interface LedgerEntry {
  kind: LedgerKind;
  /** Plans always; rules only once revoked. */
  status?: LedgerStatus;
  /** Who set the entry (or its status) and when: "user, 2026-01-05 10:02", "TodoWrite, message 12". */
  where: string;
  /** The entry's own words, on one line; never rewritten once written. */
  text: string;
}

/** The line that opens the block. */
export const LEDGER_HEAD = '- Ledger (carried forward verbatim by every compaction; an entry changes only on new evidence):';
/** Decisions taken from one compaction's span, the latest: each later one is added to the earlier. */
const DECISIONS_PER_SPAN = 6;
/** A decision longer than this is not a ledger line (it would have to be cut). */
const DECISION_MAX_CHARS = 300;
/** A plan item is written to at most this many characters (once; carried as written). */
const PLAN_MAX_CHARS = 160;
/** The sources of a plan: an agent's own task-list tools and Cline's task_progress (a Markdown
 *  checklist in a reply is as often a report of what was checked as a plan). */
const PLAN_SOURCE = /^(?!checklist in)/;

const ENTRY_LINE = /^ {2}- (Rule|Decision|Plan)(?: \[(open|done|cancelled|superseded|revoked)\])? \(([^)\n]*)\): (.*)$/;

function quoted(kind: LedgerKind): boolean {
  return kind !== 'Plan';
}

/** One entry as its ledger line. */
export function renderLedgerEntry(e: LedgerEntry): string {
  const status = e.status ? ` [${e.status}]` : '';
  return `  - ${e.kind}${status} (${e.where}): ${quoted(e.kind) ? `“${e.text}”` : e.text}`;
}

/** The block for some entries ('' when none). */
export function renderLedger(entries: readonly LedgerEntry[]): string {
  return entries.length === 0 ? '' : [LEDGER_HEAD, ...entries.map(renderLedgerEntry)].join('\n');
}

/** The entries of the ledger blocks in a text, in order (undefined when it holds none). Lines
 *  that are not entries end a block. */
export function parseLedger(text: string): LedgerEntry[] | undefined {
  if (!text.includes(LEDGER_HEAD)) return undefined;
  const out: LedgerEntry[] = [];
  let inBlock = false;
  for (const line of text.split('\n')) {
    if (line.trimEnd() === LEDGER_HEAD) {
      inBlock = true;
      continue;
    }
    if (!inBlock) continue;
    const m = ENTRY_LINE.exec(line.trimEnd());
    if (!m) {
      inBlock = false;
      continue;
    }
    const kind = m[1] as LedgerKind;
    let body = m[4]!;
    if (quoted(kind) && body.startsWith('“') && body.endsWith('”')) body = body.slice(1, -1);
    out.push({ kind, ...(m[2] ? { status: m[2] as LedgerStatus } : {}), where: m[3]!, text: body });
  }
  return out;
}

/** A section text without its ledger block (the block's head and its entry lines). */
export function withoutLedger(text: string): string {
  if (!text.includes(LEDGER_HEAD)) return text;
  const kept: string[] = [];
  let inBlock = false;
  for (const line of text.split('\n')) {
    if (line.trimEnd() === LEDGER_HEAD) {
      inBlock = true;
      continue;
    }
    if (inBlock && ENTRY_LINE.test(line.trimEnd())) continue;
    inBlock = false;
    kept.push(line);
  }
  return kept.join('\n').trim();
}

function normalized(text: string): string {
  return collapseWhitespace(text)
    .toLowerCase()
    .replace(/^["'“”]+|["'“”.!。！\s]+$/g, '');
}

function keyOf(e: Pick<LedgerEntry, 'kind' | 'text'>): string {
  return `${e.kind}:${normalized(e.text)}`;
}

/** The ledger with `later` folded onto `earlier`: every earlier entry stays, in its place and with
 *  its words; an entry of `later` with the same kind and words gives it its newer status (and
 *  where it was set); the others are added after. */
export function mergeLedgers(earlier: readonly LedgerEntry[], later: readonly LedgerEntry[]): LedgerEntry[] {
  const out = earlier.map((e) => ({ ...e }));
  const at = new Map(out.map((e, i) => [keyOf(e), i]));
  for (const e of later) {
    const i = at.get(keyOf(e));
    if (i === undefined) {
      at.set(keyOf(e), out.length);
      out.push({ ...e });
    } else if (e.status !== out[i]!.status) out[i] = { ...out[i]!, status: e.status, where: e.where } as LedgerEntry;
  }
  return out;
}

/** Where a message stands, as the ledger says where a status was set: its time to the minute,
 *  else its id (stable across compactions: a kept message keeps it), shortened. */
function whenOf(sm: SpanMessage): string {
  const t = sm.message.timestamp;
  const m = t ? /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(t) : null;
  if (m) return `${m[1]} ${m[2]}`;
  const id = sm.message.id;
  return `message ${id.length > 12 ? id.slice(0, 8) : id}`;
}

/** Content words of a text (4 letters or more, lower case, cut to a stem of 5 so "commit" and
 *  "committing" meet), for matching a cancellation or a revocation to the entry it names. */
function contentWords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}_]{4,}/gu) ?? []).filter((w) => !STOP.has(w)).map((w) => w.slice(0, 5)));
}
const STOP = new Set(
  'this that with from have will would should could about into them then than there their what when where which your please just also some more need want make sure always never anything everything something every longer anymore'.split(
    ' ',
  ),
);

/** Whether `sentence` names `entry`: half of the entry's content words (two at least) are in it. */
function names(sentence: Set<string>, entry: string): boolean {
  const words = contentWords(entry);
  if (words.size === 0) return false;
  let hit = 0;
  for (const w of words) if (sentence.has(w)) hit++;
  return hit >= Math.min(2, words.size) && hit >= words.size / 2;
}

/** The person calls a plan off ("cancel the Rust rewrite", "don't do the migration after all"). */
const CANCELS = compileKeywords({
  en: [
    'cancel',
    'cancelled',
    'canceled',
    "don't do",
    'do not do',
    'forget about',
    'never mind',
    'nevermind',
    'scrap',
    'abandon',
    'drop the',
    'no need to',
    "let's not",
    'skip the',
    'not needed anymore',
    'no longer needed',
  ],
  zh: ['取消', '不用做', '不要做', '算了', '放弃', '不需要了'],
});
/** The person lifts a rule ("you no longer need to …", "ignore what I said about …"). */
const REVOKES = compileKeywords({
  en: [
    'no longer',
    'not anymore',
    'stop doing',
    'you can stop',
    'ignore what i said',
    'forget what i said',
    'disregard',
    'forget the rule',
    'drop the rule',
    'the rule no longer',
  ],
  zh: ['不用再', '不必再', '忽略之前', '取消规则'],
});
/** A decision: a choice someone in the conversation made ("we decided to …", "I'll use …",
 *  "let's go with …", "决定 …") — not a report of someone else's ("the library chose …"). */
const DECIDES =
  /\b(?:i|we|let's|let us)\b[^.!?\n]{0,24}?\b(?:decided|decide to|chose|choose|will use|'ll use|will go with|'ll go with|go with|going with|opted|settled on|switch(?:ed)? to|will switch to)\b|\bdecision\b\s*(?:is|was|:)|决定|改用|采用/i;
const BECAUSE = compileKeywords({
  en: ['because', 'since', 'so that', 'due to', 'to avoid', 'given that', 'as it', 'which means'],
  zh: ['因为', '由于', '为了', '以免'],
});
/** An explicit decision label ("Decision: …", "决定：…") needs no stated reason. */
const LABELLED = /^(?:decision|decided|决定)\s*[:：]/i;

interface MessageLedger {
  rules: readonly string[];
  decisions: readonly string[];
  /** Content words of each sentence that cancels or revokes something. */
  cancels: readonly Set<string>[];
  revokes: readonly Set<string>[];
}

const NO_LEDGER: MessageLedger = { rules: [], decisions: [], cancels: [], revokes: [] };
const MESSAGE_LEDGER = memoSlot<MessageLedger>('ledger.message');

/** What one message gives the ledger (read once per message). */
function readMessage(sm: SpanMessage): MessageLedger {
  const words = sm.userAuthored ? splitPasted(sm.text).own : sm.assistant ? sm.text.slice(0, 20000) : '';
  if (!words.trim()) return NO_LEDGER;
  const decisions: string[] = [];
  const cancels: Set<string>[] = [];
  const revokes: Set<string>[] = [];
  const lowerAll = words.toLowerCase();
  const anyDecision = DECIDES.test(words) || LABELLED.test(words);
  const anyCancel = sm.userAuthored && (CANCELS.has(lowerAll) || REVOKES.has(lowerAll));
  if (anyDecision || anyCancel) {
    for (const raw of splitSentences(words)) {
      const s = collapseWhitespace(raw);
      if (isCodeSegment(raw) || !s || /[?？]$/.test(s)) continue;
      const lower = s.toLowerCase();
      // A quoted line (a warning, an error, someone else's words) is no decision of the conversation's.
      const quoted = /^["'“‘`]/.test(s);
      if (anyDecision && !quoted && s.length <= DECISION_MAX_CHARS && ((DECIDES.test(s) && BECAUSE.has(lower)) || LABELLED.test(s))) decisions.push(s);
      if (anyCancel && CANCELS.has(lower)) cancels.push(contentWords(s));
      if (anyCancel && REVOKES.has(lower)) revokes.push(contentWords(s));
    }
  }
  // The person's own rules (a pasted prompt's "always …" lines are not theirs).
  const rules = sm.userAuthored ? ruleSentences(words) : [];
  if (rules.length + decisions.length + cancels.length + revokes.length === 0) return NO_LEDGER;
  return { rules: orNone(rules), decisions: orNone(decisions), cancels: orNone(cancels), revokes: orNone(revokes) };
}

function itemOf(line: string): { text: string; status: LedgerStatus } {
  const status: LedgerStatus = line.startsWith('[x]') ? 'done' : line.startsWith('[-]') ? 'cancelled' : 'open';
  const text = collapseWhitespace(
    line
      .replace(/^\[.\]\s*/, '')
      .replace(/ \(in progress\)$/, '')
      .slice(0, PLAN_MAX_CHARS),
  );
  return { text, status };
}

/** A ledger being folded: its entries, where each sits by kind and words, and the decisions
 *  read so far (the latest few are added at the end). */
interface LedgerFold {
  entries: LedgerEntry[];
  index: Map<string, number>;
  decisions: LedgerEntry[];
}

function foldOnto(previous: readonly LedgerEntry[]): LedgerFold {
  const fold: LedgerFold = { entries: [], index: new Map(), decisions: [] };
  for (const e of previous) setEntry(fold, e);
  return fold;
}

/** Adds an entry, or gives the entry with its kind and words the status (and where) of `e`. */
function setEntry(fold: LedgerFold, e: LedgerEntry): void {
  const { entries, index } = fold;
  const k = keyOf(e);
  const i = index.get(k);
  if (i === undefined) {
    index.set(k, entries.length);
    entries.push({ ...e });
  } else if (e.status !== entries[i]!.status) entries[i] = { ...entries[i]!, ...(e.status ? { status: e.status } : {}), where: e.where };
}

function findEntry(fold: LedgerFold, kind: LedgerKind, text: string): LedgerEntry | undefined {
  const i = fold.index.get(keyOf({ kind, text }));
  return i === undefined ? undefined : fold.entries[i];
}

/** What one message changes in the ledger. `list`: the task list it holds, if any. Reads the
 *  message alone (and the memo of what it gives). */
function foldMessage(fold: LedgerFold, sm: SpanMessage, list: { lines: string[]; source: string } | undefined, memo: MessageMemo | undefined): void {
  if (sm.summary) return;
  // The blocks a hook put back after an agent's own compaction are earlier ledgers.
  if (!sm.assistant && sm.text.includes(LEDGER_HEAD)) for (const e of parseLedger(sm.text) ?? []) if (!findEntry(fold, e.kind, e.text)) setEntry(fold, e);
  const read = memo ? memo.read(sm.message, sm.memo, MESSAGE_LEDGER, () => readMessage(sm)) : readMessage(sm);
  const who = sm.userAuthored ? 'user' : 'assistant';
  for (const text of read.rules) if (!findEntry(fold, 'Rule', text)) setEntry(fold, { kind: 'Rule', where: `${who}, ${whenOf(sm)}`, text });
  for (const text of read.decisions) fold.decisions.push({ kind: 'Decision', where: `${who}, ${whenOf(sm)}`, text });
  for (const words of read.revokes)
    for (const e of fold.entries)
      if (e.kind === 'Rule' && e.status !== 'revoked' && names(words, e.text)) setEntry(fold, { ...e, status: 'revoked', where: `user, ${whenOf(sm)}` });
  for (const words of read.cancels)
    for (const e of fold.entries)
      if (e.kind === 'Plan' && (e.status === 'open' || e.status === 'superseded') && names(words, e.text))
        setEntry(fold, { ...e, status: 'cancelled', where: `user, ${whenOf(sm)}` });
  // A task list: each item with its status; an open item of the ledger the list no longer holds
  // was superseded by it. A closed item (done, cancelled) is never reopened by a list.
  if (list && PLAN_SOURCE.test(list.source)) {
    const where = `${list.source.split(' ')[0]}, ${whenOf(sm)}`;
    const items = list.lines.map(itemOf);
    const listed = new Set(items.map((i) => keyOf({ kind: 'Plan', text: i.text })));
    for (const e of fold.entries) if (e.kind === 'Plan' && e.status === 'open' && !listed.has(keyOf(e))) setEntry(fold, { ...e, status: 'superseded', where });
    for (const i of items) {
      const cur = findEntry(fold, 'Plan', i.text);
      if (cur && (cur.status === 'done' || cur.status === 'cancelled') && i.status === 'open') continue;
      setEntry(fold, { kind: 'Plan', status: i.status, where, text: i.text });
    }
  }
}

/** The fold of the span's messages last made, with the ledger it was folded onto. */
const LEDGER_FOLD = memoSlot<LedgerFold & { previous: string }>('ledger.fold');

/**
 * The ledger of a span folded onto the ledger it continues (`previous`, from an earlier summary
 * or a block the hook put back): the rules, decisions and plan items the span shows, in order,
 * with the statuses its later evidence gives them. The span is read — the messages a compaction
 * summarizes — so the agent's task lists are evidence once across compactions (the ones kept
 * verbatim are read by the compaction that summarizes them); the latest request, when it is kept
 * verbatim (`keptRequest`), is read as well. Each message is read on its own, in order: with a
 * memo, the fold of the last span is resumed when this span starts with the same messages onto
 * the same previous ledger (the ratio loop's longer spans, a grown conversation).
 */
export function ledgerOf(view: SpanView, previous: readonly LedgerEntry[] = [], memo?: MessageMemo, keptRequest?: SpanMessage): LedgerEntry[] {
  const advance = (fold: LedgerFold, from: number) => {
    for (let pos = from; pos < view.messages.length; pos++) foldMessage(fold, view.messages[pos]!, taskListAt(view, pos, memo), memo);
  };
  let fold: LedgerFold;
  if (memo) {
    const onto = JSON.stringify(previous);
    const kept = memo.resume(
      LEDGER_FOLD,
      view.messages.map((sm) => sm.message),
      () => ({ ...foldOnto(previous), previous: onto }),
      advance,
      (state) => state.previous === onto,
    );
    // The kept fold goes on with the next span: what follows changes a copy.
    fold = { entries: kept.entries.slice(), index: new Map(kept.index), decisions: kept.decisions.slice() };
  } else {
    fold = foldOnto(previous);
    advance(fold, 0);
  }
  // The latest request kept verbatim after the summary is read too: what a person's message
  // gives (rules, cancellations, decisions) is the same however often it is read.
  if (keptRequest) foldMessage(fold, keptRequest, undefined, memo);
  for (const d of fold.decisions.slice(-DECISIONS_PER_SPAN)) if (!findEntry(fold, 'Decision', d.text)) setEntry(fold, d);
  return fold.entries;
}

/**
 * The ledger lines of a conversation — the block's head and one line per entry, '' entries
 * none — for a hook to put back after an agent's own compaction: the ledgers earlier summaries
 * and restores in it carry, with the evidence of its messages folded on. Pure.
 */
export function ledgerLines(messages: readonly Message[]): string[] {
  const view = buildSpanView(
    messages,
    messages.map(() => undefined),
  );
  let previous: LedgerEntry[] = [];
  for (const sm of view.messages) if (sm.summary) previous = mergeLedgers(previous, parseLedger(messageText(sm.message)) ?? []);
  const block = renderLedger(ledgerOf(view, previous));
  return block ? block.split('\n') : [];
}
