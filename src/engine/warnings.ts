// What a compaction warns about, as codes with their figures: the words are made where a warning
// is shown — warningText below in English (ctxc, the MCP server, logs), translated in the extension
// (src/extension/engineWarnings.ts). Code that acts on a warning matches its code, never its words.
// Parameters named `text`, `reason` and `problem` quote a model, a server or a transcript: untrusted.

import { formatCount } from './text/formatNumber';

export type EngineWarning =
  /** The target leaves no room: the header and pinned messages alone take `fixed` tokens. */
  | { code: 'noRoom'; target: number; fixed: number }
  /** Summarizing would not make it smaller: the conversation is left as it is. */
  | { code: 'notSmaller'; after: number; before: number }
  /** Every message is kept (header, pinned or recent): nothing to summarize. */
  | { code: 'nothingToCompact' }
  /** The summary's required content needs `floor` tokens, more than the `budget` left for it. */
  | { code: 'requiredContentOver'; floor: number; budget: number }
  /** The result is over its target. */
  | { code: 'overTarget'; after: number; target: number }
  /** Compacted this many times: summary quality may degrade. */
  | { code: 'manyCompactions'; count: number }
  /** A chat API would reject the result here (a problem the original already had). */
  | { code: 'apiShape'; api: string; messageId: string; problem: string; inOriginal: boolean }
  /** Fewer recent rounds kept than asked, to fit the room left for them. */
  | { code: 'fewerRounds'; kept: number; wanted: number; tokens: number; room: number }
  /** The most recent tool block (or message) alone is over the room: kept whole anyway. */
  | { code: 'lastKeptWhole'; what: 'toolBlock' | 'message'; tokens: number; room: number }
  /** Only the latest request and the last messages of the most recent round kept, to fit the room. */
  | { code: 'partOfRound'; messages: number; tokens: number; room: number }
  /** The LLM summary was not used (its reason), the extractive one was. */
  | { code: 'llmNotUsed'; summarizer: string; reason: string }
  /** The LLM summarizer failed (its reason), the extractive summary was used. */
  | { code: 'llmFailed'; summarizer: string; reason: string }
  /** The LLM summary names a file or a user request the conversation does not hold. */
  | { code: 'unsupportedClaim'; summarizer: string; kind: 'filePath' | 'userRequest'; section: string; text: string }
  /** … and this many more such claims (loss.unsupported lists them). */
  | { code: 'moreUnsupportedClaims'; summarizer: string; count: number };

export type WarningCode = EngineWarning['code'];

/** A warning in English. */
export function warningText(w: EngineWarning): string {
  const n = formatCount;
  switch (w.code) {
    case 'noRoom':
      return `the target of ${n(w.target)} tokens leaves no room: system prompt, tool definitions and pinned messages alone take ${n(w.fixed)}`;
    case 'notSmaller':
      return `compacting would not make this conversation smaller (${n(w.after)} ≥ ${n(w.before)} tokens); it is left as it is`;
    case 'nothingToCompact':
      return 'nothing to compact: every message is kept (header, pinned or within the recent rounds)';
    case 'requiredContentOver':
      return `the summary's required content (every user message, file and error) needs ${n(w.floor)} tokens even in its shortest forms, more than the ${n(w.budget)} the target leaves for it`;
    case 'overTarget':
      return `the result (${n(w.after)} tokens) is over the target of ${n(w.target)}`;
    case 'manyCompactions':
      return `this conversation has been compacted ${w.count} times; summary quality may degrade — consider starting a new session with the summary`;
    case 'apiShape':
      return `API shape (${w.api}): message ${w.messageId}: ${w.problem}${w.inOriginal ? ' (already in the original)' : ''}`;
    case 'fewerRounds':
      return `kept the last ${w.kept} round${w.kept > 1 ? 's' : ''} instead of ${w.wanted}: ${w.wanted} rounds take ${n(w.tokens)} tokens, over the ${n(w.room)} left for recent messages`;
    case 'lastKeptWhole':
      return `the most recent ${w.what === 'toolBlock' ? 'tool block' : 'message'} alone takes ${n(w.tokens)} tokens, over the ${n(w.room)} left for recent messages; it is kept whole anyway`;
    case 'partOfRound':
      return `kept the latest request and only the last ${w.messages} messages of the most recent round: the round takes ${n(w.tokens)} tokens, over the ${n(w.room)} left for recent messages`;
    case 'llmNotUsed':
      return `the ${w.summarizer} summary was not used (${w.reason}); the extractive summary was used`;
    case 'llmFailed':
      return `the ${w.summarizer} summarizer failed (${w.reason}); the extractive summary was used`;
    case 'unsupportedClaim':
      return `the ${w.summarizer} summary names ${w.kind === 'filePath' ? 'a file' : 'a user request'} the conversation does not hold, in ${w.section}: ${w.text}`;
    case 'moreUnsupportedClaims':
      return `the ${w.summarizer} summary makes ${w.count} more claims the conversation does not hold (loss.unsupported lists them)`;
  }
}
