// The ledger: the person's standing rules, decisions with their reason, and plan items with a
// status and where it was set — carried verbatim by every later compaction, changed only by new
// evidence, a cancelled or finished plan never revived. And a rule is never cut anywhere.

import { describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, summaryTextOf } from '../../../src/engine/compactor';
import type { Conversation } from '../../../src/engine/conversation/model';
import { messageText } from '../../../src/engine/conversation/model';
import { extractSections } from '../../../src/engine/segments/extractSections';
import { LEDGER_HEAD, ledgerLines, mergeLedgers, parseLedger, renderLedger, type LedgerEntry } from '../../../src/engine/segments/ledger';
import { mergeSectionTexts } from '../../../src/engine/segments/mergeSections';
import { parseSummary } from '../../../src/engine/segments/parseSummary';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { isRuleSentence } from '../../../src/engine/analyze/standingRules';
import { ConversationBuilder } from '../../helpers/compactorFixtures';

const RULE = 'From now on, keep every public function documented with a JSDoc comment that names its parameters, its return value and the errors it throws.';
const LATE_RULE = 'Never push to main; open a pull request instead.';

function todo(b: ConversationBuilder, todos: { content: string; status: string }[]): ConversationBuilder {
  return b.tool('TodoWrite', { todos }, 'Todos have been modified successfully.');
}

/** A session with a rule, a decision, a plan whose items get done, cancelled and superseded. */
function session(): ConversationBuilder {
  const b = new ConversationBuilder()
    .user(`Add caching to the user service. ${RULE} Start with the read path.`)
    .assistant('We decided to use an LRU cache with 500 entries because the hit rate plateaus there.');
  todo(b, [
    { content: 'Add an LRU cache to getUser', status: 'in_progress' },
    { content: 'Rewrite the parser in Rust', status: 'pending' },
    { content: 'Document the cache settings', status: 'pending' },
  ]);
  b.tool('Edit', { file_path: 'src/users.ts', old_string: 'a', new_string: 'b' }, 'ok');
  b.user('Cancel the Rust rewrite of the parser, we keep the TypeScript one.');
  todo(b, [
    { content: 'Add an LRU cache to getUser', status: 'completed' },
    { content: 'Document the cache settings', status: 'pending' },
  ]);
  return b;
}

describe('the ledger block', () => {
  it('renders and parses back to the same entries, line for line', () => {
    const entries: LedgerEntry[] = [
      { kind: 'Rule', where: 'user, 2026-01-05 10:02', text: RULE },
      { kind: 'Decision', where: 'assistant, message 4', text: 'We chose pnpm because the lockfile is smaller.' },
      { kind: 'Plan', status: 'cancelled', where: 'user, 2026-01-05 10:31', text: 'Rewrite the parser in Rust' },
    ];
    const block = renderLedger(entries);
    expect(block.split('\n')[0]).toBe(LEDGER_HEAD);
    expect(parseLedger(`- Initial request: x\n${block}\n- something after`)).toEqual(entries);
    expect(renderLedger(parseLedger(block)!)).toBe(block);
  });

  it('merges: earlier entries stay in place and in their words; only a newer status changes them', () => {
    const earlier: LedgerEntry[] = [
      { kind: 'Plan', status: 'open', where: 'TodoWrite, message 3', text: 'Write the migration' },
      { kind: 'Rule', where: 'user, message 1', text: LATE_RULE },
    ];
    const later: LedgerEntry[] = [
      { kind: 'Plan', status: 'done', where: 'TodoWrite, message 9', text: 'write the migration' },
      { kind: 'Plan', status: 'open', where: 'TodoWrite, message 9', text: 'Deploy' },
    ];
    expect(mergeLedgers(earlier, later)).toEqual([
      { kind: 'Plan', status: 'done', where: 'TodoWrite, message 9', text: 'Write the migration' },
      { kind: 'Rule', where: 'user, message 1', text: LATE_RULE },
      { kind: 'Plan', status: 'open', where: 'TodoWrite, message 9', text: 'Deploy' },
    ]);
  });
});

