// The tool blocks of a grown conversation, resumed from the scan of its earlier messages
// (advanceToolBlocks), are those computed afresh at every cut of real transcripts, and the blocks
// handed out before a result arrived are not changed by it.

import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/engine/conversation/model';
import { advanceToolBlocks, computeToolBlocks, toolBlockScan } from '../../../src/engine/conversation/views';
import { importShared } from '../../helpers/sharedConversation';

const FILES: [string, { wholeFile?: boolean }][] = [
  ['claude-code/kiliman__claude-transcript__test2.jsonl', { wholeFile: true }],
  ['mini-swe-agent/django__django-11138.traj.json', {}],
];

describe('tool blocks resumed as the conversation grows', () => {
  it.each(FILES)('%s: every cut equals a fresh computation', (rel, opts) => {
    const messages = importShared(rel, opts).messages;
    const scan = toolBlockScan();
    let from = 0;
    let handed = scan.blocks.slice();
    let handedCopy = structuredClone(handed);
    // Steps of 1 to 7 messages, so that results arrive both in the same step as their call and later.
    for (let k = 1; from < messages.length; k = (k % 7) + 1) {
      const to = Math.min(messages.length, from + k);
      const cut = messages.slice(0, to);
      advanceToolBlocks(scan, cut, from);
      expect(scan.blocks).toEqual(computeToolBlocks(cut));
      expect(handed).toEqual(handedCopy);
      handed = scan.blocks.slice();
      handedCopy = structuredClone(handed);
      from = to;
    }
    expect(scan.blocks.some((b) => b.resultIndices.length > 0)).toBe(true);
  });

  it('a result for a call id reused by a later block answers the later one', () => {
    const msg = (id: string, extra: Partial<Message>): Message => ({ id, role: 'assistant', itemType: 'TOOL_CALL', content: [], ...extra }) as Message;
    const call = (id: string, ids: string[]) => msg(id, { toolCalls: ids.map((c) => ({ id: c, name: 'Bash', arguments: '{}' })) });
    const result = (id: string, callId: string) => msg(id, { role: 'tool', itemType: 'TOOL_RESULT', toolResult: { toolCallId: callId } } as Partial<Message>);
    const messages = [call('a', ['x', 'y', 'x']), call('b', ['y']), result('r1', 'x'), result('r2', 'y'), result('r3', 'z')];
    const scan = toolBlockScan();
    advanceToolBlocks(scan, messages.slice(0, 3), 0);
    advanceToolBlocks(scan, messages, 3);
    expect(scan.blocks).toEqual(computeToolBlocks(messages));
    expect(scan.blocks[0]!.unanswered).toEqual(['y']);
  });
});
