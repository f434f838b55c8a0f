// The counting contract the rest of the engine uses. Counting is synchronous once an
// encoder is loaded; loading the ranks is the only async step and happens on first use.

import type { Message } from '../conversation/model';

export type EncodingName = 'o200k_base' | 'cl100k_base';

/** exact: the model's own tokenizer. proxy: a tiktoken encoding standing in for a model whose
 *  tokenizer we do not ship (Claude, Gemini, …). estimate: a character heuristic. */
export type CountMethod = 'exact' | 'proxy' | 'estimate';

export type TokenCategory =
  | 'system'
  | 'toolDefinitions'
  | 'user'
  | 'assistant'
  | 'toolCalls'
  | 'toolResults'
  | 'thinking'
  | 'summary'
  /** What the agent sends that the transcript does not show (its system prompt, tool definitions),
   *  from the usage it reported; never a message's. */
  | 'unseen';

export const TOKEN_CATEGORIES: readonly TokenCategory[] = [
  'system',
  'toolDefinitions',
  'user',
  'assistant',
  'toolCalls',
  'toolResults',
  'thinking',
  'summary',
  'unseen',
];

/** The categories' names in English (the CLI, the language-model tools; the extension's
 *  meter shows its own localized ones). */
export const CATEGORY_LABELS: Readonly<Record<TokenCategory, string>> = {
  system: 'System',
  toolDefinitions: 'Tool definitions',
  user: 'User',
  assistant: 'Assistant',
  toolCalls: 'Tool calls',
  toolResults: 'Tool results',
  thinking: 'Thinking',
  summary: 'Summary',
  unseen: 'Not in the file (system prompt, tools)',
};

/** A breakdown row's label (no category is ever negative: calibration.ts). */
export function categoryRowLabel(c: TokenCategory): string {
  return CATEGORY_LABELS[c];
}

export interface TextCounter {
  readonly encoding: EncodingName | 'estimate';
  count(text: string): number;
  /** The count of a text is the sum of the counts of its line parts (lineSegments.ts): true for
   *  the tiktoken encodings, whose pieces never cross those cuts. */
  readonly splitsAtLines?: boolean;
}

/** A message's tokens; read only (messages of one size and category share one object). */
export interface MessageTokens {
  readonly total: number;
  readonly byCategory: Readonly<Partial<Record<TokenCategory, number>>>;
}

export interface TokenCounter extends TextCounter {
  readonly method: CountMethod;
  /** Tokens of one message as a chat API bills it: content + per-message overhead. */
  countMessage(m: Message): number;
  /** The same, split by category (sums to countMessage). */
  countMessageByCategory(m: Message): MessageTokens;
  /** Sum over messages plus the reply-priming overhead. */
  countMessages(messages: readonly Message[]): number;
}
