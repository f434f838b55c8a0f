// How commands open the inspector. The panel host lives in src/extension/inspector (another
// feature module); until it is registered, "Inspect" says plainly that it is unavailable.

import * as vscode from 'vscode';
import type { InspectorLauncher } from './commands/commandDeps';
import type { ConversationService } from './conversationService';
import type { Logger } from './log';

export function registerInspectorLauncher(context: vscode.ExtensionContext, service: ConversationService, log: Logger): InspectorLauncher {
  void context;
  void service;
  return {
    show(key: string) {
      log.warn(`inspector requested for ${key}, but no inspector panel is registered in this build`);
      void vscode.window.showInformationMessage(vscode.l10n.t('The inspector is not available in this build yet.'));
    },
  };
}
