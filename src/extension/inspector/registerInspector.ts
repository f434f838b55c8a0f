// The inspector feature: registers the panel serializer (so an open inspector comes back after a
// reload) and returns the launcher the commands and the chat participant open it with.

import * as vscode from 'vscode';
import type { InspectorLauncher } from '../commands/commandDeps';
import type { ConversationService } from '../conversationService';
import { INSPECTOR_VIEW_TYPE } from '../ids';
import type { Logger } from '../log';
import { InspectorPanel, type InspectorDeps } from './inspectorPanel';
import { defaultCounterProvider, type CounterProvider } from './sectionCounter';

export interface InspectorOptions {
  log?: Logger;
  /** How edited sections are counted; defaults to the engine's counter for the conversation's model. */
  counters?: CounterProvider;
}

export function registerInspector(context: vscode.ExtensionContext, service: ConversationService, options: InspectorOptions = {}): InspectorLauncher {
  const deps: InspectorDeps = { extensionUri: context.extensionUri, service, counters: options.counters ?? defaultCounterProvider };
  if (options.log) deps.log = options.log;
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(INSPECTOR_VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        InspectorPanel.revive(panel, deps, state);
      },
    }),
    { dispose: () => InspectorPanel.currentPanel?.dispose() },
  );
  return {
    show(key: string) {
      InspectorPanel.createOrShow(deps, key);
    },
  };
}
