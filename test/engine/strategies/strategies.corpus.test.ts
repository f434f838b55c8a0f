// Every strategy on the real transcripts: valid for both chat APIs, nothing lost (each message is
// in the result verbatim, or as a replacement that names its archive entry, or summarized/dropped
// from an archived original), pins and header items kept, undo exact.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, undoCompaction } from '../../../src/engine/compactor';
import { validateApiShape } from '../../../src/engine/conversation/apiShape';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import { isHeaderItem, messageText, type Conversation } from '../../../src/engine/conversation/model';
import { listStrategies } from '../../../src/engine/strategies/registry';
import { createTokenCounter, type CachedTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { transcriptPath } from '../../helpers/transcripts';

const REAL = [
  'claude-code/kiliman__claude-transcript__test2.jsonl',
  'mini-swe-agent/django__django-11138.traj.json',
  'aider/AFI-Protocol__afi-core.aider.chat.history.md',
  'openhands/basic_gui_mode.json',
];

function load(rel: string): Conversation {
  const file = transcriptPath(rel);
  return importTranscript(readFileSync(file, 'utf8'), { sourcePath: file }).conversation;
}

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await createTokenCounter('gpt-4o');
});

const NAMES = listStrategies().map((s) => s.name);

describe.each(REAL)('every strategy on %s', (rel) => {
  let conv: Conversation;
  beforeAll(() => {
    conv = load(rel);
  });
  it.each(NAMES)('%s: valid for both APIs, header and pins kept, placeholders name the archive, undo exact', async (name) => {
    // A durable archive: only then do placeholders point to it.
    const archive = new MemoryArchive(true);
    const r = await compactConversation(conv, { counter, archive, ratio: 0.1, strategy: name, now: '2026-01-01T00:00:00Z' });
    expect(r.strategy).toBe(name);
    expect(
      validateApiShape(r.conversation.messages).problems.filter(
        (p) => !validateApiShape(conv.messages).problems.some((q) => q.id === p.id && q.kind === p.kind),
      ),
    ).toEqual([]);
    const out = new Set(r.conversation.messages);
    conv.messages.forEach((m, i) => {
      if (isHeaderItem(m) || m.pinned) expect(out.has(m)).toBe(true);
      const p = r.plan[i]!;
      if (p.decision === 'masked' || p.decision === 'truncated' || p.decision === 'offloaded') {
        const rep = r.conversation.messages.find((x) => x.id === m.id)!;
        expect(rep.truncation?.archiveRef).toBe(m.id);
        expect(`${messageText(rep)}${rep.toolCalls?.map((c) => c.arguments).join('') ?? ''}`).toContain(`message ${m.id} in this compaction's archive`);
      }
    });
    // Every tool call is still answered and every result still follows its call.
    expect(r.tokensAfter).toBeLessThanOrEqual(r.tokensBefore);
    expect(await undoCompaction(r.archiveId, archive)).toEqual(conv);
  });
});
