// "Select Summarizer and Model": extractive (offline), an OpenAI-compatible endpoint (base URL +
// model, key via Set API Key), or one of the language models VS Code offers (vscode.lm).

import * as vscode from 'vscode';
import { SETTINGS } from '../ids';
import type { SummarizerKind } from '../settings';
import type { CommandDeps } from './commandDeps';
import { setApiKeyCommand } from './apiKeyCommand';
import { notificationText } from '../notificationText';

interface KindItem extends vscode.QuickPickItem {
  summarizer: SummarizerKind;
}

interface ModelItem extends vscode.QuickPickItem {
  id: string;
}

export async function selectSummarizerCommand(deps: CommandDeps): Promise<void> {
  const current = deps.settings.current;
  const mark = (k: SummarizerKind) => (current.summarizer === k ? ` ${vscode.l10n.t('(current)')}` : '');
  const items: KindItem[] = [
    {
      summarizer: 'extractive',
      label: `extractive${mark('extractive')}`,
      detail: vscode.l10n.t('Offline and deterministic: sentences taken from the conversation itself. No key, no network.'),
    },
    {
      summarizer: 'openai',
      label: `openai${mark('openai')}`,
      detail: vscode.l10n.t('Any OpenAI-compatible endpoint: OpenAI, Azure, OpenRouter, Ollama, LM Studio, vLLM.'),
    },
    {
      summarizer: 'vscode-lm',
      label: `vscode-lm${mark('vscode-lm')}`,
      detail: vscode.l10n.t('A language model VS Code offers (e.g. Copilot), through vscode.lm.'),
    },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Select Summarizer and Model') });
  if (!picked) return;

  if (picked.summarizer === 'openai') {
    const baseUrl = await vscode.window.showInputBox({
      title: vscode.l10n.t('OpenAI-compatible endpoint'),
      prompt: vscode.l10n.t('Base URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1 (Ollama)'),
      value: current.openaiBaseUrl,
      ignoreFocusOut: true,
      validateInput: (v: string) => (/^https?:\/\/\S+$/.test(v.trim()) ? undefined : vscode.l10n.t('Enter an http(s) URL')),
    });
    if (baseUrl === undefined) return;
    const model = await vscode.window.showInputBox({
      title: vscode.l10n.t('Summarizer model'),
      prompt: vscode.l10n.t('Model name at that endpoint, e.g. gpt-4o-mini or qwen2.5-coder:7b'),
      value: current.openaiModel,
      ignoreFocusOut: true,
    });
    if (model === undefined) return;
    await deps.settings.update(SETTINGS.openaiBaseUrl, baseUrl.trim());
    await deps.settings.update(SETTINGS.openaiModel, model.trim() || current.openaiModel);
    await deps.settings.update(SETTINGS.summarizer, 'openai');
    if (!(await deps.secrets.get())) {
      const setKey = vscode.l10n.t('Set API Key');
      const choice = await vscode.window.showInformationMessage(vscode.l10n.t('No API key is set yet (local servers such as Ollama accept any key).'), setKey);
      if (choice === setKey) await setApiKeyCommand(deps);
    }
  } else if (picked.summarizer === 'vscode-lm') {
    const models = await vscode.lm.selectChatModels();
    if (models.length === 0) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'VS Code offers no language models right now (is a chat extension such as Copilot installed and signed in?). The summarizer was not changed.',
        ),
      );
      return;
    }
    const modelItems: ModelItem[] = models.map((m) => ({
      id: m.id,
      label: m.name,
      description: `${m.vendor} · ${m.family}`,
      detail: vscode.l10n.t('{0} input tokens', m.maxInputTokens),
    }));
    const model = await vscode.window.showQuickPick(modelItems, { title: vscode.l10n.t('Language model for summaries') });
    if (!model) return;
    await deps.settings.update(SETTINGS.vscodeLmModel, model.id);
    await deps.settings.update(SETTINGS.summarizer, 'vscode-lm');
  } else {
    await deps.settings.update(SETTINGS.summarizer, 'extractive');
  }
  void vscode.window.showInformationMessage(notificationText(vscode.l10n.t('Summaries now come from: {0}.', deps.summarizers.describe(deps.settings.current))));
}
