// After an LLM compaction fell back to the extractive summary, the store does not ask the same
// summarizer again at once: for two minutes (then 4, 8, … at most 30 after further failures)
// compactions use the extractive summary and say why; a summary that was used ends the
// cooldown, and other summarizer settings start afresh. The real engine runs; the summarizer and
// the clock are stand-ins.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import type { SummarizeResponse, Summarizer } from '../../src/engine/summarizer';
import { ConversationStore } from '../../src/extension/conversationStore';
import { createEngine } from '../../src/extension/engineModules';
import { ConversationStateStore } from '../../src/extension/persistence/conversationStateStore';
import { SettingsStore } from '../../src/extension/settings';
import { LLM_COOLDOWN } from '../../src/extension/store/llmCooldown';
import type { SummarizerFactory } from '../../src/extension/summarizers/summarizerFactory';
import { codingSession } from '../helpers/compactorFixtures';
import { resetFake } from '../fakes/vscode';
import { warningText } from '../../src/engine/warnings';

const log = { info() {}, warn() {}, error() {}, show() {} };

/** An LLM stand-in: each call takes the next behaviour (fail by throwing, or answer). */
function scriptedLlm(): { summarizer: Summarizer; calls: number; next: ('fail' | 'ok')[] } {
  const state = { calls: 0, next: [] as ('fail' | 'ok')[] };
  const summarizer: Summarizer = {
    name: 'openai',
    model: 'fake-1',
    async summarize(req): Promise<SummarizeResponse> {
      state.calls++;
      if ((state.next.shift() ?? 'ok') === 'fail') throw new Error('connect ECONNREFUSED 127.0.0.1:11434');
      return { sections: { ...req.extractive, 'Current Work': 'Written by the LLM.' }, durationMs: 1 };
    },
  };
  return Object.assign(state, { summarizer });
}

let now = 0;
let llm: ReturnType<typeof scriptedLlm>;
let name: string;
let store: ConversationStore;
let settings: SettingsStore;
const KEY = 'file:///work/session.json';

beforeAll(() => resetFake());
beforeEach(async () => {
  resetFake();
  now = 1_000_000;
  llm = scriptedLlm();
  name = 'openai (fake-1 at localhost)';
  const summarizers: SummarizerFactory = { create: async () => ({ summarizer: llm.summarizer, name }), describe: () => name };
  settings = new SettingsStore();
  store = new ConversationStore({
    engine: createEngine(),
    settings,
    log,
    archive: new MemoryArchive(),
    states: new ConversationStateStore(join(mkdtempSync(join(tmpdir(), 'ctxc-cooldown-')), 'states')),
    summarizers,
    now: () => '2026-01-01T00:00:00.000Z',
    clock: () => now,
  });
  await store.upsertSource(KEY, codingSession(200), { label: 'session.json', kind: 'transcript' });
});
afterEach(() => {
  store.dispose();
  settings.dispose();
});

/** One compaction, undone again so the next one starts from the same conversation. */
async function compactOnce() {
  const { result } = await store.apply(KEY);
  await store.undo(KEY);
  return result;
}

describe('the LLM cooldown', () => {
  it('after a failure the next compaction does not call the LLM, says why, and the one after the wait does', async () => {
    llm.next.push('fail');
    const failed = await compactOnce();
    expect(llm.calls).toBe(1);
    expect(failed.summarizer.fallbackReason).toMatch(/ECONNREFUSED/);

    now += LLM_COOLDOWN.wait - 1;
    const cooling = await compactOnce();
    expect(llm.calls).toBe(1);
    expect(cooling.summarizer.fallbackReason).toBe(`${name} failed on the last try; it is tried again in 1 minute`);
    expect(cooling.warnings.map(warningText).join('\n')).toContain('the extractive summary was used');
    expect(cooling.summary.sections.find((s) => s.name === 'Current Work')!.text).not.toBe('Written by the LLM.');

    now += 1;
    const used = await compactOnce();
    expect(llm.calls).toBe(2);
    expect(used.summarizer.fallbackReason).toBeUndefined();
    expect(used.summary.sections.find((s) => s.name === 'Current Work')!.text).toBe('Written by the LLM.');
  });

  it('failures in a row double the wait; a used summary ends the cooldown', async () => {
    llm.next.push('fail', 'fail');
    await compactOnce();
    now += LLM_COOLDOWN.wait;
    await compactOnce();
    expect(llm.calls).toBe(2);
    now += 2 * LLM_COOLDOWN.wait - 1;
    expect((await compactOnce()).summarizer.fallbackReason).toMatch(/failed 2 times in a row/);
    expect(llm.calls).toBe(2);
    now += 1;
    await compactOnce();
    expect(llm.calls).toBe(3);
    // Success: the next failure starts from the first wait again.
    llm.next.push('fail');
    await compactOnce();
    now += LLM_COOLDOWN.wait;
    await compactOnce();
    expect(llm.calls).toBe(5);
  });

  it('other summarizer settings are tried at once', async () => {
    llm.next.push('fail');
    await compactOnce();
    name = 'openai (another-model at localhost)';
    await compactOnce();
    expect(llm.calls).toBe(2);
  });
});
