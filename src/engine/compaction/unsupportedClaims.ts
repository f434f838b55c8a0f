// What an LLM summary says that the conversation does not show. "All user messages" is rebuilt
// from the conversation's own user messages (an LLM may not add to it); in every other section,
// a line that names a user request or a file path the conversation does not hold is flagged:
//   a user request: a line labelled as someone's message ("User: …", "INJECTED-USER: …") or one
//     that says what the user asked, wanted, said or told ("the user asked to …", 用户要求 …);
//     it is held when at least half of its subject words (by their first PREFIX_CHARS letters)
//     are in what the user wrote;
//   a file path: held when the conversation names it, or a path it names ends with it (or it
//     ends with one of them: "login.ts" for "src/login.ts" and the other way round).
// Only flagged, never removed: the loss report and the inspector show them to a person.

import { extractFilePaths, extractToolCallPaths, normalizeFilePath } from '../analyze/refs';
import { messageText, type Message } from '../conversation/model';
import type { UnsupportedClaim } from '../result';
import { parseSummary } from '../segments/parseSummary';
import { SECTION_NAMES, type SectionName, type SectionTexts } from '../sections';
import { contentTerms } from '../text/terms';

export const USER_SECTION: SectionName = 'All user messages';
/** A claim is shown cut to this many characters. */
export const UNSUPPORTED_CLAIM_CHARS = 200;
/** Words are compared by their first this-many letters ("failing" and "failure" agree). */
const PREFIX_CHARS = 5;
/** Share of a request's subject words that must be in the user's own words. */
const HELD_SHARE = 0.5;
/** Most paths read from the conversation (a real session names a few thousand at most). */
const MAX_PATHS = 100_000;

const LABELLED = /^\s*(?:[-*+•]|\d{1,3}[.)])?\s*[*_]{0,2}\s*([a-z][\w-]*)\s*[*_]{0,2}\s*[:：]\s*(.+)$/i;
const ATTRIBUTED =
  /\b(?:the\s+)?user(?:'s)?\s+(?:\w+ly\s+|also\s+|then\s+|later\s+|now\s+)?(?:asked|asks|requested|requests|wants|wanted|said|says|told|tells|instructed|demanded|required|requires|insisted|would like|needs|needed)\b[\s,:]*(.+)$/i;
const ATTRIBUTED_ZH = /用户(?:要求|希望|说|请求|让|提出|指示)[：:，,\s]*(.+)$/;

function prefixes(text: string): Set<string> {
  return new Set([...contentTerms(text.toLowerCase(), 3)].map((t) => t.slice(0, PREFIX_CHARS)));
}

/** What the user wrote: user messages, and the user messages of earlier summaries. */
function userWords(messages: readonly Message[]): Set<string> {
  const out = new Set<string>();
  for (const m of messages) {
    let text = '';
    if (m.itemType === 'USER_MESSAGE' && m.role === 'user' && !m.toolResult) text = messageText(m);
    else if (m.itemType === 'COMPACTION_SUMMARY') text = parseSummary(messageText(m)).sections[USER_SECTION];
    for (const p of prefixes(text)) out.add(p);
  }
  return out;
}

/** The request a line names, if it names one. */
function requestIn(line: string): string | undefined {
  const labelled = LABELLED.exec(line);
  if (labelled && /user/i.test(labelled[1]!)) return labelled[2]!.trim();
  return (ATTRIBUTED.exec(line) ?? ATTRIBUTED_ZH.exec(line))?.[1]?.trim();
}

function held(request: string, user: ReadonlySet<string>): boolean {
  const words = [...prefixes(request)];
  if (words.length === 0) return true;
  return words.filter((w) => user.has(w)).length >= words.length * HELD_SHARE;
}

function conversationPaths(messages: readonly Message[]): { text: string; paths: string[] } {
  const parts: string[] = [];
  const paths = new Set<string>();
  for (const m of messages) {
    const text = messageText(m);
    parts.push(text);
    for (const p of extractFilePaths(text, MAX_PATHS)) paths.add(p.toLowerCase());
    for (const c of m.toolCalls ?? []) {
      parts.push(c.arguments);
      for (const p of extractToolCallPaths(c, MAX_PATHS)) paths.add(p.toLowerCase());
    }
  }
  return { text: parts.join('\n').toLowerCase().replace(/\\/g, '/'), paths: [...paths] };
}

function pathHeld(path: string, conv: { text: string; paths: string[] }): boolean {
  const p = normalizeFilePath(path).toLowerCase();
  if (conv.text.includes(p)) return true;
  return conv.paths.some((q) => q.endsWith(`/${p}`) || p.endsWith(`/${q}`));
}

const cut = (s: string) => (s.length > UNSUPPORTED_CLAIM_CHARS ? `${s.slice(0, UNSUPPORTED_CLAIM_CHARS - 1)}…` : s);

/** The lines of `sections` (all but "All user messages") that the conversation does not hold. */
export function unsupportedClaims(sections: SectionTexts, messages: readonly Message[]): UnsupportedClaim[] {
  const out: UnsupportedClaim[] = [];
  let user: Set<string> | undefined;
  let conv: { text: string; paths: string[] } | undefined;
  for (const section of SECTION_NAMES) {
    if (section === USER_SECTION || !sections[section]) continue;
    for (const line of sections[section].split('\n')) {
      const request = requestIn(line);
      if (request !== undefined && !held(request, (user ??= userWords(messages)))) out.push({ kind: 'userRequest', section, text: cut(line.trim()) });
    }
    for (const path of extractFilePaths(sections[section], MAX_PATHS)) {
      if (!pathHeld(path, (conv ??= conversationPaths(messages)))) out.push({ kind: 'filePath', section, text: cut(path) });
    }
  }
  return out;
}
