// Content classification and information density, English and Chinese.
// Plain substring patterns would find "is" in "this"; these match whole words or stems
// (text/keywordMatcher.ts), and Chinese terms as substrings.

import { NONE, orNone } from '../conversation/messageMemo';
import type { Actionability, Classification, ContentType, TechnicalLevel } from '../result';
import { countSentences } from '../text/sentences';
import { tokenHashes, type TokenHashes } from '../text/similarity';
import type { AnalyzeConstants } from './constants';
import type { ContentScan } from './contentScan';

/** Keywords reported with a classification (the first ones found). */
const MAX_CLASSIFICATION_KEYWORDS = 12;

/** Content types in a fixed order; ties go to the earlier one. */
export const CONTENT_TYPE_ORDER: readonly Exclude<ContentType, 'general'>[] = [
  'technical_specification',
  'code_implementation',
  'error_information',
  'user_interaction',
  'workflow_status',
  'documentation',
];

const CAMEL_TERM = /\b[A-Z][a-z]+[A-Z][a-z]*\b/g;
const FENCED_CODE = /```[\s\S]*?```/g;
const INLINE_CODE = /(?<!`)`[^`\n]+`(?!`)/g;

/** Raw pattern score per content type (before picking the best). */
export type ContentTypeScores = Record<Exclude<ContentType, 'general'>, number>;

/** Facts about the structure of a message that sharpen classification. */
export interface ClassifyHints {
  /** Error signatures found in it (analyze/refs.ts). */
  errorSignatures: number;
  /** A tool result flagged as an error. */
  isErrorResult: boolean;
  /** Fenced code blocks, diffs and file-editing tool calls. */
  codeBlocks: number;
}

export interface ClassifyDetail {
  classification: Classification;
  actionableMatches: number;
  scores: ContentTypeScores;
}

/**
 * Classify one message's text. `tokens` are the token hashes of its lower-cased form and `scan`
 * its content-list counts (analyze/contentScan.ts), computed once and shared with other metrics.
 */
export function classifyText(text: string, tokens: TokenHashes, scan: ContentScan, hints: ClassifyHints, c: AnalyzeConstants): ClassifyDetail {
  const scores = {} as ContentTypeScores;
  let best: ContentType = 'general';
  let bestScore = 0;
  for (const type of CONTENT_TYPE_ORDER) {
    let score = scan.counts[type];
    if (type === 'error_information') {
      score += (hints.errorSignatures + (hints.isErrorResult ? 1 : 0)) * c.CLASSIFY_ERROR_SIGNATURE_WEIGHT;
    } else if (type === 'code_implementation') {
      score += hints.codeBlocks * c.CLASSIFY_CODE_BLOCK_WEIGHT;
    }
    scores[type] = score;
    if (score > bestScore) {
      bestScore = score;
      best = type;
    }
  }
  const bestKeywords = best === 'general' ? NONE : orNone(scan.matches(best).slice(0, MAX_CLASSIFICATION_KEYWORDS));
  const confidence = best === 'general' ? c.CLASSIFY_GENERAL_CONFIDENCE : Math.min(bestScore / c.CLASSIFY_CONFIDENCE_SATURATION, 1);

  const technicalLevel: TechnicalLevel = scan.has('advanced') ? 'advanced' : scan.has('intermediate') ? 'intermediate' : 'basic';

  const actionableMatches = scan.counts.actionable;
  const informationalMatches = scan.counts.informational;
  const actionability: Actionability = actionableMatches > informationalMatches ? 'actionable' : informationalMatches > 0 ? 'informational' : 'historical';

  const sample = text.length > c.DENSITY_SAMPLE_CHARS ? tokenHashes(text.slice(0, c.DENSITY_SAMPLE_CHARS).toLowerCase()) : tokens;
  const density = informationDensity(text, sample, best, technicalLevel, c);
  return {
    classification: { contentType: best, confidence, keywords: bestKeywords, technicalLevel, actionability, density },
    actionableMatches,
    scores,
  };
}

function typeDensityMultiplier(type: ContentType, c: AnalyzeConstants): number {
  switch (type) {
    case 'technical_specification':
      return c.DENSITY_MULT_TECHNICAL_SPECIFICATION;
    case 'code_implementation':
      return c.DENSITY_MULT_CODE_IMPLEMENTATION;
    case 'error_information':
      return c.DENSITY_MULT_ERROR_INFORMATION;
    case 'user_interaction':
      return c.DENSITY_MULT_USER_INTERACTION;
    case 'workflow_status':
      return c.DENSITY_MULT_WORKFLOW_STATUS;
    case 'documentation':
      return c.DENSITY_MULT_DOCUMENTATION;
    default:
      return c.DENSITY_MULT_GENERAL;
  }
}

function levelDensityMultiplier(level: TechnicalLevel, c: AnalyzeConstants): number {
  return level === 'advanced' ? c.DENSITY_MULT_ADVANCED : level === 'intermediate' ? c.DENSITY_MULT_INTERMEDIATE : c.DENSITY_MULT_BASIC;
}

/** Number of code snippets: fenced blocks plus inline `code` spans outside them. */
export function countCodeSnippets(text: string): { fenced: number; inline: number } {
  if (!text.includes('`')) return { fenced: 0, inline: 0 };
  const fenced = text.match(FENCED_CODE)?.length ?? 0;
  const rest = fenced > 0 ? text.replace(FENCED_CODE, ' ') : text;
  return { fenced, inline: rest.match(INLINE_CODE)?.length ?? 0 };
}

/**
 * (vocabulary diversity·0.3 + sentence complexity·0.3 + technical density·0.4)
 * × content-type multiplier × technical-level multiplier, capped at 1.
 * Words: English words plus CJK characters / CJK_CHARS_PER_WORD (Chinese has no spaces);
 * diversity is distinct tokens / tokens, a token being an English word or a CJK character.
 * Technical density is capped at 1 so one dense line cannot dominate. Long texts are measured
 * on their first DENSITY_SAMPLE_CHARS (`tokens` must then be of that sample too).
 */
export function informationDensity(text: string, tokens: TokenHashes, type: ContentType, level: TechnicalLevel, c: AnalyzeConstants): number {
  if (text.length > c.DENSITY_SAMPLE_CHARS) text = text.slice(0, c.DENSITY_SAMPLE_CHARS);
  if (!text.trim()) return 0;
  const words = tokens.words + tokens.cjk / c.CJK_CHARS_PER_WORD;
  if (words === 0 || tokens.ids.length === 0) return 0;
  const diversity = new Set(tokens.ids).size / tokens.ids.length;
  const sentences = Math.max(1, countSentences(text));
  const complexity = Math.min(words / sentences / c.DENSITY_SENTENCE_WORDS, 1);
  const camel = text.match(CAMEL_TERM)?.length ?? 0;
  const snippets = countCodeSnippets(text);
  const technical = Math.min((camel + (snippets.fenced + snippets.inline) * c.DENSITY_CODE_SNIPPET_WEIGHT) / words, 1);
  const base = diversity * c.DENSITY_DIVERSITY_WEIGHT + complexity * c.DENSITY_COMPLEXITY_WEIGHT + technical * c.DENSITY_TECHNICAL_WEIGHT;
  return Math.min(base * typeDensityMultiplier(type, c) * levelDensityMultiplier(level, c), 1);
}
