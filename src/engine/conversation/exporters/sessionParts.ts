// What a session written back into an agent is made of, whichever agent: the compaction summary
// (the last COMPACTION_SUMMARY message of the compacted conversation, introduced the way the agents
// introduce their own) and the turns after it, kept verbatim. Header items (system prompt, tool
// definitions, memory) are left out: the agent that resumes the session sends its own; so are the
// reminders Claude Code renders itself with a user message (its `rendered` attachments: the date,
// the environment, tool and skill listings), which it renders anew on resume.

import { readInherited, type InheritedFigures } from '../inherited';
import { messageText, isHeaderItem, type Conversation, type Message } from '../model';

export type { InheritedFigures } from '../inherited';

/** How the summary opens, as Claude Code opens the summary of its own compactions. */
export const SESSION_SUMMARY_PREFIX =
  'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n';

export interface SessionParts {
  /** The summary as the agent will read it (prefix + the 8 sections). */
  summaryText: string;
  /** The summary alone, for an agent that introduces it in its own words (Copilot CLI). */
  summary: string;
  /** The messages after the summary, in order. */
  tail: Message[];
  /** Header messages left out (the resuming agent sends its own). */
  leftOut: number;
  /** What changed on the way, in words, starting with the header messages left out. */
  notes: string[];
}

/** The summary and the recent turns of a compacted conversation; undefined when it holds no
 *  summary (nothing was compacted). */
export function sessionParts(conv: Conversation, agentName: string): SessionParts | undefined {
  let at = -1;
  conv.messages.forEach((m, i) => {
    if (m.itemType === 'COMPACTION_SUMMARY') at = i;
  });
  if (at === -1) return undefined;
  const rest = conv.messages.slice(at + 1);
  const tail = rest.filter((m) => !isHeaderItem(m) && !isRenderedReminder(m) && !isResentCopy(m));
  const reminders = rest.filter(isRenderedReminder).length;
  const resent = rest.filter(isResentCopy).length;
  const leftOut = rest.length - tail.length - reminders - resent + conv.messages.slice(0, at).filter(isHeaderItem).length;
  const notes =
    leftOut > 0 ? [`${leftOut} header message${leftOut === 1 ? '' : 's'} (system prompt, tool definitions) left out: ${agentName} sends its own`] : [];
  if (reminders > 0) notes.push(`${reminders} reminder${reminders === 1 ? '' : 's'} the agent renders itself (date, environment, listings) left out`);
  if (resent > 0) notes.push(`${resent} tool result${resent === 1 ? '' : 's'} the agent sent a second time left out`);
  const summary = messageText(conv.messages[at]!);
  return { summaryText: `${SESSION_SUMMARY_PREFIX}${summary}`, summary, tail, leftOut, notes };
}

/** What the agent sends but a session written back leaves out (it sends its own): header items
 *  and the reminders it renders with a user message. Overhead of the new session. */
export function leftOutOfSession(m: Message): boolean {
  return isHeaderItem(m) || isRenderedReminder(m);
}

/** What a session written back leaves out of the compacted conversation: what the agent sends
 *  itself (leftOutOfSession) and the copies it resent. Not in the new session's file. */
export function notWrittenBack(m: Message): boolean {
  return leftOutOfSession(m) || isResentCopy(m);
}

/** The `source.extra` key of a message an agent sent a second time (Gemini CLI resends the results
 *  of a tool turn recorded before a resume): counted as sent, never written back, and no overhead of
 *  the new session (its agent has no reason to send it again). */
export const RESENT_EXTRA = 'resent';

function isResentCopy(m: Message): boolean {
  return typeof m.source?.extra?.[RESENT_EXTRA] === 'string';
}

/** A reminder an agent rendered with a user message (importers/claudeCodeAttachments.ts). */
function isRenderedReminder(m: Message): boolean {
  return m.itemType === 'SKILL_METADATA' && typeof m.source?.extra?.['attachment'] === 'string';
}

/** `{ inherited: … }` for the provenance field (inherited.ts), or nothing when nothing was measured. */
export function inheritedField(i: InheritedFigures | undefined): { inherited?: InheritedFigures } {
  const clean = readInherited(i);
  return clean ? { inherited: clean } : {};
}

/** A message's text as written back: its text parts and image placeholders, in order. */
export function sessionText(m: Message): string {
  return m.content
    .map((p) => (p.type === 'text' ? p.text : p.type === 'image' ? p.placeholder : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** Tool arguments as the object the agents record (they send its JSON); arguments that are not a
 *  JSON object are kept as `{input: text}`. */
export function argumentsObject(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // not JSON
  }
  return { input: args };
}

/** An object without its undefined fields (a provenance record). */
export function definedOnly(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
