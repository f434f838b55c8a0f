// "Set API Key": the OpenAI-compatible endpoint's key into SecretStorage. An empty entry removes
// it. The key is never shown, logged or written anywhere else.

import * as vscode from 'vscode';
import type { CommandDeps } from './commandDeps';

export async function setApiKeyCommand(deps: CommandDeps): Promise<void> {
  const existing = await deps.secrets.get();
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('Context Compactor: API Key'),
    prompt: vscode.l10n.t(
      'API key for {0} (stored in the OS keychain through VS Code SecretStorage). Leave empty to remove it.',
      deps.settings.current.openaiBaseUrl,
    ),
    placeHolder: existing ? vscode.l10n.t('A key is set; enter a new one to replace it') : 'sk-…',
    password: true,
    ignoreFocusOut: true,
  });
  if (value === undefined) return;
  const trimmed = value.trim();
  if (!trimmed) {
    await deps.secrets.clear();
    deps.log.info('API key removed');
    void vscode.window.showInformationMessage(vscode.l10n.t('API key removed.'));
    return;
  }
  await deps.secrets.set(trimmed);
  deps.log.info('API key stored in SecretStorage');
  void vscode.window.showInformationMessage(vscode.l10n.t('API key saved.'));
}
