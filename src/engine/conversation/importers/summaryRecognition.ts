// A compacted conversation exported to OpenAI or Anthropic JSON and imported again must come
// back with its summary recognised as a COMPACTION_SUMMARY (re-compaction merges sections and
// never summarizes a summary). Those formats have no field for it, so the summary is recognised
// by its shape: most of the eight section headings as Markdown headings.

import { SECTION_NAMES } from '../../sections';

/** How many of the eight headings must be present: tolerant of a section an LLM left out. */
export const SUMMARY_MIN_HEADINGS = 6;

const HEADING_LINES = /^#{1,6}[ \t]+(?:\d+[.)][ \t]*)?(.+?)[ \t]*$/gm;
const NAMES = new Set(SECTION_NAMES.map((n) => n.toLowerCase()));

export function looksLikeCompactionSummary(text: string): boolean {
  if (text.length < 100 || !text.includes('#')) return false;
  const seen = new Set<string>();
  for (const m of text.matchAll(HEADING_LINES)) {
    const name = m[1]!
      .replace(/[*_:]+/g, '')
      .trim()
      .toLowerCase();
    if (NAMES.has(name)) seen.add(name);
  }
  return seen.size >= SUMMARY_MIN_HEADINGS;
}