describe('the ledger of a session', () => {
  it('holds the rule whole, the decision with its reason, and each plan item with its status and where it was set', () => {
    const { sections } = extractSections(session().messages, undefined, 4000);
    const entries = parseLedger(sections['Primary Request and Intent'])!;
    expect(entries).toContainEqual({ kind: 'Rule', where: 'user, message u1', text: RULE });
    expect(entries).toContainEqual({
      kind: 'Decision',
      where: 'assistant, message a2',
      text: 'We decided to use an LRU cache with 500 entries because the hit rate plateaus there.',
    });
    expect(entries).toContainEqual({ kind: 'Plan', status: 'done', where: 'TodoWrite, message a11', text: 'Add an LRU cache to getUser' });
    expect(entries).toContainEqual({ kind: 'Plan', status: 'cancelled', where: 'user, message u9', text: 'Rewrite the parser in Rust' });
    expect(entries).toContainEqual({ kind: 'Plan', status: 'open', where: 'TodoWrite, message a4', text: 'Document the cache settings' });
  });

  it('a later list that still lists a cancelled item open does not revive it; an open item a list drops is superseded', () => {
    const b = session();
    todo(b, [
      { content: 'Rewrite the parser in Rust', status: 'pending' },
      { content: 'Add metrics', status: 'pending' },
    ]);
    const entries = parseLedger(extractSections(b.messages, undefined, 4000).sections['Primary Request and Intent'])!;
    expect(entries.find((e) => e.text === 'Rewrite the parser in Rust')!.status).toBe('cancelled');
    expect(entries.find((e) => e.text === 'Document the cache settings')).toMatchObject({ status: 'superseded', where: 'TodoWrite, message a14' });
  });

  it('a rule the person lifts is marked revoked, not dropped', () => {
    const b = new ConversationBuilder()
      .user(`Please fix the tests. ${LATE_RULE}`)
      .assistant('ok')
      .user('You no longer need to open a pull request, pushing to main is fine now.');
    const entries = parseLedger(extractSections(b.messages, undefined, 4000).sections['Primary Request and Intent'])!;
    expect(entries).toEqual([{ kind: 'Rule', status: 'revoked', where: 'user, message u3', text: LATE_RULE }]);
  });

  it('takes a decision someone in the conversation made with its reason, not a report or a quoted warning', () => {
    const b = new ConversationBuilder()
      .user('Speed up the members query.')
      .assistant(
        "Let's go with a covering index on (team_id, created_at), because the planner already sorts by it. The ORM chose a nested loop since the table was small. \"DeprecationWarning: Using the ABCs from 'collections' instead of from 'collections.abc' is deprecated since Python 3.3\"",
      );
    const decisions = parseLedger(extractSections(b.messages, undefined, 4000).sections['Primary Request and Intent'])!.filter((e) => e.kind === 'Decision');
    expect(decisions.map((d) => d.text)).toEqual(["Let's go with a covering index on (team_id, created_at), because the planner already sorts by it."]);
  });

  it('is what ledgerLines gives the hook for the same messages', () => {
    const messages = session().messages;
    const lines = ledgerLines(messages);
    expect(lines[0]).toBe(LEDGER_HEAD);
    expect(parseLedger(lines.join('\n'))).toEqual(parseLedger(extractSections(messages, undefined, 4000).sections['Primary Request and Intent']));
  });

  it('two summaries’ ledgers fold entry by entry when sections are merged', () => {
    const a = { 'Primary Request and Intent': `- Initial request: x\n${renderLedger([{ kind: 'Plan', status: 'open', where: 'm 1', text: 'Ship it' }])}` };
    const b = { 'Primary Request and Intent': `- y\n${renderLedger([{ kind: 'Plan', status: 'done', where: 'm 9', text: 'Ship it' }])}` };
    const merged = mergeSectionTexts([a, b])['Primary Request and Intent'];
    expect(merged.split(LEDGER_HEAD)).toHaveLength(2);
    expect(parseLedger(merged)).toEqual([{ kind: 'Plan', status: 'done', where: 'm 9', text: 'Ship it' }]);
  });
});

