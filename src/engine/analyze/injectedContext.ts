// What the coding agents put into a person's message that the person did not write: context about
// the editor and the session, and reminders. The summary reads a user message by the person's own
// words; the injected part is context, never a request.
//
// Two shapes cover the agents seen so far, recognised by their form rather than by one agent's
// exact strings:
//   • a Markdown context block with a request heading: a message that opens with a heading of
//     context ("# Context from my IDE setup:", "# Files mentioned by the user:" — open tabs, the
//     active file, a selection) and puts the person's words under a later heading such as
//     "## My request for Codex:" or "## My request:" (the Codex IDE extension, Codex Desktop).
//     The words are what follows that heading; a context block with no such heading holds none.
//   • tagged blocks: `<environment_details>` (Cline, Roo Code), `<environment_context>` (Codex),
//     `<system-reminder>` (Claude Code), `<task_progress>` and other `…_reminder` / `…_context` /
//     `ide_…` tags are removed with what they hold; wrappers around the person's words —
//     `<task>`, `<feedback>`, `<answer>`, `<user_message>` (Cline), `<user_input mode="act">`
//     (Cline CLI), `<userRequest>`, `<user_query>` — are unwrapped.
//
// The message itself is never changed (it is kept verbatim when the result keeps it, and the
// archive holds it); only what the summary and the analysis read as the person's words is.

/** Tags whose content is context the agent added (removed whole). A bare `<context>` is not one:
 *  people paste XML with it. */
const CONTEXT_TAG =
  /^(?:environment(?:[_-]\w+)?|\w+[_-]context|system[_-]?reminders?|\w*[_-]reminders?|reminder(?:[_-]?\w+)?|task[_-]progress|ide[_-]\w+|\w+_instructions|attachments?|editor[_-]?context|workspace[_-]info)$/i;
/** Tags that wrap the person's own words (unwrapped). */
const WORDS_TAG = /^(?:task|feedback|answer|user[_-]?(?:message|input|request|query|prompt)|userRequest|userQuery)$/i;
/** An opening tag: its name and attributes (`<user_input mode="act">`). */
const OPEN_TAG = /<([A-Za-z][\w-]*)(?:\s[^<>\n]*)?>/g;

/** The heading an injected context block opens with: the editor's context, the files the person
 *  attached, the active file or the open tabs. Generic words alone ("# Context") are a person's
 *  own structured prompt, not this. */
const CONTEXT_HEADING =
  /^\s*#{1,2}[ \t]+(?:context from (?:my|the) (?:ide|editor|workspace)\b[^\n]*|files mentioned by the user\b[^\n]*|attached files:[^\n]*|active file:[^\n]*|open tabs:[^\n]*)$/im;
/** The heading the person's words follow ("## My request for Codex:", "## My request:"), with
 *  anything written on the heading line itself. */
const REQUEST_HEADING =
  /^[ \t]*#{1,4}[ \t]+(?:my|the user'?s?|user)[ \t]+(?:request|prompt|message|question|task)(?:[ \t]+(?:for|to)[ \t]+[^:\n]{1,40})?[ \t]*:[ \t]*([^\n]*)$/im;

/** Quick test: could the text hold any injected context at all? */
const MAYBE_INJECTED = /<[A-Za-z]|^\s*#/;

/** The text with tagged context blocks removed and word wrappers unwrapped (one linear pass). */
function withoutTaggedContext(text: string): string {
  let out = '';
  let at = 0;
  OPEN_TAG.lastIndex = 0;
  for (let m = OPEN_TAG.exec(text); m !== null; m = OPEN_TAG.exec(text)) {
    const name = m[1]!;
    const context = CONTEXT_TAG.test(name);
    if (!context && !WORDS_TAG.test(name)) continue;
    const close = text.indexOf(`</${name}>`, m.index + m[0].length);
    if (close < 0) continue;
    out += text.slice(at, m.index);
    if (!context) out += `\n${text.slice(m.index + m[0].length, close).trim()}\n`;
    at = close + name.length + 3;
    OPEN_TAG.lastIndex = at;
  }
  return at === 0 ? text : out + text.slice(at);
}

/** A Markdown context block with a request heading: the words under the heading ('' when the
 *  text is a context block without one); undefined when the text is not such a block. */
function afterRequestHeading(text: string): string | undefined {
  const head = CONTEXT_HEADING.exec(text);
  // The block must open the message: context first, the request after it (or the request
  // heading alone, with no context before it).
  const opensWithBlock = head !== null && text.slice(0, head.index).trim() === '';
  const from = opensWithBlock ? head.index + head[0].length : 0;
  const req = REQUEST_HEADING.exec(text.slice(from));
  if (!opensWithBlock && (!req || text.slice(0, req.index).trim() !== '')) return undefined;
  if (!req) return '';
  const start = from + req.index + req[0].length;
  return `${req[1]!.trim()}\n${text.slice(start)}`.trim();
}

/**
 * The words a person wrote in a user message: the message without the context an agent injected
 * (see above). The same string when there is nothing to remove; '' when the message holds only
 * context.
 */
export function userWords(text: string): string {
  if (!MAYBE_INJECTED.test(text)) return text;
  const untagged = text.includes('<') ? withoutTaggedContext(text) : text;
  const words = afterRequestHeading(untagged) ?? untagged;
  return words === text ? text : words.replace(/\n{3,}/g, '\n\n').trim();
}

/** Whether a user message holds context an agent injected (its words differ from its text). */
export function hasInjectedContext(text: string): boolean {
  return userWords(text) !== text;
}
