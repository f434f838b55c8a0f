// Every id the extension shares with package.json: commands, settings, views, the chat
// participant, context keys and storage keys. test/extension/extensionIds.test.ts checks that this module
// and the manifest agree in both directions, so a rename in one place cannot go unnoticed.

/** Commands contributed to the Command Palette (category "Context Compactor"). */
export const COMMANDS = {
  openTranscript: 'contextCompactor.openTranscript',
  compact: 'contextCompactor.compact',
  undo: 'contextCompactor.undo',
  showUsage: 'contextCompactor.showUsage',
  inspect: 'contextCompactor.inspect',
  export: 'contextCompactor.export',
  copySummary: 'contextCompactor.copySummary',
  setApiKey: 'contextCompactor.setApiKey',
  selectSummarizer: 'contextCompactor.selectSummarizer',
  installClaudeHooks: 'contextCompactor.installClaudeHooks',
  removeClaudeHooks: 'contextCompactor.removeClaudeHooks',
  /** Pins the meter to the conversation it shows (argument: a conversation key). */
  pinMeter: 'contextCompactor.pinMeter',
  unpinMeter: 'contextCompactor.unpinMeter',
} as const;

export type PaletteCommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

/** Commands that buttons run with arguments (chat buttons, the usage pick): registered, but not
 *  contributed, so they never show in the palette without the arguments they need. */
export const INTERNAL_COMMANDS = {
  /** Compact one chat session: arguments [sessionKey]. The chat participant's confirmation button. */
  compactSession: 'contextCompactor.compactSession',
  /** Undo the last compaction of one conversation: arguments [conversationKey]. */
  undoSession: 'contextCompactor.undoSession',
} as const;

/** The Sessions view's commands: contributed for its menus (title bar, inline, context menu) and
 *  run with the row they were clicked on; only Refresh Sessions shows in the palette. */
export const SESSION_COMMANDS = {
  refresh: 'contextCompactor.sessions.refresh',
  inspect: 'contextCompactor.sessions.inspect',
  compact: 'contextCompactor.sessions.compact',
  resume: 'contextCompactor.sessions.resume',
  reveal: 'contextCompactor.sessions.reveal',
  pin: 'contextCompactor.sessions.pin',
  /** The context chart of the row's session, in the inspector. */
  chart: 'contextCompactor.sessions.chart',
} as const;

/** The view container in the activity bar, and the Sessions view in it. */
export const VIEW_CONTAINER_ID = 'contextCompactor';
export const SESSIONS_VIEW_ID = 'contextCompactor.sessions';

/** The section every setting lives under. */
export const CONFIG_SECTION = 'contextCompactor';

/** Setting keys, relative to CONFIG_SECTION. */
export const SETTINGS = {
  enabled: 'enabled',
  maxContextTokens: 'maxContextTokens',
  triggerRatio: 'triggerRatio',
  keepRecentRounds: 'keepRecentRounds',
  requireConfirmation: 'requireConfirmation',
  strategy: 'strategy',
  level: 'level',
  summarizer: 'summarizer',
  openaiBaseUrl: 'openai.baseUrl',
  openaiModel: 'openai.model',
  vscodeLmModel: 'vscodeLm.model',
  summaryMaxLength: 'summaryMaxLength',
  toolArgumentTokens: 'toolArgumentTokens',
  toolResultTokens: 'toolResultTokens',
  previewTokens: 'previewTokens',
  keepRecentToolBlocks: 'keepRecentToolBlocks',
  offloadTokens: 'offloadTokens',
  model: 'model',
  follow: 'follow',
  claudeHookMaxTokens: 'claudeHook.maxTokens',
  claudeHookLoopLimit: 'claudeHook.loopLimit',
  claudeHookLoopMinutes: 'claudeHook.loopMinutes',
} as const;

export type SettingKey = (typeof SETTINGS)[keyof typeof SETTINGS];

/** The status-bar meter. */
export const METER_ID = 'contextCompactor.meter';

/** The inspector panel (owned by src/extension/inspector; the id is the manifest's). */
export const INSPECTOR_VIEW_TYPE = 'contextCompactor.inspector';

/** The chat participant, as contributed in package.json. */
export const CHAT_PARTICIPANT_ID = 'context-compactor.compactor';
export const CHAT_PARTICIPANT_NAME = 'compactor';
export const CHAT_COMMANDS = ['compact', 'usage', 'inspect', 'undo', 'export'] as const;
export type ChatCommand = (typeof CHAT_COMMANDS)[number];

/** The tools Copilot's agent mode calls (package.json languageModelTools). */
export const LM_TOOLS = {
  sessionUsage: 'contextCompactor_sessionUsage',
  compactSession: 'contextCompactor_compactSession',
} as const;

/** The MCP server definition provider (package.json mcpServerDefinitionProviders). */
export const MCP_PROVIDER_ID = 'contextCompactor.mcpServer';

/** Context keys for `when` clauses. */
export const CONTEXT_KEYS = {
  hasConversation: 'contextCompactor.hasConversation',
  canUndo: 'contextCompactor.canUndo',
} as const;

/** SecretStorage key of the OpenAI-compatible endpoint's API key. */
export const SECRET_OPENAI_API_KEY = 'contextCompactor.openai.apiKey';

/** The output channel every failure is logged to. */
export const OUTPUT_CHANNEL_NAME = 'Context Compactor';