describe('carried across chained compactions', () => {
  it('three compactions of a growing session keep every rule and plan status of the first, verbatim, updated only by new evidence', async () => {
    const counter = await createTokenCounter('gpt-4o');
    const b = session();
    for (let k = 0; k < 4; k++) b.tool('Read', { file_path: `src/cache${k}.ts` }, `export const cache${k} = new Map();\n`.repeat(60));
    const cut1 = b.messages.length;
    for (let k = 0; k < 6; k++) b.tool('Bash', { command: `npm test -- part${k}` }, `ok part ${k}\n`.repeat(40));
    b.user(LATE_RULE);
    const cut2 = b.messages.length;
    todo(b, [{ content: 'Document the cache settings', status: 'completed' }]);
    for (let k = 0; k < 6; k++) b.tool('Bash', { command: `npm run lint -- part${k}` }, `clean part ${k}\n`.repeat(40));
    const all = b.build('chain').messages;
    const ledgers: LedgerEntry[][] = [];
    let current: Conversation = { id: 'chain', format: 'openai', messages: [], meta: {} };
    for (const part of [all.slice(0, cut1), all.slice(cut1, cut2), all.slice(cut2)]) {
      current = { ...current, messages: [...current.messages, ...part] };
      const r = await compactConversation(current, { counter, archive: new MemoryArchive(), ratio: 0.3, now: '2026-01-01T00:00:00Z' });
      ledgers.push(parseLedger(parseSummary(summaryTextOf(r.conversation)!).sections['Primary Request and Intent']) ?? []);
      current = r.conversation;
    }
    const [first, , third] = ledgers;
    expect(first!.length).toBeGreaterThan(0);
    // Two entries meet new evidence after the first compaction: the plan item finished later, and
    // the cancellation the first compaction kept verbatim (the latest request then), read when
    // it was summarized. Every other entry is the same line.
    const evidence = new Set(['Document the cache settings', 'Rewrite the parser in Rust']);
    for (const e of first!) {
      const later = third!.find((x) => x.kind === e.kind && x.text === e.text);
      expect(later, `${e.kind}: ${e.text}`).toBeDefined();
      if (!evidence.has(e.text)) expect(later).toEqual(e);
    }
    expect(third!.find((x) => x.text === 'Document the cache settings')!.status).toBe('done');
    expect(third!.find((x) => x.text === 'Rewrite the parser in Rust')!.status).toBe('cancelled');
    expect(third!.some((x) => x.kind === 'Rule' && x.text === LATE_RULE)).toBe(true);
  });
});

describe('a standing rule is never cut', () => {
  it('is an instruction to the agent, not a report', () => {
    for (const r of [
      'From now on, always run npm test before you commit anything.',
      'Never push to main; open a pull request instead.',
      'Please always answer in French.',
      'Also, make sure to run the linter.',
      'You should never commit secrets.',
      'Every time you change the schema, regenerate the client.',
      '以后都用中文回答。',
    ])
      expect(isRuleSentence(r), r).toBe(true);
    for (const r of [
      'Do you always do that?',
      'I always forget my keys.',
      'We always go to Italy in summer.',
      'It never compiled on my machine.',
      'They also never check the labs in the rest of the country.',
      'I need to remember to buy milk.',
      'Every time I go to the gym I feel better.',
    ])
      expect(isRuleSentence(r), r).toBe(false);
  });

  it('no form of a long message ends inside a rule, at any budget', () => {
    const filler = 'The cache must survive restarts and keep its entries warm across deploys, with every eviction logged. '.repeat(14);
    const text = `Please rework the cache module in src/cache.ts. ${RULE} ${filler}Thanks.`;
    const b = new ConversationBuilder();
    for (let k = 0; k < 8; k++) b.user(k === 3 ? text : `Step ${k}: run the suite again and report.`).assistant('Done.');
    const head = RULE.slice(0, 40);
    for (const budget of [60, 120, 250, 500, 1000, 3000]) {
      for (const emergency of [false, true]) {
        const { sections } = extractSections(b.messages, undefined, budget, { emergency });
        const all = Object.values(sections).join('\n');
        for (let at = all.indexOf(head); at >= 0; at = all.indexOf(head, at + 1)) {
          expect(all.slice(at, at + RULE.length), `budget ${budget}${emergency ? ', emergency' : ''}`).toBe(RULE);
        }
      }
    }
    // Where there is room, the ledger quotes it whole.
    expect(parseLedger(extractSections(b.messages, undefined, 3000).sections['Primary Request and Intent'])!.map((e) => e.text)).toContain(RULE);
    expect(messageText(b.messages[6]!)).toContain(RULE);
  });
});
