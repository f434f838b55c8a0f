// The summary's token figures are taken from the messages the attempts counted already: the
// archive id a compaction adds goes into the message's source, not its text, and a summary
// message only counted (the draft, the floor estimate) carries no id derived from its text.
// Neither changes a count: on real transcripts the figures equal a fresh count of the messages
// the result holds.

import { describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { buildSummaryMessage, summaryStyleOf } from '../../../src/engine/compaction/summaryMessage';
import { compactConversation } from '../../../src/engine/compactor';
import { messageText } from '../../../src/engine/conversation/model';
import { SECTION_NAMES, type SectionTexts } from '../../../src/engine/sections';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { importShared } from '../../helpers/sharedConversation';

const FILES: [string, { wholeFile?: boolean }][] = [
  ['mini-swe-agent/django__django-11138.traj.json', {}],
  ['aider/AFI-Protocol__afi-core.aider.chat.history.md', {}],
  ['claude-code/kiliman__claude-transcript__test2.jsonl', { wholeFile: true }],
];

const NOW = '2026-01-01T00:00:00.000Z';

describe('the summary figures of a compaction of a real conversation', () => {
  it.each(FILES)('%s: the summary tokens are a fresh count of the summary message the result holds', async (rel, opts) => {
    const conv = importShared(rel, opts);
    for (const level of ['normal', 'emergency'] as const) {
      const counter = await createTokenCounter(conv.meta.model);
      const r = await compactConversation(conv, { counter, archive: new MemoryArchive(), now: NOW, level, ratio: 0.2 });
      const summary = r.conversation.messages.find((m) => m.itemType === 'COMPACTION_SUMMARY');
      expect(summary).toBeDefined();
      expect(summary!.source?.extra?.archiveId).toBe(r.archiveId);
      const fresh = await createTokenCounter(conv.meta.model);
      expect(r.summary.tokens).toBe(fresh.countMessage(summary!));
      expect(r.summary.tokens).toBe(fresh.countMessage({ ...summary!, source: { format: 'compacted' } }));
    }
  });

  it.each(FILES)('%s: a summary message built unnamed has the named one’s text and count', async (rel, opts) => {
    const conv = importShared(rel, opts);
    const counter = await createTokenCounter(conv.meta.model);
    const r = await compactConversation(conv, { counter, archive: new MemoryArchive(), now: NOW, ratio: 0.2 });
    const sections = Object.fromEntries(r.summary.sections.map((s) => [s.name, s.text])) as SectionTexts;
    expect(Object.keys(sections)).toEqual([...SECTION_NAMES]);
    const meta = { originalChars: 1000, compressedChars: 100, ratio: 0.1, qualityScore: 0.9, compactions: 1, summarizedMessages: 10 };
    for (const style of [summaryStyleOf({ archived: true, level: 'normal' }), summaryStyleOf({ archived: false, level: 'emergency' })]) {
      const named = buildSummaryMessage(sections, meta, style);
      const unnamed = buildSummaryMessage(sections, meta, style, undefined, true);
      expect(messageText(unnamed)).toBe(messageText(named));
      expect(unnamed.id).not.toBe(named.id);
      const fresh = await createTokenCounter(conv.meta.model);
      expect(fresh.countMessage(unnamed)).toBe((await createTokenCounter(conv.meta.model)).countMessage(named));
    }
  });
});
