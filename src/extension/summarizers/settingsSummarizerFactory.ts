// The SummarizerFactory the extension uses: reads contextCompactor.summarizer and builds the
// matching Summarizer — nothing for extractive (the engine's own), the OpenAI-compatible client
// with the key from SecretStorage, or a VS Code language model through vscode.lm. Both LLM
// kinds go through the engine's validated summarizer: prompt, parsing, checks, retries,
// merge-back of missing facts and fallback to the extractive sections are the same for both.

import * as vscode from 'vscode';
import type { LlmClient } from '../../engine/llm/llmClient';
import { createBudgetedSummarizer, DEFAULT_TOTAL_TIMEOUT_MS } from '../../summarizers/deadline';
import { createOpenAiClient } from '../../summarizers/openaiClient';
import type { Logger } from '../log';
import { UserFacingError } from '../log';
import type { ApiKeyStore } from '../secrets';
import type { CompactorSettings } from '../settings';
import { selectSummaryModel, VscodeLmClient } from './vscodeLmClient';
import type { MadeSummarizer, SummarizerFactory } from './summarizerFactory';

/** Local servers (Ollama, LM Studio, vLLM) accept any key but the SDK wants one. */
const LOCAL_PLACEHOLDER_KEY = 'local';

export function isLocalEndpoint(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}

export interface LlmClientMakers {
  openai: (opts: { baseURL: string; apiKey: string; model: string }) => LlmClient;
  vscodeLm: (modelId: string) => Promise<{ client: LlmClient; contextWindow: number; label: string } | undefined>;
}

const defaultMakers: LlmClientMakers = {
  openai: (opts) => createOpenAiClient(opts),
  async vscodeLm(modelId) {
    const model = await selectSummaryModel(modelId);
    return model ? { client: new VscodeLmClient(model), contextWindow: model.maxInputTokens, label: model.name || model.id } : undefined;
  },
};

export class SettingsSummarizerFactory implements SummarizerFactory {
  constructor(
    private readonly secrets: ApiKeyStore,
    private readonly log: Logger,
    private readonly makers: LlmClientMakers = defaultMakers,
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

  async create(s: CompactorSettings): Promise<MadeSummarizer> {
    switch (s.summarizer) {
      case 'extractive':
        return { name: 'extractive' };
      case 'openai': {
        const stored = await this.secrets.get();
        if (!stored && !isLocalEndpoint(s.openaiBaseUrl)) {
          throw new UserFacingError(
            vscode.l10n.t('No API key is set for {0}. Run "Context Compactor: Set API Key", or choose the extractive summarizer.', s.openaiBaseUrl),
          );
        }
        const client = this.makers.openai({ baseURL: s.openaiBaseUrl, apiKey: stored || LOCAL_PLACEHOLDER_KEY, model: s.openaiModel });
        this.log.info(`summarizing with ${s.openaiModel} at ${s.openaiBaseUrl}`);
        return {
          summarizer: createBudgetedSummarizer(client, { clock: Date.now, name: 'openai' }, { totalMs: DEFAULT_TOTAL_TIMEOUT_MS }),
          name: this.describe(s),
        };
      }
      case 'vscode-lm': {
        const made = await this.makers.vscodeLm(s.vscodeLmModel);
        if (!made) {
          throw new UserFacingError(
            s.vscodeLmModel
              ? vscode.l10n.t('The language model {0} is not available. Pick another with "Select Summarizer and Model".', s.vscodeLmModel)
              : vscode.l10n.t('VS Code offers no language models right now. Install and sign in to a chat extension, or choose another summarizer.'),
          );
        }
        this.log.info(`summarizing with the VS Code language model ${made.label}`);
        return {
          summarizer: createBudgetedSummarizer(
            made.client,
            { clock: Date.now, contextWindow: made.contextWindow, name: 'vscode-lm' },
            { totalMs: DEFAULT_TOTAL_TIMEOUT_MS },
          ),
          name: `vscode-lm (${made.label})`,
        };
      }
    }
  }
}

export function registerSummarizers(_context: vscode.ExtensionContext, secrets: ApiKeyStore, log: Logger): SummarizerFactory {
  return new SettingsSummarizerFactory(secrets, log);
}
