// Reading an LLM's summary back into the eight sections. Models write the headings in many
// ways, so this is tolerant about everything except the names:
//   <summary> tags present or not (a missing closing tag means the reply was cut off);
//   "## Primary Request and Intent", "### 1. Primary Request and Intent",
//   "1. **Primary Request and Intent**:", "**Primary Request and Intent:**", "Primary Request and Intent:";
//   content on the heading line after the colon;
//   the Chinese names of seed 000 §2.1 (主要请求和意图 …) and bilingual headings;
//   <analysis> and reasoning models' <think> blocks are set aside first.
// A line only counts as a heading when nothing but markup, numbering, a parenthetical or a
// colon surrounds the name, so prose that starts with "Current work …" stays prose.

import { SECTION_NAMES, type SectionName } from '../sections';

export interface ParsedSummary {
  /** Text under each heading found (trimmed; '' when the heading had nothing under it). */
  sections: Partial<Record<SectionName, string>>;
  /** Headings found, in SECTION_NAMES order. */
  found: SectionName[];
  missing: SectionName[];
  /** The reply had <summary> tags. */
  tagged: boolean;
  /** <summary> opened but never closed: the reply was probably cut off. */
  unclosed: boolean;
  /** Text inside the summary before the first heading (a preamble the model added). */
  preamble: string;
  /** The reply with analysis/think blocks removed, trimmed: '' means the model said nothing. */
  body: string;
}

/** Other spellings of each name, lower case (English variants and seed 000's Chinese names). */
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
  return s
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[-_]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Alias (normalized) → section, longest first so "primary request and intent" wins over "primary request". */
const ALIAS_LIST: readonly { alias: string; name: SectionName }[] = SECTION_NAMES.flatMap((name) =>
  ALIASES[name].map((a) => ({ alias: normalizeName(a), name })),
).sort((a, b) => b.alias.length - a.alias.length);

const BLOCKS_SET_ASIDE = /<(analysis|think|thinking|reasoning)>[\s\S]*?(<\/\1>|$)/gi;
/** Markup a heading may open with: "#"s, a quote, bold/italic, numbering ("1.", "1)", "(1)", "一、", "I."). */
const HEADING_PREFIX = /^(?:#{1,6}\s*)?(?:>\s*)?(?:[*_]{1,3}\s*)?(?:(?:\(?\d{1,2}[.)、:]?\)?|[一二三四五六七八]、|[ivx]{1,4}\.)\s+|[一二三四五六七八]、)?(?:[*_]{1,3}\s*)?/i;

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

export function parseSummary(reply: string): ParsedSummary {
  const body = reply.replace(BLOCKS_SET_ASIDE, '').trim();
  const region = summaryRegion(body);
  const sections: Partial<Record<SectionName, string[]>> = {};
  const preamble: string[] = [];
  let current: SectionName | undefined;
  let inFence = false;
  for (const line of region.text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    let heading = inFence ? undefined : matchHeading(line);
    // "3. Pending tasks: …" inside a list of user messages is content: a plain heading only
    // counts the first time its section appears.
    if (heading && !heading.strong && sections[heading.name] !== undefined) heading = undefined;
    if (heading) {
      current = heading.name;
      const list = (sections[current] ??= []);
      if (heading.inline) list.push(heading.inline);
      continue;
    }
    if (current) sections[current]!.push(line);
    else preamble.push(line);
  }
  const out: Partial<Record<SectionName, string>> = {};
  const found: SectionName[] = [];
  const missing: SectionName[] = [];
  for (const name of SECTION_NAMES) {
    const lines = sections[name];
    if (lines === undefined) {
      missing.push(name);
      continue;
    }
    found.push(name);
    out[name] = trimBlankLines(lines).join('\n');
  }
  return { sections: out, found, missing, tagged: region.tagged, unclosed: region.unclosed, preamble: preamble.join('\n').trim(), body };
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
