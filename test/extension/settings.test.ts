// Settings are read through one typed accessor: defaults, ranges and the change filter.
import { beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMPACTION_DEFAULTS } from '../../src/engine/compactor';
import { DEFAULT_TOOL_LIMITS } from '../../src/engine/limits';
import { requestOptions } from '../../src/engine/compaction/request';
import { resolveOptions } from '../../src/engine/compaction/options';
import { requestFromSettings } from '../../src/extension/store/engineOptions';
import { SETTINGS } from '../../src/extension/ids';
import { DEFAULT_SETTINGS, ENGINE_DEFAULT_STRATEGY, readSettings, sessionSettingKey, SettingsStore } from '../../src/extension/settings';
import { AGENT_MODULES } from '../../src/sessions/agents/registry';
import { repoRoot } from '../helpers/transcripts';
import { fake, resetFake } from '../fakes/vscode';

describe('settings accessor', () => {
  beforeEach(() => resetFake());

  it('gives the documented defaults when nothing is set', () => {
    expect(readSettings()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({
      triggerRatio: 0.8,
      keepRecentRounds: 2,
      requireConfirmation: true,
      summarizer: 'extractive',
      level: 'normal',
      model: 'gpt-4o',
      maxContextTokens: 0,
    });
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
    fake.setConfig('contextCompactor.follow', 'sometimes');
    fake.setConfig('contextCompactor.sessions.codex', 'no');
    const s = readSettings();
    expect(s.follow).toBe('auto');
    expect(s.sessions['codex']).toBe(true);
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

describe('settings defaults and the engine defaults', () => {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default: unknown; enum?: unknown[] }> } };
  };
  const declared = (key: string) => manifest.contributes.configuration.properties[`contextCompactor.${key}`]!.default;

  it('agree with COMPACTION_DEFAULTS, so default settings compact exactly as `ctxc compact` does', () => {
    expect(declared('keepRecentRounds')).toBe(COMPACTION_DEFAULTS.keepRecentRounds);
    expect(declared('level')).toBe(COMPACTION_DEFAULTS.level);
    expect(declared('summaryMaxLength')).toBe(COMPACTION_DEFAULTS.summaryMaxTokens);
    // "default" means the engine's own default strategy, whatever it is named.
    expect(declared('strategy')).toBe(ENGINE_DEFAULT_STRATEGY);
    expect(DEFAULT_SETTINGS).toMatchObject({
      keepRecentRounds: COMPACTION_DEFAULTS.keepRecentRounds,
      level: COMPACTION_DEFAULTS.level,
      summaryMaxLength: COMPACTION_DEFAULTS.summaryMaxTokens,
      strategy: ENGINE_DEFAULT_STRATEGY,
      summarizer: 'extractive',
      model: 'gpt-4o',
    });
  });

  it('declares the same defaults in package.json as the accessor', () => {
    for (const [field, value] of Object.entries(DEFAULT_SETTINGS)) {
      if (field === 'sessions') continue;
      expect(declared(SETTINGS[field as keyof typeof SETTINGS]), field).toEqual(value);
    }
    for (const a of AGENT_MODULES) expect(declared(sessionSettingKey(a)), a.id).toBe(DEFAULT_SETTINGS.sessions[a.id]);
  });

  it('does not freeze the strategy list into the manifest: the engine’s registry grows', () => {
    expect(manifest.contributes.configuration.properties['contextCompactor.strategy']!.enum).toBeUndefined();
  });

  it("the tool-limit settings default to the engine's own tool limits, so the defaults change nothing", () => {
    for (const [name, value] of Object.entries(DEFAULT_TOOL_LIMITS)) expect(DEFAULT_SETTINGS[name as keyof typeof DEFAULT_TOOL_LIMITS], name).toBe(value);
  });

  it('the default settings ask the engine what no setting asks: the same options `ctxc compact` gets', () => {
    const run = { counter: { countMessage: () => 0 } as never, archive: {} as never };
    const report = { total: 10_000, overhead: 0, window: 128_000 };
    const fromSettings = resolveOptions(requestOptions(requestFromSettings(DEFAULT_SETTINGS), report, run));
    const fromNothing = resolveOptions(requestOptions({}, report, run));
    expect(fromSettings).toEqual(fromNothing);
    // A changed setting is asked for.
    const changed = resolveOptions(requestOptions(requestFromSettings({ ...DEFAULT_SETTINGS, toolResultTokens: 900 }), report, run));
    expect(changed.limits.tools.toolResultTokens).toBe(900);
    expect(changed.limits.tools.previewTokens).toBe(DEFAULT_TOOL_LIMITS.previewTokens);
  });
});
