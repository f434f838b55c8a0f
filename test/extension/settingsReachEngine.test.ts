// Every engine-facing setting reaches the engine: changed through the VS Code configuration (the
// fake), read by the typed settings accessor, turned into the engine's options by the store and
// engineModules, it changes what the real engine's compaction gives for a real transcript. The
// tool limits are the selective strategy's (their documented scope), so they are changed with
// that strategy chosen; the default settings give exactly the engine's defaults.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CompactionResult } from '../../src/engine/result';
import { confirmationMessage } from '../../src/extension/compact/confirmCompaction';
import type { Compaction } from '../../src/extension/conversationService';
import { TRIGGER_HEADROOM } from '../../src/engine/compaction/request';
import { HOST_SETTLES, hostWithSharedTranscript, type ActivatedHost } from '../fakes/extensionHost';
import { fake, resetFake } from '../fakes/vscode';

const REL = 'mini-swe-agent/django__django-11138.traj.json';

let host: ActivatedHost;

beforeEach(async () => {
  resetFake();
  host = await hostWithSharedTranscript(REL);
});
afterEach(() => host.deactivate());

function set(values: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(values)) fake.setConfig(`contextCompactor.${key}`, value);
}

async function previewRun(values: Record<string, unknown> = {}): Promise<Compaction> {
  set(values);
  return host.api.store.preview(host.api.store.active()!.key);
}

async function preview(values: Record<string, unknown> = {}): Promise<CompactionResult> {
  return (await previewRun(values)).result;
}

/** What a person would see differ: the compacted conversation and its size. */
const outcome = (r: CompactionResult) => JSON.stringify({ after: r.tokensAfter, messages: r.conversation.messages, strategy: r.strategy, level: r.level });

describe('each engine-facing setting changes the compaction', () => {
  const selective = { strategy: 'selective' };
  const cases: [setting: string, base: Record<string, unknown>, changed: unknown][] = [
    ['toolResultTokens', selective, 100_000],
    ['previewTokens', selective, 40],
    ['toolArgumentTokens', selective, 1],
    ['keepRecentToolBlocks', selective, 0],
    ['offloadTokens', selective, 100_000],
    // One task, one round: keeping no round summarizes it all.
    ['keepRecentRounds', { strategy: 'summary' }, 0],
    ['strategy', {}, 'summary'],
    ['level', {}, 'emergency'],
    ['summaryMaxLength', {}, 400],
  ];
  it.each(cases)('%s', async (setting, base, changed) => {
    const before = await preview(base);
    const after = await preview({ [setting]: changed });
    expect(outcome(after)).not.toBe(outcome(before));
    // Back to the value before: the same result again (the setting alone made the difference).
    const again = await preview({ [setting]: base[setting] });
    expect(outcome(again)).toBe(outcome(before));
  });

  it('offloadTokens decides which older tool results go to the archive', async () => {
    const offloaded = (r: CompactionResult) => r.plan.filter((p) => p.decision === 'offloaded').map((p) => p.id);
    const some = await preview({ strategy: 'selective' });
    expect(offloaded(some).length).toBeGreaterThan(0);
    for (const id of offloaded(some)) expect(some.plan.find((p) => p.id === id)!.tokens).toBeGreaterThan(1000);
    expect(offloaded(await preview({ offloadTokens: 100_000 }))).toEqual([]);
  });

  it('maxContextTokens and triggerRatio: when the default result would still be over the trigger, the window is the target', async () => {
    const free = await preview();
    // 75,048 tokens; the default result (30%) is about 21k: over the trigger of a 20,000-token window.
    set({ maxContextTokens: 20_000 });
    await vi.waitFor(() => expect(host.api.store.active()!.report.window).toBe(20_000), HOST_SETTLES);
    const fitted = await preview();
    const trigger = 20_000 * 0.8;
    expect(free.tokensAfter).toBeGreaterThan(trigger);
    expect(fitted.tokensAfter).toBeLessThanOrEqual(trigger * TRIGGER_HEADROOM * 1.05);
    expect(fitted.target).toBe(Math.floor(trigger * TRIGGER_HEADROOM));
    // A lower trigger asks for less.
    const lower = await preview({ triggerRatio: 0.5 });
    expect(lower.target).toBe(Math.floor(20_000 * 0.5 * TRIGGER_HEADROOM));
    expect(lower.tokensAfter).toBeLessThan(fitted.tokensAfter);
    // Tight enough that something gives way: the confirmation says what.
    const tightRun = await previewRun({ triggerRatio: 0.1 });
    const tight = tightRun.result;
    if (tight.target === undefined) throw new Error('a tight trigger must set an explicit target');
    expect(tight.tokensAfter).toBeLessThanOrEqual(tight.target * 1.05);
    expect(tight.degradation.length).toBeGreaterThan(0);
    const shown = confirmationMessage({
      label: 'django',
      report: host.api.store.active()!.report,
      preview: tightRun,
      summarizer: 'extractive',
      summarizerIsLlm: false,
      keepRecentRounds: 2,
      triggerRatio: 0.1,
    });
    expect(shown.detail).toContain(`To fit the target of ${tight.target.toLocaleString('en')} tokens: ${tight.degradation[0]!.detail}`);
    // With room enough the engine's default target stands, as `ctxc compact` gives it.
    set({ maxContextTokens: 0, triggerRatio: 0.8 });
    await vi.waitFor(() => expect(host.api.store.active()!.report.window).not.toBe(20_000), HOST_SETTLES);
    expect((await preview()).target).toBe(free.target);
  });

  it('maxContextTokens changes the window the meter counts against', async () => {
    const window = host.api.store.active()!.report.window;
    set({ maxContextTokens: 12_345 });
    await vi.waitFor(() => expect(host.api.store.active()!.report.window).toBe(12_345), HOST_SETTLES);
    expect(window).not.toBe(12_345);
  });
});
