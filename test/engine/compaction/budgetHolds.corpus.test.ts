// The budget holds: when the summary's required content — every user message, file
// and error — does not fit, it gives way in reported steps instead of being kept whole; with an
// explicit target the compactor escalates normal → heavy → emergency by itself; at the emergency
// level every result is within 5% of its target. Pinned on the shared transcripts (the
// LongMemEval chats of ~400 short messages, the small Claude Code and OpenHands sessions whose
// last tool block alone was over the target) and on hand-made ones for each step.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, planCompaction, summaryTextOf, undoCompaction } from '../../../src/engine/compactor';
import { validateApiShape } from '../../../src/engine/conversation/apiShape';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import type { Conversation } from '../../../src/engine/conversation/model';
import { messageText } from '../../../src/engine/conversation/model';
import { extractSections } from '../../../src/engine/segments/extractSections';
import { parseSummary, splitBullets } from '../../../src/engine/segments/parseSummary';
import { createTokenCounter, type CachedTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { ConversationBuilder } from '../../helpers/compactorFixtures';
import { transcriptFiles, transcriptPath } from '../../helpers/transcripts';
import { warningText } from '../../../src/engine/warnings';

let counterPromise: Promise<CachedTokenCounter> | undefined;
const counter = () => (counterPromise ??= createTokenCounter('gpt-4o'));

function load(rel: string, instance?: number): Conversation {
  const file = transcriptPath(rel);
  return importTranscript(readFileSync(file, 'utf8'), { sourcePath: file, wholeFile: true, ...(instance !== undefined ? { instance } : {}) }).conversation;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('every shared transcript: the result is within 5% of an explicit target', () => {
  const files = transcriptFiles().filter((f) => !f.endsWith('.md') || f.startsWith('aider/'));
  it.each(files)(
    '%s at ratio 0.1, and at the emergency level with a budget of 5% of the original',
    async (rel) => {
      const c = await counter();
      const conv = load(rel);
      const before = c.countMessages(conv.messages);
      const byRatio = await compactConversation(conv, { counter: c, archive: new MemoryArchive(), ratio: 0.1 });
      expect(byRatio.tokensAfter, byRatio.warnings.map(warningText).join('\n')).toBeLessThanOrEqual(byRatio.target! * 1.05);
      const archive = new MemoryArchive();
      const emergency = await compactConversation(conv, { counter: c, archive, budget: Math.round(0.05 * before), level: 'emergency' });
      expect(emergency.tokensAfter, emergency.warnings.map(warningText).join('\n')).toBeLessThanOrEqual(emergency.target! * 1.05);
      expect(validateApiShape(emergency.conversation.messages).ok).toBe(true);
      expect(await undoCompaction(emergency.archiveId, archive)).toEqual(conv);
      // The eight headings are the contract, at any budget and level; and with no archive that
      // outlives the run, nothing points to one.
      for (const r of [byRatio, emergency]) {
        const text = summaryTextOf(r.conversation)!;
        expect(parseSummary(text).missing).toEqual([]);
        expect(r.conversation.messages.map(messageText).join('\n')).not.toMatch(/archive/);
      }
    },
    60_000,
  );
});

describe('LongMemEval chat (about 400 short messages) at ratio 0.1', () => {
  it('is within the target, says which steps it took, and still names every user message by its opening words', async () => {
    const conv = load('longmemeval/longmemeval_s.json', 1);
    const r = await compactConversation(conv, { counter: await counter(), archive: new MemoryArchive(), ratio: 0.1 });
    expect(r.tokensAfter).toBeLessThanOrEqual(r.target! * 1.05);
    const steps = r.degradation.map((d) => d.step);
    expect(steps).toContain('gist-user-messages');
    expect(steps).not.toContain('cut-required');
    for (const d of r.degradation) expect(d.detail).toMatch(/required content \d+ → \d+ tokens/);
    const result = squash(r.conversation.messages.map(messageText).join('\n'));
    const users = conv.messages.filter((m) => m.itemType === 'USER_MESSAGE');
    for (const u of users) expect(result, squash(messageText(u)).slice(0, 60)).toContain(squash(messageText(u)).slice(0, 40));
    expect(r.warnings.map(warningText).join('\n')).not.toMatch(/kept whole/);
  });

  it('--level emergency: within the target, and the steps are reported in order', async () => {
    const conv = load('longmemeval/longmemeval_s.json');
    const c = await counter();
    const r = await compactConversation(conv, { counter: c, archive: new MemoryArchive(), ratio: 0.05, level: 'emergency' });
    expect(r.tokensAfter).toBeLessThanOrEqual(r.target! * 1.05);
    const order = ['heavier-level', 'shorten-user-messages', 'merge-repeats', 'gist-user-messages', 'cut-required', 'summarize-kept', 'shorten-recent'];
    const seen = r.degradation.map((d) => order.indexOf(d.step));
    expect(seen.every((x) => x >= 0)).toBe(true);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });
});

describe('escalation: an explicit target is met by heavier levels, not returned several times over', () => {
  it('the OpenHands session at ratio 0.1: normal and heavy are over (its last round alone is), emergency fits', async () => {
    const r = await compactConversation(load('openhands/basic_gui_mode.json'), { counter: await counter(), archive: new MemoryArchive(), ratio: 0.1 });
    expect(r.level).toBe('emergency');
    expect(r.degradation.filter((d) => d.step === 'heavier-level').map((d) => d.detail)).toEqual([
      expect.stringMatching(/^the normal level gave [\d,]+ tokens, over the target of 347: compacted again at the heavy level$/),
      expect.stringMatching(/^the heavy level gave [\d,]+ tokens, over the target of 347: compacted again at the emergency level$/),
    ]);
    expect(r.tokensAfter).toBeLessThanOrEqual(347 * 1.05);
    // The request (the latest one, and the first) is kept verbatim even then; the work after it
    // is summarized and shortened instead.
    const request = load('openhands/basic_gui_mode.json').messages.find((m) => m.itemType === 'USER_MESSAGE')!;
    expect(r.conversation.messages).toContainEqual(request);
  });

  it('without an explicit target the level asked for is kept', async () => {
    const p = planCompaction(load('openhands/basic_gui_mode.json'), { counter: await counter() });
    expect(p.level).toBe('normal');
    expect(p.degradation.filter((d) => d.step === 'heavier-level')).toEqual([]);
  });
});

describe('the steps, one by one', () => {
  // A first sentence of about 280 characters: the shortest ordinary form runs to its end, so
  // the opening and closing words are shorter.
  const longMessage = (k: number) =>
    `Request ${k}: please rework the cache layer so that it ${'survives restarts, keeps its entries warm across deploys, '.repeat(4)}and reloads. ${'It also logs every eviction to the audit trail. '.repeat(4)}It fails with CacheMissError in src/cache/store${k}.ts today. Thanks, that is all for step ${k}.`;

  it('1: long user messages become their opening and closing words, with the names in between', () => {
    const b = new ConversationBuilder();
    for (let k = 0; k < 6; k++) b.user(longMessage(k)).assistant('ok');
    const r = extractSections(b.messages, undefined, 200);
    expect(r.degradation[0]!.step).toBe('shorten-user-messages');
    const users = r.sections['All user messages'];
    expect(users).toMatch(
      /- Request 5: please rework the cache layer so that it .* \[… [\d,]+ more characters\] .*that is all for step 5\. \[names in between: `CacheMissError`\]/,
    );
  });

  it('2: acknowledgements become one line that quotes them; near-duplicates merge into their latest', () => {
    const b = new ConversationBuilder();
    for (let k = 0; k < 30; k++)
      b.user(`Question ${k}: how does module${k} handle retries when the scheduler ${'is busy and the queue is long, '.repeat(3)}?`).assistant('An answer.');
    b.user('ok').assistant('.').user('thanks').assistant('.').user('yes do it').assistant('.');
    b.user('Please deploy the staging build to the cluster in the eu-west region tonight.').assistant('.');
    b.user('Please deploy the staging build to the cluster in the eu-west region tonight!').assistant('.');
    const r = extractSections(b.messages, undefined, 300);
    const steps = r.degradation.map((d) => d.step);
    expect(steps).toContain('merge-repeats');
    const users = r.sections['All user messages'];
    expect(users).toContain('- 3 short replies: “ok”, “thanks”, “yes do it”');
    expect(users.match(/deploy the staging build/g)).toHaveLength(1);
    expect(users).toContain('(also sent 1 time before in similar words)');
  });

  it('3: all but the first request and the three most recent become gists that still carry the cut marker', () => {
    const b = new ConversationBuilder();
    for (let k = 0; k < 40; k++)
      b.user(`Topic ${k}: ${'tell me more about the migration plan and its risks for the billing service. '.repeat(3)}`).assistant('Sure.');
    const r = extractSections(b.messages, undefined, 1500);
    expect(r.degradation.map((d) => d.step)).toContain('gist-user-messages');
    const bullets = splitBullets(r.sections['All user messages']);
    expect(bullets).toHaveLength(40);
    // The first request and the three most recent as before; the others one-line gists.
    for (const x of bullets.slice(1, -3))
      expect(x).toMatch(/^- Topic \d+: tell me more about the migration plan and its risks for the billing service\. \S+ \[… [\d,]+ more characters\]$/);
    expect(r.tokens).toBeLessThanOrEqual(1500);
  });

  it('4 (emergency only): other sections give way first; then user messages; what is left out is counted', () => {
    const b = new ConversationBuilder();
    for (let k = 0; k < 60; k++)
      b.user(`Item ${k}: ${'rename the field and update every caller. '.repeat(3)}`).tool(
        'Edit',
        { file_path: `src/f${k}.ts`, old_string: 'a', new_string: 'b' },
        'ok',
      );
    const normal = extractSections(b.messages, undefined, 150);
    expect(normal.degradation.map((d) => d.step)).not.toContain('cut-required');
    expect(normal.tokens).toBeGreaterThan(150);
    const emergency = extractSections(b.messages, undefined, 150, { emergency: true });
    expect(emergency.degradation.at(-1)!.step).toBe('cut-required');
    expect(emergency.tokens).toBeLessThanOrEqual(150);
    expect(emergency.sections['All user messages']).toMatch(/\(\d+ more user messages left out to fit; the archive has them\)$/);
    // With no archive that outlives the compaction, the line points to none.
    const unarchived = extractSections(b.messages, undefined, 150, { emergency: true, archived: false });
    expect(unarchived.sections['All user messages']).toMatch(/\(\d+ more user messages left out to fit\)$/);
    expect(emergency.sections['All user messages']).toContain('Item 0:');
    // A section that gave up entries says so, never "(none)".
    expect(emergency.sections['Files and Code Sections']).toMatch(/\n- \(\d+ more entries left out to fit\)$/);
  });
});

describe('"All user messages" only grows across re-compactions while the budget holds (gists name every message)', () => {
  it('five compactions of a growing chat at ratio 0.5, its gists reported: every earlier message is still named by its opening words', async () => {
    const c = await counter();
    const b = new ConversationBuilder().system('You are helpful.');
    let conv: Conversation = b.build('grow');
    const firstWords: string[] = [];
    for (let round = 0; round < 5; round++) {
      const more = new ConversationBuilder();
      for (let k = 0; k < 8; k++) {
        const text = `Round ${round} question ${k}: what about the ${['cache', 'queue', 'index', 'store', 'log'][k % 5]} in service ${k}? ${'Context about the deployment. '.repeat(8)}`;
        firstWords.push(text.slice(0, 40));
        more.user(text).assistant(`Answer ${round}.${k}: ${'The service restarts its workers and drains the queue first. '.repeat(25)}`);
      }
      conv = { ...conv, messages: [...conv.messages, ...more.messages.map((m) => ({ ...m, id: `${round}-${m.id}` }))] };
      const r = await compactConversation(conv, { counter: c, archive: new MemoryArchive(), ratio: 0.5 });
      expect(r.tokensAfter).toBeLessThanOrEqual(r.target! * 1.05);
      expect(r.degradation.map((d) => d.step)).not.toContain('cut-required');
      conv = r.conversation;
      const users = parseSummary(summaryTextOf(conv)!).sections['All user messages'];
      const whole = conv.messages.map(messageText).join('\n');
      for (const w of firstWords) expect(users.includes(w) || whole.includes(w), w).toBe(true);
    }
  }, 60_000);
});
