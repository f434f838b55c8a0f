// The seam between the engine and whatever writes the section texts: the extractive
// builders (default, offline), an OpenAI-compatible endpoint, or a VS Code model.

import type { Message } from './conversation/model';
import type { Fact } from './result';
import type { SectionName, SectionTexts, Summary } from './sections';

export interface SummarizeProgress {
  /** 0..1 when known. */
  fraction?: number;
  message: string;
}

export interface SummarizeRequest {
  /** The span being replaced by the summary (older history), in order. */
  messages: readonly Message[];
  /** The summary already in the conversation, when this is a re-compaction. */
  previous?: Summary;
  /** The extractive pass's sections for the same span: the floor an LLM must not fall below. */
  extractive: SectionTexts;
  /** Facts that must survive (user messages, file paths, errors, pending items). */
  mustKeep: readonly Fact[];
  /** Free-text focus ("focus on the auth bug") or a named focus. */
  focus?: string;
  /** Upper bound for the summary, in tokens. */
  maxTokens: number;
  signal?: AbortSignal;
  onProgress?: (p: SummarizeProgress) => void;
}

export interface SummarizeUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface SummarizeResponse {
  sections: SectionTexts;
  usage?: SummarizeUsage;
  model?: string;
  durationMs: number;
  retries?: number;
  /** Set when the LLM summary was not used and `sections` are the extractive ones: why, in one line. */
  fallbackReason?: string;
  /** What made it fall back: an error kind ('authentication', 'timeout', …) or a summary problem ('tooLong', …). */
  fallbackKind?: string;
  /** Sections the LLM left out that were taken from the extractive pass. */
  filledSections?: SectionName[];
}

export interface Summarizer {
  /** 'extractive' | 'openai' | 'vscode-lm' | … */
  readonly name: string;
  readonly model?: string;
  summarize(req: SummarizeRequest): Promise<SummarizeResponse>;
}
