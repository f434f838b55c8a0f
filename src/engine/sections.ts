// The eight sections of a compaction summary. Their names are part of the product: the
// LLM prompt asks for them, the parser looks for them, the inspector shows them.

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

export interface Section {
  name: SectionName;
  text: string;
  tokens: number;
}

export interface Summary {
  /** Always all eight, in SECTION_NAMES order (an empty section has text ''). */
  sections: Section[];
  /** Tokens of the rendered summary message. */
  tokens: number;
}

export type SectionTexts = Record<SectionName, string>;

export function emptySectionTexts(): SectionTexts {
  const out = {} as SectionTexts;
  for (const n of SECTION_NAMES) out[n] = '';
  return out;
}
