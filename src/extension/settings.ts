// The one typed accessor for contextCompactor.* settings. Values are read once, checked and
// clamped here, and re-read only when onDidChangeConfiguration says our section changed, so
// every feature sees the same, valid snapshot.

import * as vscode from 'vscode';
import { REQUEST_DEFAULTS } from '../engine/compaction/request';
import { COMPACTION_DEFAULTS, type CompactionLevel } from '../engine/compactor';
import { DEFAULT_MODEL } from '../engine/tokens/modelRegistry';
import { DEFAULT_TOOL_LIMITS, type ToolLimits } from '../engine/limits';
import { LEVELS } from '../engine/strategies/levelStrategy';
import type { AgentId } from '../sessions/agentSession';
import type { AgentModule } from '../sessions/agents/agent';
import { AGENT_MODULES } from '../sessions/agents/registry';
import { HOOK_DEFAULTS } from '../sessions/claudeHook/claudeHook';
import { CONFIG_SECTION, SETTINGS } from './ids';
import { Disposable } from './lifecycle';

export type SummarizerKind = 'extractive' | 'openai' | 'vscode-lm';
export const SUMMARIZER_KINDS: readonly SummarizerKind[] = ['extractive', 'openai', 'vscode-lm'];

/** What the meter follows: `auto`, the focused transcript editor, else the agent session of this
 *  workspace that was active last; `editor`, transcripts open in editors only; `off`, only what is
 *  opened explicitly (Open Transcript…, the chat, a session's Inspect). */
export type FollowMode = 'auto' | 'editor' | 'off';
export const FOLLOW_MODES: readonly FollowMode[] = ['auto', 'editor', 'off'];

export type { CompactionLevel } from '../engine/compactor';

/** The strategy setting's value that means "whatever the engine's COMPACTION_DEFAULTS names",
 *  so the extension and `ctxc compact` agree without either repeating the other's default. */
export const ENGINE_DEFAULT_STRATEGY = 'default';

/** Every setting; the tool limits under the engine's own names (ToolLimits), so a new one cannot
 *  be left out between here and the engine. */
export interface CompactorSettings extends ToolLimits {
  enabled: boolean;
  /** Context window override; 0 = the model's own window. */
  maxContextTokens: number;
  /** Fraction of the window at which compaction is proposed (default 0.8: at 80% of the window). */
  triggerRatio: number;
  keepRecentRounds: number;
  requireConfirmation: boolean;
  /** A strategy name, or ENGINE_DEFAULT_STRATEGY. */
  strategy: string;
  level: CompactionLevel;
  summarizer: SummarizerKind;
  openaiBaseUrl: string;
  openaiModel: string;
  /** A VS Code chat model id for the vscode-lm summarizer ('' = the first model offered). */
  vscodeLmModel: string;
  /** Upper bound of the summary, in tokens. */
  summaryMaxLength: number;
  /** The counting model when a transcript does not name one. */
  model: string;
  follow: FollowMode;
  /** Whether each agent's sessions are looked for (the Sessions view, the meter's live session), by
   *  agent id: the `contextCompactor.sessions.<settingKey>` setting of each registry module. */
  sessions: Readonly<Record<AgentId, boolean>>;
  /** Claude Code hooks (written into the command the install command adds): the repair's token
   *  cap, and the loop guard's limit and window. */
  claudeHookMaxTokens: number;
  claudeHookLoopLimit: number;
  claudeHookLoopMinutes: number;
}

/** Defaults: the same values package.json declares (test/extension/settings.test.ts holds them equal); those
 *  a compaction reads are the engine's own (a setting at its default asks what no setting asks). */
export const DEFAULT_SETTINGS: Readonly<CompactorSettings> = {
  enabled: true,
  maxContextTokens: 0,
  triggerRatio: REQUEST_DEFAULTS.triggerRatio,
  keepRecentRounds: COMPACTION_DEFAULTS.keepRecentRounds,
  requireConfirmation: true,
  strategy: ENGINE_DEFAULT_STRATEGY,
  level: COMPACTION_DEFAULTS.level,
  summarizer: 'extractive',
  openaiBaseUrl: 'https://api.openai.com/v1',
  openaiModel: 'gpt-4o-mini',
  vscodeLmModel: '',
  summaryMaxLength: COMPACTION_DEFAULTS.summaryMaxTokens,
  ...DEFAULT_TOOL_LIMITS,
  model: DEFAULT_MODEL,
  follow: 'auto',
  sessions: Object.fromEntries(AGENT_MODULES.map((a) => [a.id, true])),
  claudeHookMaxTokens: HOOK_DEFAULTS.maxTokens,
  claudeHookLoopLimit: HOOK_DEFAULTS.loopLimit,
  claudeHookLoopMinutes: HOOK_DEFAULTS.loopMinutes,
};

/** Lowest and highest trigger ratio accepted: below 0.1 the meter would be red all the time, and
 *  above 1 compaction would be proposed only after the window is already exceeded. */
export const MIN_TRIGGER_RATIO = 0.1;
export const MAX_TRIGGER_RATIO = 1;
/** A summary shorter than this cannot hold eight sections. */
export const MIN_SUMMARY_TOKENS = 200;

interface ConfigReader {
  get<T>(key: string): T | undefined;
}

function num(cfg: ConfigReader, key: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = cfg.get<unknown>(key);
  if (typeof v !== 'number' || !Number.isFinite(v)) return fallback;
  return Math.min(max, Math.max(min, v));
}

