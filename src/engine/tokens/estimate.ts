// A CJK-aware estimate for models whose tokenizer we do not have:
// CJK characters / 1.5 + other characters / 4. Off by ~16% (TOKENS.md): reports label it.

import type { TextCounter } from './tokenCounter';

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\uff00-\uffef]/g;

export function estimateTokens(text: string): number {
  if (!text) return 0;
  const cjk = text.match(CJK)?.length ?? 0;
  return Math.ceil(cjk / 1.5 + (text.length - cjk) / 4);
}

export const estimateCounter: TextCounter = { encoding: 'estimate', count: estimateTokens };
