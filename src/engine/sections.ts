// The eight sections of a compaction summary (the names themselves are shared with the
// inspector webview: src/shared/engineNames.ts).

import { SECTION_NAMES, type SectionName } from '../shared/engineNames';

export { SECTION_NAMES, type SectionName };

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
