// The extension host's heap is shared by every extension: a conversation whose compaction may need
// more than the heap has left is refused with the command that compacts it in a process of its
// own, before anything runs or is archived; one that fits compacts as before.

import { describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import type { Conversation, Message } from '../../src/engine/conversation/model';
import { compactionMemoryNeed } from '../../src/extension/compactionMemory';
import { createEngine } from '../../src/extension/engineModules';
import { UserFacingError } from '../../src/extension/log';

function chat(n: number, sourcePath?: string): Conversation {
  const messages: Message[] = Array.from({ length: n }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    itemType: i % 2 === 0 ? 'USER_MESSAGE' : 'ASSISTANT_MESSAGE',
    content: [{ type: 'text', text: i % 2 === 0 ? `Please remember item ${i} about topic ${i % 97}.` : `Sure, noted item ${i} about topic ${i % 97}.` }],
  }));
  return { id: 'big', format: 'openai', messages, meta: sourcePath ? { sourcePath } : {} } as Conversation;
}

const MB = 1024 * 1024;

describe('compacting in the extension host', () => {
  it('estimates a need above what the scale benchmark measured (200,000 short messages peaked 1.3 GB above an idle process)', () => {
    expect(compactionMemoryNeed(chat(200_000))).toBeGreaterThan(1_300 * MB);
    // More text, more need.
    const long = chat(10);
    const longer = { ...long, messages: long.messages.map((m) => ({ ...m, content: [{ type: 'text' as const, text: 'x'.repeat(100_000) }] })) };
    expect(compactionMemoryNeed(longer)).toBeGreaterThan(compactionMemoryNeed(long) + 10 * 100_000 * 9);
  });

  it('refuses a conversation whose compaction may need more than the heap has left, naming the ctxc command, and archives nothing', async () => {
    const archive = new MemoryArchive();
    const engine = createEngine(() => 8 * MB);
    const conv = chat(2_000, '/work/sessions/big.json');
    const run = engine.run(conv, {}, { archive });
    await expect(run).rejects.toBeInstanceOf(UserFacingError);
    await expect(run).rejects.toThrow(
      /\(2,000 messages\) may need \d+ MB to compact, and the extension host has 8 MB left.*ctxc compact "\/work\/sessions\/big\.json"/,
    );
    expect(archive.keys()).toEqual([]);
  });

  it('compacts the same conversation when the heap has room for it', async () => {
    const archive = new MemoryArchive();
    const engine = createEngine(() => 4_096 * MB);
    const run = await engine.run(chat(2_000, '/work/sessions/big.json'), {}, { archive });
    expect(run.result.tokensAfter).toBeLessThan(run.result.tokensBefore);
  });
});
