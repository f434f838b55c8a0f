// Reading a summary back into its eight sections — one parser, one ParsedSummary, for two
// kinds of text:
//   'rendered'  a summary message as renderSummary.ts writes it (re-compaction, the inspector,
//               the previous summary handed to an LLM) or a person edited it: a "#"-level
//               heading whose text is one of the eight names (numbering, bold and a trailing
//               colon allowed) starts that section; body lines the renderer escaped ("\#…") are
//               unescaped; "- (none)" is an empty section; the metadata block is read.
//   'reply'     an LLM's reply, whose headings come in many ways, so this is tolerant about
//               everything except the names:
//                 <summary> tags present or not (a missing closing tag means it was cut off);
//                 "## Primary Request and Intent", "### 1. Primary Request and Intent",
//                 "1. **Primary Request and Intent**:", "**Primary Request and Intent:**",
//                 "Primary Request and Intent:"; content on the heading line after the colon;
//                 the Chinese names (主要请求和意图 …) and bilingual headings;
//                 <analysis> and reasoning models' <think> blocks are set aside first.
//               A line only counts as a heading when nothing but markup, numbering, a
//               parenthetical or a colon surrounds the name, so prose that starts with
//               "Current work …" stays prose.
// Text before the first heading is kept as `preamble`. Fenced code never holds a heading.

import { SECTION_NAMES, emptySectionTexts, type SectionName, type SectionTexts } from '../sections';
import { EMPTY_SECTION, METADATA_HEADING, unescapeBody } from './renderSummary';
import { reasoningBlocks } from '../text/reasoning';

export type SummarySource = 'rendered' | 'reply';

export interface ParsedSummary {
  /** Text under each of the eight headings ('' when the heading is missing or has nothing under it). */
  sections: SectionTexts;
  /** Headings found, in SECTION_NAMES order. */
  found: SectionName[];
  missing: SectionName[];
  /** Text before the first recognised heading (title and lead line for our own summaries). */
  preamble: string;
  /** The text with analysis/think blocks removed, trimmed: '' means nothing was said. */
  body: string;
  /** The reply had <summary> tags. */
  tagged: boolean;
  /** <summary> opened but never closed: the reply was probably cut off. */
  unclosed: boolean;
  /** Compactions recorded in the metadata block, when present. */
  compactions: number | undefined;
  /** Messages summarized, from the metadata block, when present. */
  summarizedMessages: number | undefined;
}

/** Other spellings of each name, lower case (English variants and the Chinese names). */
const ALIASES: Record<SectionName, readonly string[]> = {
  'Primary Request and Intent': ['primary request and intent', 'primary requests and intent', 'primary request', '主要请求和意图', '主要请求与意图'],
  'Key Technical Concepts': ['key technical concepts', 'technical concepts', '关键技术概念'],
  'Files and Code Sections': ['files and code sections', 'files and code', 'files and code snippets', '文件和代码段落', '文件和代码片段', '文件与代码段落'],
  'Errors and fixes': ['errors and fixes', 'errors and fix', '错误和修复', '错误与修复'],
  'Problem Solving': ['problem solving', '问题解决'],
  'All user messages': ['all user messages', 'user messages', '所有用户消息'],
  'Pending Tasks': ['pending tasks', 'pending task', '待处理任务', '待办任务'],
  'Current Work': ['current work', '当前工作'],
};

