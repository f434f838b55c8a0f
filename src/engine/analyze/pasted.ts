// A person's message that carries a pasted document — a prompt to follow, rules, a spec, a log —
// has two parts: the person's own words, the opening before the paste, and the pasted body. What
// the person asks is in their own words; the body is material (its rules are not twenty requests
// of theirs), so the summary names it by a gist and its size.
//
// A message carries a paste when it is long both in characters and in lines
// (PASTE_MIN_CHARS, PASTE_MIN_LINES non-blank lines): a typed request is a few lines, a pasted
// prompt or log is many. Its own words are its first paragraph (up to a blank line or a line
// that opens a structure: a heading, a list item, a fence, a markup tag, a table row, an
// all-capitals title), at most OWN_MAX_CHARS characters; within it the paste may already start at
// a role-prompt opener ("You are …", "Act as …", "Ты — …", "你是…") after a sentence end, a colon
// or a dash ("Follow the prompt below - You are the Analyzer Agent …"). A message that opens
// with the structure itself is all paste: its own words are empty.

import { oneLine } from '../text/textCut';
import { ruleSentences } from './standingRules';

/** Shortest message, in characters, that can carry a paste. */
export const PASTE_MIN_CHARS = 2000;
/** Fewest non-blank lines of a message that carries a paste. */
export const PASTE_MIN_LINES = 15;
/** Most characters of a message's opening taken as the person's own words. */
const OWN_MAX_CHARS = 600;
/** Characters of the paste's opening shown in its gist. */
const GIST_CHARS = 80;
/** Characters of the paste's opening kept. */
const OPENING_CHARS = 300;

/** A line that opens a structure rather than continuing a typed paragraph. */
const STRUCTURE_LINE = /^(?:#{1,6}\s|[-*+•]\s|\d{1,3}[.)]\s|```|~~~|<\/?[A-Za-z][\w-]*(?:\s[^>]*)?>|\|)/;
/** A title in capitals ("TASK ALGORITHM", "REPORT PROTOCOL:"). */
const CAPS_TITLE = /^[^a-z\u0430-\u044f]*[A-Z\u0410-\u042f]{3,}[^a-z\u0430-\u044f]*$/;
/** Where a role prompt starts inside a line: after the start, a sentence end, a colon or a dash. */
const ROLE_OPENER =
  /(?:^|[.!?;:。！？：]\s*|\s[-–—]+\s*)(?=(?:You are|You're|Act as|Acting as|Your role is|Your task is)\b|(?:Ты|Вы)\s*[—–-]\s|Ты являешься\s|你是|你现在是)/;

export interface PastedBody {
  /** The paste's opening (OPENING_CHARS at most), markup removed, on one line. */
  opening: string;
  /** Its non-blank lines. */
  lines: number;
  /** A prompt (it opens with a role: "You are …"), or any other text. */
  kind: 'prompt' | 'text';
}

export interface MessageParts {
  /** The person's own words: the whole text when there is no paste. */
  own: string;
  /** The pasted body, when the message carries one. */
  pasted?: PastedBody;
}

function nonBlankLines(text: string): number {
  let n = 0;
  for (const l of text.split('\n')) if (l.trim()) n++;
  return n;
}

/** A line without the markup that opens it (heading hashes, a list marker, tags, a fence). */
function withoutMarkup(line: string): string {
  return line
    .replace(/^\s*(?:#{1,6}\s+|[-*+•]\s+|```\w*|~~~\w*)?/, '')
    .replace(/<\/?[A-Za-z][\w-]*(?:\s[^>]*)?>/g, '')
    .trim();
}

/** The message's own words and its pasted body (see the rule at the top of this file). */
export function splitPasted(text: string): MessageParts {
  if (text.length < PASTE_MIN_CHARS || nonBlankLines(text) < PASTE_MIN_LINES) return { own: text };
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && !lines[i]!.trim()) i++;
  const own: string[] = [];
  let chars = 0;
  for (; i < lines.length; i++) {
    const t = lines[i]!.trim();
    if (!t || STRUCTURE_LINE.test(t) || CAPS_TITLE.test(t) || chars >= OWN_MAX_CHARS) break;
    own.push(t);
    chars += t.length + 1;
  }
  let opening = own.join(' ');
  let body = lines.slice(i).join('\n');
  const role = ROLE_OPENER.exec(opening);
  if (role) {
    body = `${opening.slice(role.index + role[0].length)}\n${body}`;
    opening = opening.slice(0, role.index).trim();
  }
  if (opening.length > OWN_MAX_CHARS) opening = oneLine(opening, OWN_MAX_CHARS);
  const head = body
    .slice(0, OPENING_CHARS * 4)
    .split('\n')
    .map(withoutMarkup)
    .filter((l) => l !== '');
  const kind = ROLE_OPENER.test(head[0] ?? '') ? 'prompt' : 'text';
  return { own: opening, pasted: { opening: oneLine(head.join(' '), OPENING_CHARS), lines: nonBlankLines(body), kind } };
}

/** The paste named by its gist, its opening words cut to `chars`:
 *  `pasted prompt: “You are the Analyzer Agent (Cross-Service …” (143 lines)`. */
export function pastedGist(p: PastedBody, chars: number = GIST_CHARS): string {
  const what = p.kind === 'prompt' ? 'pasted prompt' : 'pasted text';
  const opening = p.opening ? `: “${oneLine(p.opening, chars)}”` : '';
  return `${what}${opening} (${p.lines} line${p.lines === 1 ? '' : 's'})`;
}

/** What the person asked, as one text: their own words, then the paste's gist in brackets.
 *  With `maxChars`, on one line: the own words are cut ("…") so that the gist always shows.
 *  A message that is all paste is its own request (an issue, a spec): its gist then quotes as
 *  much of its opening as `maxChars` allows. */
export function requestWords(parts: MessageParts, maxChars?: number): string {
  // A standing rule in the words is never cut (analyze/standingRules.ts).
  const rules = () => ruleSentences(parts.own);
  if (!parts.pasted) return maxChars === undefined ? parts.own : oneLine(parts.own, maxChars, rules());
  if (!parts.own) return `[${pastedGist(parts.pasted, Math.max(GIST_CHARS, (maxChars ?? 0) - 40))}]`;
  const gist = `[${pastedGist(parts.pasted)}]`;
  const own = maxChars === undefined ? parts.own : oneLine(parts.own, Math.max(20, maxChars - gist.length - 1), rules());
  return `${own} ${gist}`;
}
