// The confirmation's preview is what Compact applies: with the real engine behind the extension,
// "Compact Conversation" plans once — the preview — and Compact reuses that plan when nothing
// changed while the confirmation was open (the conversation's cache keys it on the conversation
// object and the options). A setting changed in between makes Compact plan again, with it.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { compactConversation } from '../../src/engine/compactor';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { compactionFigures } from '../../src/engine/figures';
import { hostWithSharedTranscript, type ActivatedHost } from '../fakes/extensionHost';
import { fake, resetFake } from '../fakes/vscode';

const REL = 'aider/AFI-Protocol__afi-core.aider.chat.history.md';

describe('Compact after its confirmation', () => {
  let host: ActivatedHost;
  const active = () => host.api.store.active()!;
  const cache = () => host.api.store.compactionCache(active().key)!;

  beforeEach(async () => {
    resetFake();
    host = await hostWithSharedTranscript(REL);
  });
  afterEach(() => host.deactivate());

  it('applies the plan its preview made, without planning again, and it is the plan a fresh compaction makes', async () => {
    const before = active().conversation;
    const counter = await createTokenCounter(active().model);
    const fresh = await compactConversation(before, { counter, archive: new MemoryArchive(true) });
    fake.answers.warning.push('Compact');
    await fake.command('contextCompactor.compact')!();
    expect(cache().stats).toEqual({ plans: 1, reusedPlans: 1 });
    const applied = active().lastResult!;
    // The confirmation's after is the applied result's, with what the agent sends besides the file.
    const after = compactionFigures(active().report, applied).after.total;
    expect(fake.messages.find((m) => m.modal)!.message).toContain(`→ ${after.toLocaleString('en')} tokens`);
    expect(applied.tokensAfter).toBe(fresh.tokensAfter);
    expect(applied.summary).toEqual(fresh.summary);
    expect(applied.plan).toEqual(fresh.plan);
  });

  it('plans again when a setting changed while the confirmation was open', async () => {
    fake.answers.warning.push(() => {
      fake.setConfig('contextCompactor.keepRecentRounds', 1);
      return 'Compact';
    });
    await fake.command('contextCompactor.compact')!();
    expect(cache().stats).toEqual({ plans: 2, reusedPlans: 0 });
    expect(active().compactions).toBe(1);
    const counter = await createTokenCounter(active().model);
    const undone = await host.api.store.undo(active().key);
    expect(undone).toBe(true);
    const reference = await compactConversation(active().conversation, { counter, archive: new MemoryArchive(true), keepRecentRounds: 1 });
    fake.setConfig('contextCompactor.requireConfirmation', false);
    await fake.command('contextCompactor.compact')!();
    expect(active().lastResult!.tokensAfter).toBe(reference.tokensAfter);
  });
});
