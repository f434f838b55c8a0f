// Extension entry: wires the feature modules together, one register…(context) call each.
// Activation does no counting and loads no tokenizer: the first transcript or chat request does.

import type * as vscode from 'vscode';
import type { CompactionEngine } from './extension/compactionEngine';
import { registerAgents } from './extension/agents/registerAgents';
import { registerChatParticipant } from './extension/chat/chatParticipant';
import type { InspectorLauncher } from './extension/commands/commandDeps';
import { registerCommands } from './extension/commands/registerCommands';
import { registerContextKeys } from './extension/contextKeys';
import type { ConversationStore } from './extension/conversationStore';
import { registerConversationStore } from './extension/conversationStore';
import { createEngine } from './extension/engineModules';
import { contextHistoryProvider } from './extension/inspector/contextHistory';
import { offloadElsewhereNote, registerInspector } from './extension/inspector/registerInspector';
import { registerLog } from './extension/log';
import { registerMeterFocus, type MeterFocus } from './extension/meter/meterFocus';
import { registerCompactionProposal } from './extension/compact/compactionProposal';
import { registerSecrets } from './extension/secrets';
import { registerSessions } from './extension/sessions/registerSessions';
import { registerSettings } from './extension/settings';
import { registerMeter } from './extension/meter/meter';
import { registerSummarizers } from './extension/summarizers/settingsSummarizerFactory';
import { registerTranscriptTracking } from './extension/transcripts/transcriptTracker';

/** What activate returns: the conversation store (for the end-to-end test and other extensions). */
export interface ContextCompactorApi {
  store: ConversationStore;
  inspector: InspectorLauncher;
  /** What the meter shows, and its pin. */
  focus: MeterFocus;
}

export function activate(context: vscode.ExtensionContext, engine: CompactionEngine = createEngine()): ContextCompactorApi {
  const began = Date.now();
  const log = registerLog(context);
  const settings = registerSettings(context);
  const secrets = registerSecrets(context);
  const summarizers = registerSummarizers(context, secrets, log);
  const store = registerConversationStore(context, { engine, settings, log, summarizers });
  const focus = registerMeterFocus(context, store, log);
  const tracker = registerTranscriptTracking(context, store, focus, engine, log, () => settings.current.follow !== 'off');
  const inspector = registerInspector(context, store, {
    log,
    history: contextHistoryProvider(store, settings),
    offloadNote: (key) => (store.applyElsewhere(key) ? offloadElsewhereNote() : undefined),
  });
  const deps = { store, engine, settings, log, tracker, summarizers, secrets, inspector, focus };
  registerCommands(context, deps);
  registerSessions(context, deps);
  registerMeter(context, store, settings, focus, { log, since: began });
  registerCompactionProposal(context, store, settings);
  registerContextKeys(context, store);
  registerChatParticipant(context, deps);
  registerAgents(context, { settings, log });
  log.info(`activated in ${Date.now() - began} ms`);
  return { store, inspector, focus };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
