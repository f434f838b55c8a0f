// Every engine-facing setting reaches the engine: changed through the VS Code configuration (the
// fake), read by the typed settings accessor, turned into the engine's options by the store and
// engineModules, it changes what the real engine's compaction gives for a real transcript. The
// tool limits are the selective strategy's (their documented scope), so they are changed with
// that strategy chosen; the default settings give exactly the engine's defaults.

import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CompactionResult } from '../src/engine/result';
import { activateHost, HOST_SETTLES, type ActivatedHost } from './fakes/extensionHost';
import { fake, resetFake } from './fakes/vscode';
import { transcriptPath } from './helpers/transcripts';

const REL = 'mini-swe-agent/django__django-11138.traj.json';

let host: ActivatedHost;

beforeEach(async () => {
  resetFake();
  const dir = mkdtempSync(join(tmpdir(), 'ctxc-settings-'));
  copyFileSync(transcriptPath(REL), join(dir, basename(REL)));
  fake.setWorkspaceRoot(dir);
  host = activateHost();
  fake.answers.quickPick.push((items) => items.find((i) => i.label === basename(REL)));
  await fake.command('contextCompactor.openTranscript')!();
  await vi.waitFor(() => expect(host.api.store.active(), 'the transcript').toBeDefined(), HOST_SETTLES);
});
afterEach(() => host.deactivate());

function set(values: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(values)) fake.setConfig(`contextCompactor.${key}`, value);
}

async function preview(values: Record<string, unknown> = {}): Promise<CompactionResult> {
  set(values);
  return host.api.store.preview(host.api.store.active()!.key);
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

  it('maxContextTokens changes the window the meter counts against', async () => {
    const window = host.api.store.active()!.report.window;
    set({ maxContextTokens: 12_345 });
    await vi.waitFor(() => expect(host.api.store.active()!.report.window).toBe(12_345), HOST_SETTLES);
    expect(window).not.toBe(12_345);
  });
});
