// Live token counts for edited summary sections. The webview cannot run the tokenizer cheaply
// (rank tables are megabytes), so it asks the host, which counts with the same counter the
// conversation is measured with.

import type { SectionName } from '../../engine/sections';
import type { TextCounter } from '../../engine/tokens/tokenCounter';
import { createTokenCounter } from '../../engine/tokens/messageCounter';
import type { SectionEdits } from '../../shared/protocol';

export interface CountingCounter extends TextCounter {
  readonly method: 'exact' | 'proxy' | 'estimate';
}

/** Returns the counter for a model; the encoders behind it are loaded once per process. */
export type CounterProvider = (model: string) => Promise<CountingCounter>;

export const defaultCounterProvider: CounterProvider = (model) => createTokenCounter(model);

export async function countSections(provider: CounterProvider, model: string, sections: SectionEdits): Promise<Partial<Record<SectionName, number>>> {
  const counter = await provider(model);
  const out: Partial<Record<SectionName, number>> = {};
  for (const [name, text] of Object.entries(sections) as [SectionName, string][]) out[name] = text ? counter.count(text) : 0;
  return out;
}
