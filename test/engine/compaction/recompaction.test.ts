// Repeated compaction: a real session split into 6 parts, compacted after each append (5
// compactions in a row, default strategy). The final result still holds ≥ 95% of the user
// requests and files of the whole session, and the summary did not become a summary of
// summaries: one COMPACTION_SUMMARY, each heading once, no nested headings, the first
// compaction's user messages still there, the count of compactions recorded and warned about.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectedFacts } from '../../../bench/quality/rawFacts';
import { indexOutput, scoreFacts } from '../../../bench/quality/retention';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, summaryTextOf } from '../../../src/engine/compactor';
import { validateApiShape } from '../../../src/engine/conversation/apiShape';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import { exportMarkdown } from '../../../src/engine/conversation/exporters/markdown';
import { messageText, type Conversation, type Message } from '../../../src/engine/conversation/model';
import { computeToolBlocks } from '../../../src/engine/conversation/views';
import type { CompactionResult } from '../../../src/engine/result';
import { SECTION_NAMES } from '../../../src/engine/sections';
import { settleCut, unsafeCuts } from '../../../src/engine/strategies/summaryStrategy';
import { normalizeForMatch } from '../../../src/engine/validate/factMatch';
import { createTokenCounter, type CachedTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { transcriptPath } from '../../helpers/transcripts';
import { warningText } from '../../../src/engine/warnings';

const PARTS = 6;
/** A user request counts as present when its first characters are (verbatim, or the start of
 *  its shortened form in "All user messages"). */
const REQUEST_PREFIX_CHARS = 40;

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await createTokenCounter('gpt-4o');
});

function load(rel: string): Conversation {
  const file = transcriptPath(rel);
  // Every chat session of an aider history: the facts are read from the whole raw file.
  return importTranscript(readFileSync(file, 'utf8'), { sourcePath: file, wholeFile: true }).conversation;
}

/** Cut points splitting the messages into `parts` pieces, never inside a tool block. */
function split(messages: readonly Message[], parts: number): Message[][] {
  const blocks = computeToolBlocks(messages);
  const unsafe = unsafeCuts(messages.length, blocks);
  const cuts = [0];
  for (let k = 1; k < parts; k++)
    cuts.push(Math.max(cuts[cuts.length - 1]! + 1, settleCut(Math.round((messages.length * k) / parts), messages, blocks, unsafe)));
  cuts.push(messages.length);
  return cuts.slice(0, -1).map((c, k) => messages.slice(c, cuts[k + 1]));
}

function resultText(conv: Conversation): string {
  return normalizeForMatch(conv.messages.map((m) => `${messageText(m)}\n${(m.toolCalls ?? []).map((c) => c.arguments).join('\n')}`).join('\n'));
}

describe.each([
  'claude-code/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
  'mini-swe-agent/django__django-15554.traj.json',
  'aider/AlexShchuka__mozgoslav.aider.chat.history.md',
])('five compactions in a row on %s', (rel) => {
  let original: Conversation;
  let results: CompactionResult[];
  beforeAll(async () => {
    original = load(rel);
    const parts = split(original.messages, PARTS);
    results = [];
    let current: Conversation = { ...original, messages: [...parts[0]!], meta: { ...original.meta } };
    for (let k = 1; k < PARTS; k++) {
      current = { ...current, messages: [...current.messages, ...parts[k]!] };
      const r = await compactConversation(current, { counter, archive: new MemoryArchive(), now: '2026-01-01T00:00:00Z' });
      results.push(r);
      current = r.conversation;
    }
  }, 120_000);

  it('keeps ≥ 95% of the user requests and files of the whole session (facts read from the raw file, scored as bench:quality does)', () => {
    const facts = expectedFacts(transcriptPath(rel), rel)[0]!;
    const score = scoreFacts(facts, indexOutput(exportMarkdown(results.at(-1)!.conversation)));
    expect(facts.userRequests.length).toBeGreaterThan(0);
    expect(score.userRequests.retained / score.userRequests.expected, `lost requests: ${score.userRequests.lost.join(' | ')}`).toBeGreaterThanOrEqual(0.95);
    if (facts.files.length > 0) expect(score.files.retained / score.files.expected, `lost files: ${score.files.lost.join(', ')}`).toBeGreaterThanOrEqual(0.95);
  });

  it('merges section by section: one summary, each heading once, no nested headings or summary-of-summary markers', () => {
    for (const r of results) expect(validateApiShape(r.conversation.messages).ok).toBe(true);
    const final = results.at(-1)!.conversation;
    expect(final.messages.filter((m) => m.itemType === 'COMPACTION_SUMMARY')).toHaveLength(1);
    const summary = summaryTextOf(final)!;
    for (const name of SECTION_NAMES) expect(summary.split(`## ${name}`).length - 1, name).toBe(1);
    expect(summary).not.toMatch(/summary of (the )?(previous |earlier )?summar/i);
    expect(summary.match(/^# /gm)?.length ?? 0).toBeLessThanOrEqual(1);
    for (const s of results.at(-1)!.summary.sections) expect(s.text).not.toMatch(/^#{1,2} /m);
  });

  it("the first compaction's user messages are still in the last summary (whole or shortened)", () => {
    const first = normalizeForMatch(results[0]!.summary.sections.find((s) => s.name === 'All user messages')!.text);
    const last = normalizeForMatch(results.at(-1)!.summary.sections.find((s) => s.name === 'All user messages')!.text);
    const entries = first
      .split(/\n?- /)
      .map((e) =>
        e
          .replace(/\[… [\d,]+ more characters\]/, '')
          .trim()
          .slice(0, REQUEST_PREFIX_CHARS),
      )
      .filter((e) => e.length >= 10);
    const kept = entries.filter((e) => last.includes(e) || resultText(results.at(-1)!.conversation).includes(e));
    expect(kept.length).toBe(entries.length);
  });

  it('counts the compactions; each result knows how many it took', () => {
    // A compaction that would not make the conversation smaller leaves it (and its count) as it is.
    const compacted = results.map((r) => !r.warnings.some((w) => w.code === 'notSmaller'));
    expect(compacted.filter(Boolean).length).toBeGreaterThanOrEqual(4);
    let count = 0;
    results.forEach((r, k) => {
      count += compacted[k] ? 1 : 0;
      expect(r.compactionCount, `compaction ${k + 1}`).toBe(count);
    });
    expect(results.at(-1)!.conversation.meta.compactions).toBe(count);
  });
});

describe('the sixth compaction warns that quality may degrade', () => {
  it('after 5 compactions', async () => {
    const conv = load('mini-swe-agent/django__django-15554.traj.json');
    const parts = split(conv.messages, 7);
    let current: Conversation = { ...conv, messages: [...parts[0]!] };
    let last: CompactionResult | undefined;
    for (let k = 1; k < 7; k++) {
      current = { ...current, messages: [...current.messages, ...parts[k]!] };
      last = await compactConversation(current, { counter, archive: new MemoryArchive() });
      current = last.conversation;
    }
    expect(last!.compactionCount).toBe(6);
    expect(last!.warnings.map(warningText).join('\n')).toMatch(/compacted 6 times; summary quality may degrade/);
  }, 120_000);
});
