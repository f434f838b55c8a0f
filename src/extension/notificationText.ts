// Untrusted text (a transcript's label, a server's error, a fallback reason) in a notification.
// VS Code shows notification messages as plain text except for one piece of Markdown: a
// `[label](https:…|command:…|file:…)` becomes a link, and a command link runs when clicked. A
// zero-width space between `]` and `(` keeps the text looking the same and makes it no link.
// (Markdown we compose ourselves goes through escapeMarkdown, src/engine/text/markdownEscape.ts.)

import { clip } from '../engine/text/clip';

/** Longest untrusted text put into one notification. */
export const MAX_NOTIFICATION_TEXT_CHARS = 500;

/** `text` for a notification: no link can be made from it, and it stays a few lines long. */
export function notificationText(text: string): string {
  return clip(text, MAX_NOTIFICATION_TEXT_CHARS).replace(/\](?=\()/g, ']\u200b');
}
