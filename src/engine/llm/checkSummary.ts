// Whether an LLM reply is a usable summary: something was said, the eight sections are
// there, it was not cut off, it fits the limit and is shorter than what it replaces, and it states
// facts about the conversation rather than giving instructions to its reader (readerInstructions.ts).
// An endpoint's reply is untrusted: a summary that tells the next model to ignore its instructions
// is unusable however well it is formatted.
// Missing must-keep facts are not a reason to reject: merge-back restores them (cheaper and
// surer than asking again).

import { SECTION_NAMES, type SectionTexts } from '../sections';
import type { TextCounter } from '../tokens/tokenCounter';
import type { ParsedSummary } from '../segments/parseSummary';
import { renderSections } from '../segments/renderSummary';
import { readerInstructions } from './readerInstructions';

export type SummaryProblem =
  /** Nothing but whitespace (or only an analysis). */
  | 'empty'
  /** Text, but none of the eight headings. */
  | 'garbled'
  /** Some headings missing. */
  | 'missingSections'
  /** The reply hit the output limit before the summary ended. */
  | 'cutOff'
  /** Longer than the summary limit. */
  | 'tooLong'
  /** Not shorter than the messages it replaces. */
  | 'notShorter'
  /** Instructions to its reader that the conversation does not hold (an injected prompt). */
  | 'instructions';

/** Spans below this size are not held to "shorter than what it replaces": eight headings
 *  alone cost tens of tokens, and such spans are only summarized as part of a larger plan. */
export const NOT_SHORTER_MIN_SPAN_TOKENS = 300;
/** A reply that keeps at least this many sections after the retry is used, the rest of the
 *  sections coming from the extractive pass; fewer means the model did not follow the format. */
export const MIN_SECTIONS_FOR_HYBRID = 5;

export interface SummaryCheckInput {
  parsed: ParsedSummary;
  /** The provider's finish reason ('length' = cut off at the output limit). */
  finishReason?: string;
  /** Summary limit, tokens. */
  maxTokens: number;
  /** Tokens of the original messages the summary replaces (0 when not applicable, e.g. condensing). */
  replacedTokens: number;
  counter: TextCounter;
  /** What the summary is about (the transcript sent, the previous summary, the must-keep facts,
   *  the focus): phrases it holds may be repeated. Absent: not checked for reader instructions. */
  source?: string;
}

export interface SummaryCheck {
  ok: boolean;
  problems: SummaryProblem[];
  /** Tokens of the rendered sections. */
  tokens: number;
  /** One line for the retry prompt and the fallback reason. */
  detail: string;
}

export function checkSummary(input: SummaryCheckInput): SummaryCheck {
  const { parsed } = input;
  const problems: SummaryProblem[] = [];
  const details: string[] = [];
  const tokens = parsed.found.length ? input.counter.count(renderSections(parsed.sections)) : 0;

  if (!parsed.body) {
    problems.push('empty');
    details.push('the reply was empty');
  } else if (parsed.found.length === 0) {
    problems.push('garbled');
    details.push(`none of the eight section headings (${SECTION_NAMES[0]}, …) was found`);
  } else if (parsed.missing.length > 0) {
    problems.push('missingSections');
    details.push(`sections missing: ${parsed.missing.join(', ')}`);
  }
  if (input.finishReason === 'length' || (parsed.unclosed && parsed.missing.length > 0)) {
    problems.push('cutOff');
    details.push('the reply was cut off before the summary ended');
  }
  if (tokens > input.maxTokens) {
    problems.push('tooLong');
    details.push(`the summary is ${tokens} tokens, over the ${input.maxTokens}-token limit`);
  } else if (input.replacedTokens >= NOT_SHORTER_MIN_SPAN_TOKENS && tokens >= input.replacedTokens) {
    problems.push('notShorter');
    details.push(`the summary (${tokens} tokens) is not shorter than the ${input.replacedTokens} tokens it replaces`);
  }
  if (input.source !== undefined && parsed.found.length > 0) {
    const kinds = readerInstructions(renderSections(parsed.sections), input.source);
    if (kinds.length > 0) {
      problems.push('instructions');
      details.push(
        `the summary gives its reader instructions the conversation does not hold (${kinds.map((k) => k.label).join('; ')}): a summary states facts about the conversation`,
      );
    }
  }
  return { ok: problems.length === 0, problems, tokens, detail: details.join('; ') };
}

/** Sections of a reply that failed only on missing sections, completed from `fill`. */
export function completeSections(parsed: ParsedSummary, fill: Partial<SectionTexts>): SectionTexts {
  const out = {} as SectionTexts;
  for (const n of SECTION_NAMES) out[n] = parsed.found.includes(n) ? parsed.sections[n] : (fill[n] ?? '');
  return out;
}
