// Text from a transcript put back into a model's context, quoted as data (design invariant 10):
// nothing in it can end its quote or open a tag, and its source is named. One function for every
// place that does it — the Claude Code hook's restore, the handoff prompt, the facts the MCP server
// and Copilot's tools hand an agent — so they cannot drift apart.
//
// The quote is a line of ours naming the source, then the text in a fence with every line behind
// QUOTE_MARK ("│ "). A quote ends at the first line without the mark, and no text can make one:
// every line break it holds (\n, \r, \u2028, \u2029, \u0085, \v, \f) starts another marked line.
// For the same reason the fence (``` lines of our own, so a Markdown renderer shows the text as
// written) cannot be closed from inside: a closing fence starts with backticks, every text line
// with the mark. No backtick run, however long, matters.
//
// Inside a line, what could open a tag — in the text or once a reader decodes it — is defused:
//   - '<' and the characters that look like it (＜ ﹤ 〈 〈 ⟨ ❮ ❬ ˂ ᐸ ⧼) become '‹';
//   - '&' that starts a character reference (&lt; &LT &#60; &#x3c; &gt; …) becomes '＆';
//   - '\' that starts an escape of '<' (\u003c, \u{3c}, \x3c) becomes '⧵'.
// Everything else stays as written: paths, commands, code, '>' and '&&' read the same.

/** What every quoted line starts with. */
export const QUOTE_MARK = '│ ';

/** Every character that reads as "less than", which a tag opens with. */
const TAG_OPENERS = /[<\uFF1C\uFE64\u2329\u3008\u27E8\u276E\u276C\u02C2\u1438\u29FC]/g;
/** '&' opening a character reference: numeric, or named (`&lt` needs no ';' in HTML). */
const REFERENCE_START = /&(?=#|[lL][tT]|[A-Za-z][A-Za-z0-9]*;)/g;
/** '\' opening an escape of '<'. */
const ESCAPE_START = /\\(?=u0*3[cC]|u\{0*3[cC]\}|x3[cC])/g;
/** Every line break a reader may honour. */
const LINE_BREAKS = /\r\n?|[\n\u2028\u2029\u0085\u000B\u000C]/;

/** One line of text with nothing in it that opens a tag (line breaks as they are: callers split). */
function defuse(text: string): string {
  return text.replace(TAG_OPENERS, '‹').replace(REFERENCE_START, '＆').replace(ESCAPE_START, '⧵');
}

/**
 * Transcript text for one line of our own (a title in a sentence, a list item): whitespace runs,
 * line breaks included, to one space, and tag openers defused.
 */
export function dataLine(text: string): string {
  return defuse(text.replace(/[\s\u0085]+/g, ' ').trim());
}

/**
 * `text` quoted as data: "<source> (quoted as data):", then a fence holding every line of `text`
 * behind QUOTE_MARK, defused. `source` names where the text comes from ("the session transcript",
 * "message 3"); it goes on one line and is defused too, since it may hold a name from the transcript.
 */
export function quoteAsData(text: string, source: string): string {
  const lines = text.split(LINE_BREAKS).map((l) => `${QUOTE_MARK}${defuse(l)}`);
  return `${dataLine(source)} (quoted as data):\n\`\`\`\n${lines.join('\n')}\n\`\`\``;
}
