// The inspector feature: registers the panel serializer (so an open inspector comes back after a
// reload) and returns the launcher the commands and the chat participant open it with.

import * as vscode from 'vscode';
import type { InspectorLauncher } from '../commands/commandDeps';
import type { ConversationService } from '../conversationService';
import { INSPECTOR_VIEW_TYPE } from '../ids';
import type { Logger } from '../log';
import { InspectorPanel, type InspectorDeps } from './inspectorPanel';
import { defaultCounterProvider, type CounterProvider } from './sectionCounter';
import type { HistoryProvider } from './contextHistory';

export interface InspectorOptions {
  log?: Logger;
  /** How edited sections are counted; defaults to the engine's counter for the conversation's model. */
  counters?: CounterProvider;
  /** The context over time of a conversation (the chart). */
  history?: HistoryProvider;
  /** Why nothing can be offloaded in a conversation, when nothing can. */
  offloadNote?: (key: string) => string | undefined;
}

/** Why an agent session's tool results cannot be offloaded alone. */
export function offloadElsewhereNote(): string {
  return vscode.l10n.t(
    'A compaction of an agent session is written as a new session, which starts with a summary: to take a tool result out, compact up to a message after it.',
  );
}

export function registerInspector(context: vscode.ExtensionContext, service: ConversationService, options: InspectorOptions = {}): InspectorLauncher {
  const deps: InspectorDeps = {
    extensionUri: context.extensionUri,
    service,
    counters: options.counters ?? defaultCounterProvider,
    ...(options.log ? { log: options.log } : {}),
    ...(options.history ? { history: options.history } : {}),
    ...(options.offloadNote ? { offloadNote: options.offloadNote } : {}),
  };
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(INSPECTOR_VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        InspectorPanel.revive(panel, deps, state);
      },
    }),
    { dispose: () => InspectorPanel.currentPanel?.dispose() },
  );
  return {
    show(key: string, reveal?: 'chart') {
      InspectorPanel.createOrShow(deps, key, reveal);
    },
  };
}
