// The LlmClient (src/engine/llm/llmClient.ts) over a VS Code language model (vscode.lm): the
// thin adapter the validated summarizer drives. It sends one request, streams the text back,
// and translates VS Code's errors into the engine's classified SummarizerError; prompts,
// retries, validation and fallback are the engine's, as for the OpenAI-compatible client.

import * as vscode from 'vscode';
import { cancelledError, SummarizerError, toSummarizerError } from '../engine/llm/errors';
import type { LlmClient, LlmCompletion, LlmCompletionRequest } from '../engine/llm/llmClient';

/** What VS Code shows the user when it asks for consent to use the model. */
const JUSTIFICATION = 'Context Compactor summarizes the older part of a long conversation so it fits the context window.';

function lmErrorCode(err: unknown): string | undefined {
  if (err instanceof vscode.LanguageModelError) return err.code;
  return undefined;
}

/** VS Code's language-model errors as the engine's kinds. */
export function classifyLmError(err: unknown, model: string, signal?: AbortSignal): SummarizerError {
  if (signal?.aborted || err instanceof vscode.CancellationError) return cancelledError(err);
  const message = err instanceof Error ? err.message : String(err);
  switch (lmErrorCode(err)) {
    case 'NoPermissions':
      return new SummarizerError('authentication', `VS Code did not allow Context Compactor to use ${model} (${message}). Allow it when asked, or choose another summarizer.`, { cause: err });
    case 'Blocked':
      return new SummarizerError('rateLimit', `${model} is not available right now (${message}); try again later.`, { cause: err });
    case 'NotFound':
      return new SummarizerError('badRequest', `The language model ${model} is no longer available. Pick another with "Select Summarizer and Model".`, { cause: err });
    default:
      return toSummarizerError(err, signal);
  }
}

export class VscodeLmClient implements LlmClient {
  readonly name = 'vscode-lm';

  constructor(private readonly chatModel: vscode.LanguageModelChat) {}

  get model(): string {
    return this.chatModel.id;
  }

  async complete(req: LlmCompletionRequest): Promise<LlmCompletion> {
    if (req.signal?.aborted) throw cancelledError();
    const source = new vscode.CancellationTokenSource();
    const onAbort = () => source.cancel();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // vscode.lm has no system role: the instructions lead the one user message.
      const messages = [vscode.LanguageModelChatMessage.User(`${req.system}\n\n${req.user}`)];
      const response = await this.chatModel.sendRequest(messages, { justification: JUSTIFICATION }, source.token);
      let text = '';
      for await (const chunk of response.text) {
        if (req.signal?.aborted) throw cancelledError();
        text += chunk;
        req.onDelta?.(chunk);
      }
      return { text, model: this.chatModel.id };
    } catch (err) {
      throw err instanceof SummarizerError ? err : classifyLmError(err, this.chatModel.name || this.chatModel.id, req.signal);
    } finally {
      req.signal?.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }
}

/** The chat model the vscode-lm summarizer uses: the configured id (never silently another
 *  one: models differ in cost and in where the text goes), or the first offered when none is set. */
export async function selectSummaryModel(modelId: string): Promise<vscode.LanguageModelChat | undefined> {
  const [model] = await vscode.lm.selectChatModels(modelId ? { id: modelId } : undefined);
  return model;
}
