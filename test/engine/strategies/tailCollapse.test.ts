// The kept tail reads well (issue 14): runs of repeated lines in a kept tool output collapse to
// one line and a count — seen on an aider session whose last tool block kept 18 "unable to read:
// [Errno 2] …" lines (2,759 tokens) whole — and nothing else in the verbatim tail changes. The
// collapse is a change of the message: recorded on it (decision 'truncated', truncation by
// 'collapse'), naming the archive entry, and undone exactly.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, undoCompaction } from '../../../src/engine/compactor';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import { messageText } from '../../../src/engine/conversation/model';
import { collapseRepeatedLines } from '../../../src/engine/strategies/repeatedLines';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { ConversationBuilder } from '../../helpers/compactorFixtures';
import { transcriptPath } from '../../helpers/transcripts';

describe('collapseRepeatedLines', () => {
  it('a run of identical lines becomes the line and a count', () => {
    expect(collapseRepeatedLines('start\nwarn: disk\nwarn: disk\nwarn: disk\nwarn: disk\nend', 3).text).toBe(
      'start\nwarn: disk\n… 3 more identical lines\nend',
    );
  });

  it('a run of lines that differ only in their numbers keeps its first and last line', () => {
    const lines = Array.from({ length: 18 }, (_, k) => `img-2024031405${String(k).padStart(4, '0')}.png: unable to read: [Errno 2] No such file or directory`);
    const c = collapseRepeatedLines(['$ ls', ...lines, 'done'].join('\n'), 3);
    expect(c.text).toBe(['$ ls', lines[0], '… 16 more lines like these, differing only in their numbers', lines[17], 'done'].join('\n'));
    expect(c.collapsedLines).toBe(16);
  });

  it('leaves short runs, blank lines and lines that differ in words alone; names where the whole output is', () => {
    const text = 'a\na\n\n\n\nok 1\nfail 2\nok 3';
    expect(collapseRepeatedLines(text, 3)).toEqual({ text, collapsedLines: 0, runs: 0 });
    expect(collapseRepeatedLines('x\nx\nx\ny\ny\ny', 3, 'see the archive').text).toBe(
      'x\n… 2 more identical lines [see the archive]\ny\n… 2 more identical lines',
    );
  });
});

describe('the kept tail of a real aider session', () => {
  it('collapses the 18 "unable to read" lines, records the change, and undo restores them', async () => {
    const file = transcriptPath('aider/Aquaticat__Monochromatic.aider.chat.history.md');
    const conv = importTranscript(readFileSync(file, 'utf8'), { sourcePath: file, wholeFile: true }).conversation;
    const archive = new MemoryArchive(true);
    const r = await compactConversation(conv, { counter: await createTokenCounter('gpt-4o'), archive, ratio: 0.1 });
    const original = conv.messages.find((m) => (messageText(m).match(/unable to read: \[Errno 2\]/g) ?? []).length >= 18)!;
    expect(original).toBeDefined();
    const plan = r.plan.find((p) => p.id === original.id)!;
    expect(plan.decision).toBe('truncated');
    expect(plan.reason).toMatch(/16 repeated output lines collapsed into counts \(the archive keeps the original\)$/);
    const kept = r.conversation.messages.find((m) => m.id === original.id)!;
    expect(kept.truncation).toMatchObject({ by: 'collapse', archiveRef: original.id });
    expect(kept.toolResult).toEqual(original.toolResult);
    const text = messageText(kept);
    expect(text.match(/unable to read: \[Errno 2\]/g)).toHaveLength(2);
    expect(text).toContain(
      `… 16 more lines like these, differing only in their numbers [the full output is message ${original.id} in this compaction's archive]`,
    );
    // Nothing else in the output changed: every other line is there, in order.
    const others = (s: string) => s.split('\n').filter((l) => !l.includes('unable to read: [Errno 2]') && !l.startsWith('… '));
    expect(others(text)).toEqual(others(messageText(original)));
    expect(await undoCompaction(r.archiveId, archive)).toEqual(conv);
  });

  it('messages without repeated lines stay exactly as they were', async () => {
    const b = new ConversationBuilder()
      .user('Run the tests.')
      .tool('Bash', { command: 'npm test' }, 'PASS a.test.ts\nPASS b.test.ts\nTests: 2 passed')
      .assistant('All green.');
    const conv = b.build('plain');
    const r = await compactConversation(conv, { counter: await createTokenCounter('gpt-4o'), archive: new MemoryArchive(), keepRecentRounds: 1 });
    for (const m of r.conversation.messages.filter((x) => x.itemType !== 'COMPACTION_SUMMARY')) expect(m).toBe(conv.messages.find((x) => x.id === m.id));
  });
});
