// The names the engine and the inspector webview share: the eight section names of a summary
// and the decisions a message can get. They are defined here, where both sides may import them
// (the webview reaches the rest of the repository only through src/shared); the engine hands
// them on from sections.ts and result.ts. The names are part of the product: the LLM prompt asks
// for the sections, the parser looks for them, the inspector shows them.

export type { Role } from '../engine/conversation/model';

export const SECTION_NAMES = [
  'Primary Request and Intent',
  'Key Technical Concepts',
  'Files and Code Sections',
  'Errors and fixes',
  'Problem Solving',
  'All user messages',
  'Pending Tasks',
  'Current Work',
] as const;

export type SectionName = (typeof SECTION_NAMES)[number];

/** The fate of one original message. */
export type Decision = 'kept' | 'summarized' | 'truncated' | 'masked' | 'dropped' | 'offloaded';

export const DECISIONS: readonly Decision[] = ['kept', 'summarized', 'truncated', 'masked', 'dropped', 'offloaded'];
