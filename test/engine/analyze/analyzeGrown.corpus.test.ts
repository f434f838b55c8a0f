// An analysis with a memo kept across calls (AnalyzeOptions.memo) reuses what it read of each
// message, the conversation-wide scans and each message's analysis when its figures did not
// move: on a real conversation growing one message at a time, each analysis equals the one
// made afresh, and a message whose analysis did not change keeps the very object it had.
// Without `now`, recency is measured from the latest message, so it moves as messages come; with
// a `now` long after the session, it stays.

import { describe, expect, it } from 'vitest';
import { analyzeConversation } from '../../../src/engine/analyze/analyzeConversation';
import { MessageMemo } from '../../../src/engine/conversation/messageMemo';
import { importShared } from '../../helpers/sharedConversation';

const NOW = '2026-01-01T00:00:00.000Z';

describe('an analysis kept across a growing real conversation', () => {
  it.each([
    [undefined, undefined],
    ['the failing tests', undefined],
    [undefined, NOW],
    ['the failing tests', NOW],
  ])('focus %s, now %s: every prefix analyzes as afresh', (focus, now) => {
    const messages = importShared('claude-code/kiliman__claude-transcript__test2.jsonl', { wholeFile: true }).messages;
    const n = messages.length;
    const memo = new MessageMemo();
    const start = Math.ceil(n * 0.6);
    // One message at a time, a jump, a shorter prefix (the scans start over), and the whole.
    const cuts = [start, start + 1, start + 2, start + 3, Math.ceil(n * 0.8), n - 1, Math.ceil(n * 0.3), n];
    let before: ReturnType<typeof analyzeConversation> | undefined;
    let kept = 0;
    for (const cut of cuts) {
      const prefix = messages.slice(0, cut);
      const warm = analyzeConversation(prefix, { memo, focus, now });
      expect(warm, `cut ${cut}`).toEqual(analyzeConversation(prefix, { focus, now }));
      if (before && before.messages.length < cut) {
        for (let i = 0; i < before.messages.length; i++) if (warm.messages[i] === before.messages[i]) kept++;
      }
      before = warm;
    }
    // Messages of a grown conversation keep their analysis object; most do when recency stays.
    expect(kept).toBeGreaterThan(now ? start * 3 : 0);
  });
});
