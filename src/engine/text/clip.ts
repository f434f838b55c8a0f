// Bounding text that echoes input back: an error message, a reply to the webview, a "found …"
// clause. Whatever was sent in, the echo stays a few hundred characters, says it was cut and how
// long the original was, and is one line.

import { formatCount } from './formatNumber';

/** Longest echo of input in a message. */
export const MAX_ECHO_CHARS = 200;

/** `text` on one line (line breaks as spaces), cut to `max` characters with an ellipsis and the
 *  original length: "abc… (5,242,880 characters)". Never splits a surrogate pair. */
export function clip(text: string, max: number = MAX_ECHO_CHARS): string {
  if (text.length <= max) return text.replace(/[\r\n]+/g, ' ');
  let end = max;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${text.slice(0, end).replace(/[\r\n]+/g, ' ')}… (${formatCount(text.length)} characters)`;
}
