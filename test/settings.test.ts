// Settings are read through one typed accessor: defaults, ranges and the change filter.
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, readSettings, SettingsStore } from '../src/extension/settings';
import { fake, resetFake } from './fakes/vscode';

describe('settings accessor', () => {
  beforeEach(() => resetFake());

  it('gives the documented defaults when nothing is set', () => {
    expect(readSettings()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({ triggerRatio: 0.8, keepRecentRounds: 2, requireConfirmation: true, summarizer: 'extractive', level: 'normal', model: 'gpt-4o', maxContextTokens: 0 });
  });

  it('reads user values and clamps or rejects what is out of range', () => {
    fake.setConfig('contextCompactor.triggerRatio', 0.65);
    fake.setConfig('contextCompactor.keepRecentRounds', 4.7);
    fake.setConfig('contextCompactor.openai.baseUrl', '  http://localhost:11434/v1 ');
    expect(readSettings()).toMatchObject({ triggerRatio: 0.65, keepRecentRounds: 4, openaiBaseUrl: 'http://localhost:11434/v1' });
    fake.setConfig('contextCompactor.triggerRatio', 7);
    fake.setConfig('contextCompactor.maxContextTokens', -5);
    fake.setConfig('contextCompactor.summarizer', 'gpt-9000');
    fake.setConfig('contextCompactor.level', 'ludicrous');
    fake.setConfig('contextCompactor.requireConfirmation', 'yes');
    fake.setConfig('contextCompactor.summaryMaxLength', 10);
    fake.setConfig('contextCompactor.model', '');
    const s = readSettings();
    expect(s.triggerRatio).toBe(1);
    expect(s.maxContextTokens).toBe(0);
    expect(s.summarizer).toBe('extractive');
    expect(s.level).toBe('normal');
    expect(s.requireConfirmation).toBe(true);
    expect(s.summaryMaxLength).toBe(200);
    expect(s.model).toBe('gpt-4o');
  });

  it('re-reads only when our section changes, and tells listeners', () => {
    const store = new SettingsStore();
    const seen: number[] = [];
    store.onDidChange((s) => seen.push(s.triggerRatio));
    fake.setConfig('editor.fontSize', 20);
    expect(seen).toEqual([]);
    fake.setConfig('contextCompactor.triggerRatio', 0.5);
    expect(seen).toEqual([0.5]);
    expect(store.current.triggerRatio).toBe(0.5);
    store.dispose();
    fake.setConfig('contextCompactor.triggerRatio', 0.6);
    expect(seen).toEqual([0.5]);
  });

  it('writes a setting for the user through the configuration API', async () => {
    const store = new SettingsStore();
    await store.update('summarizer', 'vscode-lm');
    expect(store.current.summarizer).toBe('vscode-lm');
    store.dispose();
  });
});
