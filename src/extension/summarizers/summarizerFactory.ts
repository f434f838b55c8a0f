// Which Summarizer a compaction uses, from the contextCompactor.summarizer setting: the engine's
// extractive one (offline, the default), an OpenAI-compatible endpoint (key from SecretStorage),
// or a VS Code language model.

import type { Summarizer } from '../../engine/summarizer';
import type { CompactorSettings } from '../settings';

export interface MadeSummarizer {
  /** undefined = the engine's extractive summarizer. */
  summarizer?: Summarizer;
  /** What the confirmation and the results call it. */
  name: string;
}

export interface SummarizerFactory {
  create(settings: CompactorSettings, signal?: AbortSignal): Promise<MadeSummarizer>;
  /** The name shown before anything is created (the confirmation modal). */
  describe(settings: CompactorSettings): string;
}
