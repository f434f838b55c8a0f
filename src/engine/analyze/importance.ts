// Importance metrics, each 0..1:
//   criticality   = min(critical-pattern matches / CRITICALITY_SATURATION, 1) × content-type multiplier, ≤ 1
//   dependency    = min(dependency words / 2, 0.4) + min(referenced-by / 5, 0.4) + min(outbound / 3, 0.2)
//   uniqueness    = max(0, 1 − near-duplicates / 3)·0.6 + min(specific details / 10, 1)·0.4
//   actionability = label base (actionable 0.7, informational 0.4, historical 0.2)
//                   + min(actionable phrases / 5, 1)·0.3, ≤ 1   (a phrase bonus on the label)
//   overall       = 0.35·criticality + 0.25·dependency + 0.20·uniqueness + 0.20·actionability
// (numbers as in analyze/constants.ts, where they can be overridden).
// "Referenced-by" is the cross-reference detector (crossReferences.ts); "outbound" counts the
// reference words (see, above, 参见 …) plus the earlier messages this one refers back to.

import type { Actionability, ContentType } from '../result';
import { countCodeSnippets } from './classify';
import type { AnalyzeConstants } from './constants';
import type { ContentScan } from './contentScan';

const CAMEL_TERM = /\b[A-Z][a-z]+[A-Z][a-z]*\b/g;
const NUMBER = /\b\d+\b/g;

export function criticalityMultiplier(type: ContentType, c: AnalyzeConstants): number {
  switch (type) {
    case 'error_information':
      return c.CRITICALITY_MULT_ERROR_INFORMATION;
    case 'technical_specification':
      return c.CRITICALITY_MULT_TECHNICAL_SPECIFICATION;
    case 'code_implementation':
      return c.CRITICALITY_MULT_CODE_IMPLEMENTATION;
    case 'workflow_status':
      return c.CRITICALITY_MULT_WORKFLOW_STATUS;
    case 'user_interaction':
      return c.CRITICALITY_MULT_USER_INTERACTION;
    case 'documentation':
      return c.CRITICALITY_MULT_DOCUMENTATION;
    default:
      return c.CRITICALITY_MULT_GENERAL;
  }
}

export function criticality(scan: ContentScan, type: ContentType, c: AnalyzeConstants): number {
  const keyword = Math.min(scan.counts.criticality / c.CRITICALITY_SATURATION, 1);
  return Math.min(keyword * criticalityMultiplier(type, c), 1);
}

export function dependency(
  scan: { counts: Pick<ContentScan['counts'], 'dependency' | 'outbound'> },
  referencedBy: number,
  refersTo: number,
  c: AnalyzeConstants,
): number {
  const words = Math.min(scan.counts.dependency / c.DEPENDENCY_KEYWORD_SATURATION, c.DEPENDENCY_KEYWORD_CAP);
  const inbound = Math.min(referencedBy / c.DEPENDENCY_REFERENCED_SATURATION, c.DEPENDENCY_REFERENCED_CAP);
  const outbound = Math.min((scan.counts.outbound + refersTo) / c.DEPENDENCY_OUTBOUND_SATURATION, c.DEPENDENCY_OUTBOUND_CAP);
  return Math.min(words + inbound + outbound, 1);
}

/** The specific details of a text that make it unique: CamelCase terms, numbers and code.
 *  `text` is the original-case text (CamelCase terms need the capitals); `snippets` its code
 *  snippets, when the caller has counted them. */
export function uniquenessIndicators(text: string, c: AnalyzeConstants, snippets = countCodeSnippets(text)): number {
  const camel = text.match(CAMEL_TERM)?.length ?? 0;
  const numbers = text.match(NUMBER)?.length ?? 0;
  return camel + numbers + (snippets.fenced + snippets.inline) * c.UNIQUENESS_CODE_BLOCK_WEIGHT;
}

/** Uniqueness from a text's indicators (uniquenessIndicators) and its near-duplicates. */
export function uniquenessOf(indicators: number, similarCount: number, c: AnalyzeConstants): number {
  return (
    Math.max(0, 1 - similarCount / c.UNIQUENESS_SIMILAR_SATURATION) * c.UNIQUENESS_SIMILARITY_WEIGHT +
    Math.min(indicators / c.UNIQUENESS_INDICATOR_SATURATION, 1) * c.UNIQUENESS_INDICATOR_WEIGHT
  );
}

export function uniqueness(text: string, similarCount: number, c: AnalyzeConstants): number {
  return uniquenessOf(uniquenessIndicators(text, c), similarCount, c);
}

export function actionabilityScore(label: Actionability, actionableMatches: number, c: AnalyzeConstants): number {
  const base =
    label === 'actionable' ? c.ACTIONABILITY_BASE_ACTIONABLE : label === 'informational' ? c.ACTIONABILITY_BASE_INFORMATIONAL : c.ACTIONABILITY_BASE_HISTORICAL;
  return Math.min(1, base + Math.min(actionableMatches / c.ACTIONABILITY_MATCH_SATURATION, 1) * c.ACTIONABILITY_MATCH_WEIGHT);
}

export function overallImportance(m: { criticality: number; dependency: number; uniqueness: number; actionability: number }, c: AnalyzeConstants): number {
  return (
    m.criticality * c.WEIGHT_CRITICALITY + m.dependency * c.WEIGHT_DEPENDENCY + m.uniqueness * c.WEIGHT_UNIQUENESS + m.actionability * c.WEIGHT_ACTIONABILITY
  );
}
