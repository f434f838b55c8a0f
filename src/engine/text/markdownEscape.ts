// Untrusted text (from a transcript, a file name, a model or a server) placed into Markdown we
// compose: the meter's tooltip, chat replies, a handoff's headings. Every character Markdown,
// HTML or VS Code's theme icons would read inline is backslash-escaped, a list marker at the
// start is too, and line breaks become spaces, so the text shows exactly as written and can add
// no link, image, HTML, table, heading or command — whatever it holds (`[x](command:…)`,
// `![i](https://…)`, `<img src=x>`, backticks). A web address stays text too: renderers link bare
// `https://…` and `www.…` on their own, so a zero-width space after the scheme (or after "www")
// keeps them from it, and the address still reads the same. A '-' or '.' inside a word
// ("gpt-4o", "chat.jsonl") means nothing to Markdown and stays as it is.

const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#!~<>|&$]/g;
/** What would start a list at the beginning of a line: "- ", "+ ", "1. ", "1) ". */
const LEADING_LIST_MARKER = /^(\s*)([-+]|\d{1,9}(?=[.)]))/;

/** Where a renderer would start a link of its own: "https:", "mailto:", "www.". */
const BARE_LINK = /\b([a-z][a-z0-9+.-]*:(?=\/\/)|mailto:|www(?=\.))/gi;

/** `text` as literal Markdown text, on one line. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?|\n|\u2028|\u2029/g, ' ')
    .replace(BARE_LINK, '$1\u200b')
    .replace(MARKDOWN_SPECIAL, '\\$&')
    .replace(LEADING_LIST_MARKER, (_m, space: string, marker: string) => (/\d/.test(marker) ? `${space}${marker}\\` : `${space}\\${marker}`));
}
