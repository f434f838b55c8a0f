// Reading a summary message back into its sections, for re-compaction (merge section by
// section, never a summary of a summary), the inspector and the LLM summarizer. Accepts what
// renderSummary.ts writes and, leniently, summaries an LLM or a person wrote: any "#"-level
// heading whose text is one of the eight names (case and trailing colon ignored) starts that
// section; text before the first heading is kept as `preamble`.

import { SECTION_NAMES, emptySectionTexts, type SectionName, type SectionTexts } from '../sections';
import { EMPTY_SECTION, METADATA_HEADING, unescapeBody } from './renderSummary';

export interface ParsedSummary {
  sections: SectionTexts;
  /** Which of the eight headings were found. */
  found: SectionName[];
  /** Text before the first recognised heading (title and lead line for our own summaries). */
  preamble: string;
  /** Compactions recorded in the metadata block, when present. */
  compactions: number | undefined;
  /** Messages summarized, from the metadata block, when present. */
  summarizedMessages: number | undefined;
}

const HEADING = /^#{1,6}[ \t]+(.+?)[ \t]*:?[ \t]*#*[ \t]*$/;
const BY_LOWER = new Map<string, SectionName | 'meta'>([
  ...SECTION_NAMES.map((n) => [n.toLowerCase(), n] as [string, SectionName]),
  [METADATA_HEADING.toLowerCase(), 'meta'],
]);

function headingName(line: string): SectionName | 'meta' | undefined {
  const m = HEADING.exec(line);
  if (!m) return undefined;
  const text = m[1]!.replace(/\*\*/g, '').replace(/^\d+[.)]\s*/, '').trim().toLowerCase();
  return BY_LOWER.get(text);
}

function metaNumber(body: string, label: string): number | undefined {
  const m = new RegExp(`^-\\s*${label}:\\s*([\\d,]+)`, 'mi').exec(body);
  return m ? Number(m[1]!.replace(/,/g, '')) : undefined;
}

export function parseSummary(markdown: string): ParsedSummary {
  const sections = emptySectionTexts();
  const found: SectionName[] = [];
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let current: SectionName | 'meta' | 'pre' = 'pre';
  const bodies = new Map<SectionName | 'meta' | 'pre', string[]>([['pre', []]]);
  let inFence = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const name = inFence ? undefined : headingName(line);
    if (name !== undefined) {
      current = name;
      if (!bodies.has(name)) bodies.set(name, []);
      if (name !== 'meta' && !found.includes(name)) found.push(name);
      continue;
    }
    bodies.get(current)!.push(line);
  }
  for (const name of SECTION_NAMES) {
    const body = unescapeBody((bodies.get(name) ?? []).join('\n')).trim();
    sections[name] = body === EMPTY_SECTION ? '' : body;
  }
  const meta = (bodies.get('meta') ?? []).join('\n');
  return {
    sections,
    found,
    preamble: (bodies.get('pre') ?? []).join('\n').trim(),
    compactions: metaNumber(meta, 'Compactions'),
    summarizedMessages: metaNumber(meta, 'Messages summarized'),
  };
}

/** Top-level list items of a section body: each starts at a column-0 "- " / "* " line and runs
 *  to the next one. Text before the first bullet is an item of its own. */
export function splitBullets(body: string): string[] {
  const out: string[] = [];
  let cur: string[] = [];
  let inFence = false;
  for (const line of body.split('\n')) {
    const fenceLine = /^\s*(```|~~~)/.test(line);
    if (!inFence && /^[-*] /.test(line) && cur.length > 0) {
      out.push(cur.join('\n').trimEnd());
      cur = [];
    }
    if (fenceLine) inFence = !inFence;
    if (cur.length === 0 && line.trim() === '') continue;
    cur.push(line);
  }
  if (cur.length > 0 && cur.join('').trim()) out.push(cur.join('\n').trimEnd());
  return out;
}

/** A bullet without its marker and with continuation lines de-indented by two spaces. */
export function bulletText(bullet: string): string {
  return bullet
    .split('\n')
    .map((l, i) => (i === 0 ? l.replace(/^[-*] /, '') : l.replace(/^ {2}/, '')))
    .join('\n');
}

/** The text of the first inline code span (`x` or `` x ``), if any. */
export function firstInlineCode(text: string): string | undefined {
  const m = /``\s(.+?)\s``|`([^`\n]+)`/.exec(text);
  return m ? (m[1] ?? m[2]) : undefined;
}
