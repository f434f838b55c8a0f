// The one thing the LLM policy needs from a model: turn a system and a user prompt into text.
// The openai SDK client (src/summarizers/openaiClient.ts) and the VS Code language-model
// adapter (src/extension) implement it; everything else — prompt, parsing, validation,
// retries, chunking, merging with the extractive pass — is in validatedSummarizer.ts, so
// the adapters stay thin and behave the same.

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface LlmCompletionRequest {
  system: string;
  user: string;
  /** Upper bound for the reply (analysis + summary), in tokens. */
  maxTokens: number;
  signal?: AbortSignal;
  /** Longest this request may take, the whole reply included (what is left of the summary's time
   *  budget); the client's own limit applies when it is smaller. Past it the client aborts the
   *  request and throws kind 'timeout'. */
  timeoutMs?: number;
  /** Streamed text as it arrives (only clients that stream call it). */
  onDelta?: (text: string) => void;
}

export interface LlmCompletion {
  text: string;
  /** As the provider reported it; absent when it reported none. */
  usage?: LlmUsage;
  /** The model that answered, as the provider named it. */
  model?: string;
  /** 'stop', 'length', … when the provider says. 'length' means the reply was cut off. */
  finishReason?: string;
}

export interface LlmClient {
  /** 'openai', 'vscode-lm', … */
  readonly name: string;
  readonly model: string;
  /**
   * Throws a SummarizerError (errors.ts) with the failure classified; a fired signal rejects
   * with kind 'cancelled'; a request past its time limit (timeoutMs, or a stream that stalls)
   * is aborted and rejects with kind 'timeout'. Must not retry on its own: the retry policy is
   * the caller's.
   */
  complete(req: LlmCompletionRequest): Promise<LlmCompletion>;
}
