// The trigger for transcripts: reaching the trigger ratio proposes compaction once per
// crossing, through the usual confirmation; never while disabled, never again while it stays above.
import { basename } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOST_SETTLES, hostWithSharedTranscript, type ActivatedHost } from '../fakes/extensionHost';
import { fake, resetFake } from '../fakes/vscode';

const REL = 'mini-swe-agent/django__django-11138.traj.json';

describe('compaction proposal at the trigger', () => {
  let host: ActivatedHost;
  const active = () => host.api.store.active()!;
  const proposals = () => fake.messages.filter((m) => m.message.includes('Compact it?'));

  beforeEach(async () => {
    resetFake();
    host = await hostWithSharedTranscript(REL);
  });
  afterEach(() => host.deactivate());

  /** A window the conversation fills to about 85%: over the default trigger of 80%. */
  async function overTrigger(): Promise<number> {
    const window = Math.floor(active().report.total / 0.85);
    fake.setConfig('contextCompactor.maxContextTokens', window);
    await vi.waitFor(() => expect(active().report.window).toBe(window), HOST_SETTLES);
    return window;
  }

  it('proposes once when the transcript crosses the trigger; "Compact Conversation…" opens the confirmation', async () => {
    expect(proposals()).toHaveLength(0);
    fake.answers.info.push('Compact Conversation…');
    fake.answers.warning.push('Compact');
    const window = await overTrigger();
    await vi.waitFor(() => expect(active().compactions).toBe(1), HOST_SETTLES);
    const [proposal] = proposals();
    expect(proposal).toMatchObject({ kind: 'info', items: ['Compact Conversation…', 'Inspect Conversation'] });
    // Figures as a person reads them (grouped), never "200000-token".
    const total = proposal!.message.match(/\(([\d,]+) of/)?.[1];
    expect(proposal!.message).toBe(`${basename(REL)} uses 85% of its context window (${total} of ${window.toLocaleString('en')} tokens). Compact it?`);
    expect(total).toMatch(/^\d{1,3}(,\d{3})+$/);
    // The usual modal confirmation came in between.
    expect(fake.messages.some((m) => m.modal && m.message.startsWith('Compact this conversation?'))).toBe(true);
    expect(active().report.total).toBeLessThan(window * 0.8);
  });

  it('does not nag while the conversation stays above, and proposes again after it went below', async () => {
    await overTrigger();
    await vi.waitFor(() => expect(proposals()).toHaveLength(1), HOST_SETTLES);
    fake.setConfig('contextCompactor.triggerRatio', 0.75);
    fake.setConfig('contextCompactor.triggerRatio', 0.8);
    expect(proposals()).toHaveLength(1);
    fake.setConfig('contextCompactor.triggerRatio', 0.95);
    fake.setConfig('contextCompactor.triggerRatio', 0.8);
    expect(proposals()).toHaveLength(2);
    expect(active().compactions).toBe(0);
  });

  it('stays quiet when disabled', async () => {
    fake.setConfig('contextCompactor.enabled', false);
    await overTrigger();
    expect(proposals()).toHaveLength(0);
  });
});
