// The LlmClient (src/engine/llm/llmClient.ts) over a VS Code language model (vscode.lm): the
// thin adapter the validated summarizer drives. It sends one request, streams the text back,
// and translates VS Code's errors into the engine's classified SummarizerError; prompts,
// retries, validation and fallback are the engine's, as for the OpenAI-compatible client.
// Each request runs under a RequestDeadline (a total, and an idle limit between chunks): a model
// whose stream stalls is cancelled and the request fails as a 'timeout', even when the model's
// iterator does not end on cancellation.

import * as vscode from 'vscode';
import { cancelledError, SummarizerError, toSummarizerError } from '../../engine/llm/errors';
import type { LlmClient, LlmCompletion, LlmCompletionRequest } from '../../engine/llm/llmClient';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_TOTAL_TIMEOUT_MS, raceAbort, RequestDeadline } from '../../summarizers/deadline';

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
      return new SummarizerError(
        'authentication',
        `VS Code did not allow Context Compactor to use ${model} (${message}). Allow it when asked, or choose another summarizer.`,
        { cause: err },
      );
    case 'Blocked':
      return new SummarizerError('rateLimit', `${model} is not available right now (${message}); try again later.`, { cause: err });
    case 'NotFound':
      return new SummarizerError('badRequest', `The language model ${model} is no longer available. Pick another with "Select Summarizer and Model".`, {
        cause: err,
      });
    default:
      return toSummarizerError(err, signal);
  }
}

export interface LmRequestLimits {
  /** Longest one request may take (default DEFAULT_TOTAL_TIMEOUT_MS). */
  totalMs?: number;
  /** Longest silence between two chunks once the reply has started (default DEFAULT_IDLE_TIMEOUT_MS). */
  idleMs?: number;
}

export class VscodeLmClient implements LlmClient {
  readonly name = 'vscode-lm';

  constructor(
    private readonly chatModel: vscode.LanguageModelChat,
    private readonly limits: LmRequestLimits = {},
  ) {}

  get model(): string {
    return this.chatModel.id;
  }

  async complete(req: LlmCompletionRequest): Promise<LlmCompletion> {
    if (req.signal?.aborted) throw cancelledError();
    const label = this.chatModel.name || this.chatModel.id;
    const deadline = new RequestDeadline({
      totalMs: Math.min(this.limits.totalMs ?? DEFAULT_TOTAL_TIMEOUT_MS, req.timeoutMs ?? Infinity),
      idleMs: this.limits.idleMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      ...(req.signal ? { signal: req.signal } : {}),
    });
    const source = new vscode.CancellationTokenSource();
    const onAbort = () => source.cancel();
    deadline.signal.addEventListener('abort', onAbort, { once: true });
    const stopped = () => (deadline.expired ? deadline.timeoutError(`The language model ${label}`) : cancelledError());
    try {
      // vscode.lm has no system role: the instructions lead the one user message.
      const messages = [vscode.LanguageModelChatMessage.User(`${req.system}\n\n${req.user}`)];
      const response = await raceAbort(
        Promise.resolve(this.chatModel.sendRequest(messages, { justification: JUSTIFICATION }, source.token)),
        deadline.signal,
        stopped,
      );
      let text = '';
      const chunks = response.text[Symbol.asyncIterator]();
      for (;;) {
        const next = await raceAbort(chunks.next(), deadline.signal, stopped);
        if (next.done) break;
        deadline.received(next.value.length);
        text += next.value;
        req.onDelta?.(next.value);
      }
      if (deadline.signal.aborted) throw stopped();
      return { text, model: this.chatModel.id };
    } catch (err) {
      if (deadline.expired) throw deadline.timeoutError(`The language model ${label}`);
      throw err instanceof SummarizerError ? err : classifyLmError(err, label, req.signal);
    } finally {
      deadline.signal.removeEventListener('abort', onAbort);
      deadline.dispose();
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
