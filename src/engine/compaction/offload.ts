// Offload: a tool result a strategy decided 'offloaded' is replaced by a one-line placeholder
// naming an archive entry of its own (its exact JSON under a content address), written when the
// compaction is archived. The compaction's own archive entry holds the whole original as well,
// so undo is exact either way; the entry of its own lets a person or an agent fetch one output.

import type { ArchiveStore } from '../archive/archiveStore';
import type { ContentHasher } from '../archive/contentHasher';
import type { MessageDecision } from '../strategies/strategy';
import { offloadKey } from '../strategies/truncation';
import type { CompactionInput } from './input';

/** Writes the original of every offloaded message under the key its placeholder names. */
export async function writeOffloaded(
  input: CompactionInput,
  decisions: readonly MessageDecision[],
  archive: ArchiveStore,
  hasher: ContentHasher,
): Promise<void> {
  for (let i = 0; i < decisions.length; i++) {
    if (decisions[i]!.decision !== 'offloaded') continue;
    const m = input.messages[i]!;
    const key = offloadKey(m, hasher);
    const exact = JSON.stringify(m);
    const existing = await archive.get(key);
    if (existing === undefined) await archive.put(key, exact);
    else if (existing !== exact) throw new Error(`archive entry ${key} holds something else than message ${m.id}; expected its exact JSON`);
  }
}