function int(cfg: ConfigReader, key: string, fallback: number, min: number): number {
  return Math.floor(num(cfg, key, fallback, min));
}

function str(cfg: ConfigReader, key: string, fallback: string): string {
  const v = cfg.get<unknown>(key);
  return typeof v === 'string' ? v.trim() : fallback;
}

function bool(cfg: ConfigReader, key: string, fallback: boolean): boolean {
  const v = cfg.get<unknown>(key);
  return typeof v === 'boolean' ? v : fallback;
}

function oneOf<T extends string>(cfg: ConfigReader, key: string, allowed: readonly T[], fallback: T): T {
  const v = cfg.get<unknown>(key);
  return typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : fallback;
}

/** Reads and validates every setting; anything missing or out of range falls back or is clamped. */
export function readSettings(cfg: ConfigReader = vscode.workspace.getConfiguration(CONFIG_SECTION)): CompactorSettings {
  const d = DEFAULT_SETTINGS;
  return {
    enabled: bool(cfg, SETTINGS.enabled, d.enabled),
    maxContextTokens: int(cfg, SETTINGS.maxContextTokens, d.maxContextTokens, 0),
    triggerRatio: num(cfg, SETTINGS.triggerRatio, d.triggerRatio, MIN_TRIGGER_RATIO, MAX_TRIGGER_RATIO),
    keepRecentRounds: int(cfg, SETTINGS.keepRecentRounds, d.keepRecentRounds, 0),
    requireConfirmation: bool(cfg, SETTINGS.requireConfirmation, d.requireConfirmation),
    strategy: str(cfg, SETTINGS.strategy, d.strategy) || d.strategy,
    level: oneOf(cfg, SETTINGS.level, LEVELS, d.level),
    summarizer: oneOf(cfg, SETTINGS.summarizer, SUMMARIZER_KINDS, d.summarizer),
    openaiBaseUrl: str(cfg, SETTINGS.openaiBaseUrl, d.openaiBaseUrl) || d.openaiBaseUrl,
    openaiModel: str(cfg, SETTINGS.openaiModel, d.openaiModel) || d.openaiModel,
    vscodeLmModel: str(cfg, SETTINGS.vscodeLmModel, d.vscodeLmModel),
    summaryMaxLength: int(cfg, SETTINGS.summaryMaxLength, d.summaryMaxLength, MIN_SUMMARY_TOKENS),
    toolArgumentTokens: int(cfg, SETTINGS.toolArgumentTokens, d.toolArgumentTokens, 1),
    toolResultTokens: int(cfg, SETTINGS.toolResultTokens, d.toolResultTokens, 1),
    previewTokens: int(cfg, SETTINGS.previewTokens, d.previewTokens, 1),
    keepRecentToolBlocks: int(cfg, SETTINGS.keepRecentToolBlocks, d.keepRecentToolBlocks, 0),
    offloadTokens: int(cfg, SETTINGS.offloadTokens, d.offloadTokens, 1),
    model: str(cfg, SETTINGS.model, d.model) || d.model,
    follow: oneOf(cfg, SETTINGS.follow, FOLLOW_MODES, d.follow),
    sessions: Object.fromEntries(AGENT_MODULES.map((a) => [a.id, bool(cfg, sessionSettingKey(a), d.sessions[a.id] ?? true)])),
    claudeHookMaxTokens: int(cfg, SETTINGS.claudeHookMaxTokens, d.claudeHookMaxTokens, 1),
    claudeHookLoopLimit: int(cfg, SETTINGS.claudeHookLoopLimit, d.claudeHookLoopLimit, 1),
    claudeHookLoopMinutes: int(cfg, SETTINGS.claudeHookLoopMinutes, d.claudeHookLoopMinutes, 1),
  };
}

/** The current settings, re-read when (and only when) our section changes. */
export class SettingsStore extends Disposable {
  private snapshot: CompactorSettings;
  private readonly emitter = this._register(new vscode.EventEmitter<CompactorSettings>());
  readonly onDidChange = this.emitter.event;

  constructor() {
    super();
    this.snapshot = readSettings();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(CONFIG_SECTION)) return;
        this.snapshot = readSettings();
        this.emitter.fire(this.snapshot);
      }),
    );
  }

  get current(): CompactorSettings {
    return this.snapshot;
  }

  /** Writes one setting for the user (global target), e.g. from "Select Summarizer and Model". */
  async update(key: string, value: unknown): Promise<void> {
    await vscode.workspace.getConfiguration(CONFIG_SECTION).update(key, value, vscode.ConfigurationTarget.Global);
  }
}

/** The engine's tool limits: the settings of the same names. */
export function toolLimitsOf(s: CompactorSettings): ToolLimits {
  return {
    toolArgumentTokens: s.toolArgumentTokens,
    toolResultTokens: s.toolResultTokens,
    previewTokens: s.previewTokens,
    keepRecentToolBlocks: s.keepRecentToolBlocks,
    offloadTokens: s.offloadTokens,
  };
}

/** Which agents' sessions are looked for: the contextCompactor.sessions.* settings. */
export function sessionSourcesOf(s: CompactorSettings): Readonly<Record<AgentId, boolean>> {
  return s.sessions;
}

/** The setting (under contextCompactor) that turns an agent's sessions on and off. */
export function sessionSettingKey(agent: Pick<AgentModule, 'settingKey'>): string {
  return `sessions.${agent.settingKey}`;
}

export function registerSettings(context: vscode.ExtensionContext): SettingsStore {
  const store = new SettingsStore();
  context.subscriptions.push(store);
  return store;
}
