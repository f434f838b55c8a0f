// The ids in src/extension/ids.ts and the manifest must agree in both directions: a command
// registered but not contributed never shows in the palette, a contributed one that is not
// registered fails when clicked, and a setting read but not declared has no UI.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CHAT_COMMANDS,
  CHAT_PARTICIPANT_ID,
  CHAT_PARTICIPANT_NAME,
  COMMANDS,
  CONFIG_SECTION,
  INSPECTOR_VIEW_TYPE,
  INTERNAL_COMMANDS,
  SESSION_COMMANDS,
  SESSIONS_VIEW_ID,
  SETTINGS,
  VIEW_CONTAINER_ID,
} from '../../src/extension/ids';
import { DEFAULT_SETTINGS, sessionSettingKey, type CompactorSettings } from '../../src/extension/settings';
import { AGENT_IDS, AGENT_MODULES } from '../../src/sessions/agents/registry';
import { loadedEncoding } from '../../src/engine/tokens/encoders';
import { repoRoot } from '../helpers/transcripts';
import { activateHost, type ActivatedHost } from '../fakes/extensionHost';
import { standInEngine } from '../fakes/compactionEngine';
import { fake, resetFake } from '../fakes/vscode';

interface Manifest {
  activationEvents: string[];
  contributes: {
    commands: { command: string; title: string; category: string; icon?: string }[];
    viewsContainers: { activitybar: { id: string; title: string; icon: string }[] };
    views: Record<string, { id: string; name: string }[]>;
    menus: Record<string, { command: string; when?: string; group?: string }[]>;
    configuration: { properties: Record<string, { default: unknown; enum?: string[] }> };
    chatParticipants: { id: string; name: string; isSticky: boolean; commands: { name: string }[] }[];
  };
  l10n: string;
  icon: string;
  engines: { vscode: string };
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
const nls = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
const nlsZh = JSON.parse(readFileSync(join(repoRoot, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;

function resolveNls(value: string): string {
  const m = /^%(.+)%$/.exec(value);
  return m ? nls[m[1]!]! : value;
}

describe('manifest and ids agree', () => {
  let host: ActivatedHost;
  beforeEach(() => {
    resetFake();
    host = activateHost(standInEngine());
  });
  afterEach(() => host.deactivate());

  it('contributes exactly the palette commands and the Sessions view’s, with the titles the end-to-end test types', () => {
    const contributed = manifest.contributes.commands.map((c) => c.command).sort();
    expect(contributed).toEqual([...Object.values(COMMANDS), ...Object.values(SESSION_COMMANDS)].sort());
    // The view's commands act on the row they are run on: out of the palette, but Refresh.
    const hidden = manifest.contributes.menus['commandPalette']!.filter((m) => m.when === 'false')
      .map((m) => m.command)
      .sort();
    expect(hidden).toEqual(
      Object.values(SESSION_COMMANDS)
        .filter((c) => c !== SESSION_COMMANDS.refresh)
        .sort(),
    );
    const titles = Object.fromEntries(manifest.contributes.commands.map((c) => [c.command, `${resolveNls(c.category)}: ${resolveNls(c.title)}`]));
    expect(titles).toEqual({
      'contextCompactor.openTranscript': 'Context Compactor: Open Transcript…',
      'contextCompactor.compact': 'Context Compactor: Compact Conversation',
      'contextCompactor.undo': 'Context Compactor: Undo Last Compaction',
      'contextCompactor.showUsage': 'Context Compactor: Show Context Usage',
      'contextCompactor.inspect': 'Context Compactor: Inspect Conversation',
      'contextCompactor.export': 'Context Compactor: Export Compacted Conversation',
      'contextCompactor.copySummary': 'Context Compactor: Copy Summary',
      'contextCompactor.setApiKey': 'Context Compactor: Set API Key',
      'contextCompactor.selectSummarizer': 'Context Compactor: Select Summarizer and Model',
      'contextCompactor.pinMeter': 'Context Compactor: Pin the Meter to This Conversation',
      'contextCompactor.unpinMeter': 'Context Compactor: Unpin the Meter',
      'contextCompactor.sessions.refresh': 'Context Compactor: Refresh Sessions',
      'contextCompactor.sessions.inspect': 'Context Compactor: Inspect',
      'contextCompactor.sessions.compact': 'Context Compactor: Compact…',
      'contextCompactor.sessions.resume': 'Context Compactor: Resume in Terminal',
      'contextCompactor.sessions.reveal': 'Context Compactor: Reveal File',
      'contextCompactor.sessions.pin': 'Context Compactor: Pin the Meter to This Session',
      'contextCompactor.sessions.chart': 'Context Compactor: Show Context Chart',
      'contextCompactor.installClaudeHooks': 'Context Compactor: Install Agent Hooks',
      'contextCompactor.removeClaudeHooks': 'Context Compactor: Remove Agent Hooks',
    });
  });

  it('contributes the Sessions view in its own activity-bar container, with its actions on the rows', () => {
    const [container] = manifest.contributes.viewsContainers.activitybar;
    expect(container!.id).toBe(VIEW_CONTAINER_ID);
    expect(readFileSync(join(repoRoot, container!.icon), 'utf8')).toMatch(/^<svg /);
    expect(manifest.contributes.views[VIEW_CONTAINER_ID]!.map((v) => v.id)).toEqual([SESSIONS_VIEW_ID]);
    expect(fake.treeView(SESSIONS_VIEW_ID)).toBeDefined();
    const rowMenu = manifest.contributes.menus['view/item/context']!;
    const inline = rowMenu.filter((m) => m.group?.startsWith('inline')).map((m) => m.command);
    expect(inline.sort()).toEqual([SESSION_COMMANDS.compact, SESSION_COMMANDS.inspect, SESSION_COMMANDS.resume].sort());
    const context = rowMenu.filter((m) => !m.group?.startsWith('inline')).map((m) => m.command);
    expect(context.sort()).toEqual(
      [
        SESSION_COMMANDS.compact,
        SESSION_COMMANDS.inspect,
        SESSION_COMMANDS.chart,
        SESSION_COMMANDS.resume,
        SESSION_COMMANDS.pin,
        SESSION_COMMANDS.reveal,
      ].sort(),
    );
    for (const m of rowMenu) expect(m.when).toContain(`view == ${SESSIONS_VIEW_ID}`);
    expect(manifest.contributes.menus['view/title']!.map((m) => m.command)).toEqual([SESSION_COMMANDS.refresh]);
  });

  it('registers every contributed command and the internal ones on activation, and nothing else under our prefix', () => {
    const registered = [...fake.state.commands.keys()].filter((c) => c.startsWith('contextCompactor.')).sort();
    expect(registered).toEqual([...Object.values(COMMANDS), ...Object.values(SESSION_COMMANDS), ...Object.values(INTERNAL_COMMANDS)].sort());
    // Internal commands need arguments and stay out of the palette.
    for (const id of Object.values(INTERNAL_COMMANDS)) expect(manifest.contributes.commands.map((c) => c.command)).not.toContain(id);
  });

  it('declares exactly the settings the accessor reads, with the same defaults', () => {
    const declared = Object.keys(manifest.contributes.configuration.properties).sort();
    // One sessions.* setting per agent of the registry, besides the accessor's fixed ones.
    const read = [...Object.values(SETTINGS), ...AGENT_MODULES.map(sessionSettingKey)].map((k) => `${CONFIG_SECTION}.${k}`).sort();
    expect(declared).toEqual(read);
    for (const a of AGENT_MODULES) expect(manifest.contributes.configuration.properties[`${CONFIG_SECTION}.${sessionSettingKey(a)}`]!.default, a.id).toBe(true);
    for (const [field, key] of Object.entries(SETTINGS)) {
      expect(manifest.contributes.configuration.properties[`${CONFIG_SECTION}.${key}`]!.default, key).toEqual(
        DEFAULT_SETTINGS[field as keyof CompactorSettings],
      );
    }
    expect(manifest.contributes.configuration.properties['contextCompactor.summarizer']!.enum).toEqual(['extractive', 'openai', 'vscode-lm']);
    // The Copilot tool's agent parameter offers exactly the registry's agents.
    const usageTool = (
      manifest.contributes as unknown as { languageModelTools: { name: string; inputSchema: { properties: { agent?: { enum: string[] } } } }[] }
    ).languageModelTools.find((t) => t.name === 'contextCompactor_sessionUsage');
    expect(usageTool!.inputSchema.properties.agent!.enum).toEqual([...AGENT_IDS]);
    expect(manifest.contributes.configuration.properties['contextCompactor.level']!.enum).toEqual(['light', 'normal', 'heavy', 'emergency']);
  });

  it('contributes the chat participant with its slash commands, and registers it', () => {
    const [p] = manifest.contributes.chatParticipants;
    expect(p).toMatchObject({ id: CHAT_PARTICIPANT_ID, name: CHAT_PARTICIPANT_NAME, isSticky: false });
    expect(p!.commands.map((c) => c.name)).toEqual([...CHAT_COMMANDS]);
    expect(fake.chatParticipant(CHAT_PARTICIPANT_ID)).toBeDefined();
  });

  it('activates through contributions, and after start-up (never during it) so the meter can follow the live agent session', () => {
    expect(manifest.activationEvents).not.toContain('*');
    expect(manifest.activationEvents).toContain('onStartupFinished');
    expect(manifest.activationEvents).toContain(`onWebviewPanel:${INSPECTOR_VIEW_TYPE}`);
    expect(manifest.activationEvents).toContain(`onChatParticipant:${CHAT_PARTICIPANT_ID}`);
    expect(manifest.activationEvents).toEqual(expect.arrayContaining(['onLanguage:json', 'onLanguage:jsonl', 'onLanguage:markdown']));
    expect(manifest.engines.vscode).toBe('^1.95.0');
    expect(manifest.l10n).toBe('./l10n');
    expect(readFileSync(join(repoRoot, manifest.icon)).subarray(1, 4).toString()).toBe('PNG');
  });

  it('resolves every %key% of the manifest in English and Simplified Chinese', () => {
    const keys = [...JSON.stringify(manifest).matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]!);
    expect(keys.length).toBeGreaterThan(30);
    for (const k of keys) {
      expect(nls[k], `package.nls.json: ${k}`).toBeTruthy();
      expect(nlsZh[k], `package.nls.zh-cn.json: ${k}`).toBeTruthy();
    }
    expect(Object.keys(nlsZh).sort()).toEqual(Object.keys(nls).sort());
  });

  it('loads no tokenizer while activating: the first conversation does', () => {
    expect(loadedEncoding('o200k_base')).toBeUndefined();
    expect(loadedEncoding('cl100k_base')).toBeUndefined();
    expect(fake.statusBarItem('contextCompactor.meter')!.visible).toBe(false);
  });

  it('disposes everything it registered when deactivated', () => {
    host.deactivate();
    expect([...fake.state.commands.keys()].filter((c) => c.startsWith('contextCompactor.'))).toEqual([]);
    expect(fake.statusBarItem('contextCompactor.meter')).toBeUndefined();
    expect(fake.chatParticipant(CHAT_PARTICIPANT_ID)).toBeUndefined();
    expect(fake.treeView(SESSIONS_VIEW_ID)).toBeUndefined();
    expect(fake.state.watchers.filter((w) => !w.disposed)).toEqual([]);
  });
});