function normalizeName(s: string): string {
  return s.toLowerCase().replace(/&/g, ' and ').replace(/[-_]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Alias (normalized) → section, longest first so "primary request and intent" wins over "primary request". */
const ALIAS_LIST: readonly { alias: string; name: SectionName }[] = SECTION_NAMES.flatMap((name) =>
  ALIASES[name].map((a) => ({ alias: normalizeName(a), name })),
).sort((a, b) => b.alias.length - a.alias.length);

/** A reply's own analysis block and inline reasoning, set aside before the sections are read. */
const BLOCKS_SET_ASIDE = reasoningBlocks(['analysis']);
/** Markup a heading may open with: "#"s, a quote, bold/italic, numbering ("1.", "1)", "(1)", "一、", "I."). */
const HEADING_PREFIX =
  /^(?:#{1,6}\s*)?(?:>\s*)?(?:[*_]{1,3}\s*)?(?:(?:\(?\d{1,2}[.)、:]?\)?|[一二三四五六七八]、|[ivx]{1,4}\.)\s+|[一二三四五六七八]、)?(?:[*_]{1,3}\s*)?/i;

export interface HeadingMatch {
  name: SectionName;
  /** Content on the heading line after the name (after a colon). */
  inline: string;
  /** Marked as a heading ("#" or bold), not just a name and a colon at the start of a line. */
  strong: boolean;
}

/** Whether a line is one of the eight headings; undefined for anything else. */
export function matchHeading(line: string): HeadingMatch | undefined {
  const trimmed = line.trim();
  if (!trimmed || trimmed.length > 200) return undefined;
  // List bullets are content, not headings ("- Current work: …").
  if (/^[-+•]\s/.test(trimmed) || (/^\*\s/.test(trimmed) && !/^\*\*/.test(trimmed))) return undefined;
  const afterPrefix = trimmed.replace(HEADING_PREFIX, '');
  const norm = normalizeName(afterPrefix);
  for (const { alias, name } of ALIAS_LIST) {
    if (!norm.startsWith(alias)) continue;
    const rest = restAfterAlias(afterPrefix, alias);
    if (rest === undefined) continue;
    const inline = headingTail(rest);
    if (inline === undefined) continue;
    const strong = /^#|\*\*|__/.test(trimmed);
    // "2. Pending tasks: …" in a numbered list is content: a plain numbered heading carries its own position.
    const num = /^\(?(\d{1,2})[.)、:]/.exec(trimmed);
    if (!strong && num && Number(num[1]) !== SECTION_NAMES.indexOf(name) + 1) return undefined;
    return { name, inline, strong };
  }
  return undefined;
}

/** The part of `text` after the characters that normalize to `alias`. */
function restAfterAlias(text: string, alias: string): string | undefined {
  // Walk `text` until its normalized prefix covers the alias.
  for (let i = alias.length > 0 ? 1 : 0; i <= text.length; i++) {
    const n = normalizeName(text.slice(0, i));
    if (n === alias) {
      // Do not stop inside a word ("current worker").
      const next = text.charAt(i);
      if (/[a-z0-9]/i.test(next) && /[a-z0-9]$/i.test(alias)) return undefined;
      return text.slice(i);
    }
    if (n.length > alias.length + 1) return undefined;
  }
  return undefined;
}

/** After the name: closing markup, an optional parenthetical or translation, then end or a colon. */
function headingTail(rest: string): string | undefined {
  let r = rest.replace(/^\s*[*_]{1,3}/, '');
  r = r.replace(/^\s*[(（][^)）]{0,80}[)）]/, '');
  r = r.replace(/^\s*[/|]\s*[^:：*]{1,40}/, (m) => (/[\u4e00-\u9fff]/.test(m) || /^[\s/|]*[a-z ]+$/i.test(m) ? '' : m));
  r = r.replace(/^\s*[*_]{1,3}/, '');
  const trimmed = r.trim();
  if (!trimmed || /^[#*_]+$/.test(trimmed)) return '';
  const colon = /^[:：]\s*(?:[*_]{1,3})?\s*/.exec(trimmed);
  if (colon) return trimmed.slice(colon[0].length).trim();
  return undefined;
}

/** The part of the reply that holds the summary, and what we learned on the way. */
function summaryRegion(reply: string): { text: string; tagged: boolean; unclosed: boolean } {
  const open = /<summary>/i.exec(reply);
  if (!open) return { text: reply, tagged: false, unclosed: false };
  const start = open.index + open[0].length;
  const close = /<\/summary>/i.exec(reply.slice(start));
  if (!close) return { text: reply.slice(start), tagged: true, unclosed: true };
  return { text: reply.slice(start, start + close.index), tagged: true, unclosed: false };
}

const RENDERED_HEADING = /^#{1,6}[ \t]+(.+?)[ \t]*:?[ \t]*#*[ \t]*$/;
const RENDERED_NAMES = new Map<string, SectionName | 'meta'>([
  ...SECTION_NAMES.map((n) => [n.toLowerCase(), n] as [string, SectionName]),
  [METADATA_HEADING.toLowerCase(), 'meta'],
]);

/** A heading of a rendered summary: "#"-level, one of the eight names or the metadata block. */
function renderedHeading(line: string): SectionName | 'meta' | undefined {
  const m = RENDERED_HEADING.exec(line);
  if (!m) return undefined;
  const text = m[1]!
    .replace(/\*\*/g, '')
    .replace(/^\d+[.)]\s*/, '')
    .trim()
    .toLowerCase();
  return RENDERED_NAMES.get(text);
}

function metaNumber(body: string, label: string): number | undefined {
  const m = new RegExp(`^-\\s*${label}:\\s*([\\d,]+)`, 'mi').exec(body);
  return m ? Number(m[1]!.replace(/,/g, '')) : undefined;
}

export function parseSummary(text: string, source: SummarySource = 'rendered'): ParsedSummary {
  const reply = source === 'reply';
  const body = reply ? text.replace(BLOCKS_SET_ASIDE, '').trim() : text.trim();
  const region = reply ? summaryRegion(body) : { text, tagged: false, unclosed: false };
  const bodies = new Map<SectionName | 'meta', string[]>();
  const preamble: string[] = [];
  let current: SectionName | 'meta' | undefined;
  let inFence = false;
  for (const line of region.text.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    let name: SectionName | 'meta' | undefined;
    let inline = '';
    if (!inFence && reply) {
      const heading = matchHeading(line);
      // "3. Pending tasks: …" inside a list of user messages is content: a plain heading only
      // counts the first time its section appears.
      if (heading && (heading.strong || !bodies.has(heading.name))) {
        name = heading.name;
        inline = heading.inline;
      }
    } else if (!inFence) name = renderedHeading(line);
    if (name !== undefined) {
      current = name;
      const list = bodies.get(name) ?? bodies.set(name, []).get(name)!;
      if (inline) list.push(inline);
      continue;
    }
    if (current) bodies.get(current)!.push(line);
    else preamble.push(line);
  }
  const sections = emptySectionTexts();
  const found: SectionName[] = [];
  const missing: SectionName[] = [];
  for (const name of SECTION_NAMES) {
    const lines = bodies.get(name);
    if (lines === undefined) {
      missing.push(name);
      continue;
    }
    found.push(name);
    if (reply) sections[name] = trimBlankLines(lines).join('\n');
    else {
      const b = unescapeBody(lines.join('\n')).trim();
      sections[name] = b === EMPTY_SECTION ? '' : b;
    }
  }
  const meta = (bodies.get('meta') ?? []).join('\n');
  return {
    sections,
    found,
    missing,
    preamble: preamble.join('\n').trim(),
    body,
    tagged: region.tagged,
    unclosed: region.unclosed,
    compactions: metaNumber(meta, 'Compactions'),
    summarizedMessages: metaNumber(meta, 'Messages summarized'),
  };
}

function trimBlankLines(lines: string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && !lines[a]!.trim()) a++;
  while (b > a && !lines[b - 1]!.trim()) b--;
  // Drop horizontal rules models put between sections.
  const kept = lines.slice(a, b);
  while (kept.length && /^\s*(-{3,}|\*{3,}|_{3,})\s*$/.test(kept[kept.length - 1]!)) kept.pop();
  return kept.map((l) => l.replace(/\s+$/, ''));
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
