// All the content keyword lists (classification, technical level, actionability,
// criticality, dependency, outbound references, temporal categories) and the focus stage
// patterns, counted in one pass over a message (text/keywordMatcher.ts compileLexicon) instead
// of one pass per list: the analyzer runs on every compaction and for the inspector timeline.

import type { FocusName } from './analysis';
import { compileLexicon, type LexiconScan } from '../text/keywordMatcher';
import {
  ACTIONABLE_KEYWORDS,
  CONTENT_TYPE_KEYWORDS,
  CRITICALITY_KEYWORDS,
  DEPENDENCY_KEYWORDS,
  INFORMATIONAL_KEYWORDS,
  OUTBOUND_REFERENCE_KEYWORDS,
  TECHNICAL_LEVEL_KEYWORDS,
  TEMPORAL_KEYWORDS,
} from './contentKeywords';
import { FOCUS_STAGE_KEYWORDS } from './keywords';

const CONTENT_LISTS = {
  technical_specification: CONTENT_TYPE_KEYWORDS.technical_specification,
  code_implementation: CONTENT_TYPE_KEYWORDS.code_implementation,
  error_information: CONTENT_TYPE_KEYWORDS.error_information,
  user_interaction: CONTENT_TYPE_KEYWORDS.user_interaction,
  workflow_status: CONTENT_TYPE_KEYWORDS.workflow_status,
  documentation: CONTENT_TYPE_KEYWORDS.documentation,
  advanced: TECHNICAL_LEVEL_KEYWORDS.advanced,
  intermediate: TECHNICAL_LEVEL_KEYWORDS.intermediate,
  actionable: ACTIONABLE_KEYWORDS,
  informational: INFORMATIONAL_KEYWORDS,
  criticality: CRITICALITY_KEYWORDS,
  dependency: DEPENDENCY_KEYWORDS,
  outbound: OUTBOUND_REFERENCE_KEYWORDS,
  immediate: TEMPORAL_KEYWORDS.immediate,
  current_phase: TEMPORAL_KEYWORDS.current_phase,
  future_relevant: TEMPORAL_KEYWORDS.future_relevant,
  historical: TEMPORAL_KEYWORDS.historical,
  stage_planning: FOCUS_STAGE_KEYWORDS.planning,
  stage_implementation: FOCUS_STAGE_KEYWORDS.implementation,
  stage_testing: FOCUS_STAGE_KEYWORDS.testing,
  stage_review: FOCUS_STAGE_KEYWORDS.review,
};

export type ContentListName = keyof typeof CONTENT_LISTS;
export type ContentScan = LexiconScan<ContentListName>;

const lexicon = compileLexicon<ContentListName>(CONTENT_LISTS);

/** Scan lower-cased text once for every content list. */
export function scanContent(lower: string): ContentScan {
  return lexicon.scan(lower);
}

export function stageListName(focus: FocusName): ContentListName {
  return `stage_${focus}`;
}
