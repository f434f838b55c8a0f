// The offline default Summarizer: the extractive sections are the summary. The compactor
// computes them for every compaction anyway (they are the floor an LLM summary is held to),
// so this summarizer returns them as they are — no network, no key, deterministic.

import type { SummarizeRequest, SummarizeResponse, Summarizer } from '../summarizer';

export const EXTRACTIVE_SUMMARIZER_NAME = 'extractive';

export const extractiveSummarizer: Summarizer = {
  name: EXTRACTIVE_SUMMARIZER_NAME,
  async summarize(req: SummarizeRequest): Promise<SummarizeResponse> {
    if (req.signal?.aborted) throw req.signal.reason ?? new Error('aborted');
    return { sections: { ...req.extractive }, durationMs: 0 };
  },
};
