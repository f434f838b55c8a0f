// The inspector page: a fixed shell that loads the bundled webview script and stylesheet under
// a strict Content Security Policy. Everything the page shows is built by the script from
// protocol messages, so the HTML itself never contains conversation text.

import { randomBytes } from 'node:crypto';

/** The panel title the end-to-end test looks for. */
export const INSPECTOR_TITLE = 'Context Compactor: Inspector';

/** 128 bits: the CSP spec asks for a nonce that cannot be guessed; 16 random bytes is the usual size. */
export const NONCE_BYTES = 16;

export interface InspectorHtmlInput {
  /** `webview.cspSource`: the origin the webview may load its own resources from. */
  cspSource: string;
  nonce: string;
  /** `webview.asWebviewUri(dist/webview.js)`, as a string. */
  scriptUri: string;
  /** `webview.asWebviewUri(dist/webview.css)`, as a string. */
  styleUri: string;
  title: string;
}

/** A fresh nonce per page load: a script can only run if it carries the nonce of its page. */
export function createNonce(): string {
  return randomBytes(NONCE_BYTES).toString('base64');
}

/** No default sources; scripts only with the nonce; styles, images and fonts only from the
 *  extension's own files (images also as data: URIs). No inline styles are needed: the script
 *  sets the few computed sizes through the CSSOM, which CSP does not govern. */
export function inspectorCsp(cspSource: string, nonce: string): string {
  return [`default-src 'none'`, `script-src 'nonce-${nonce}'`, `style-src ${cspSource}`, `img-src ${cspSource} data:`, `font-src ${cspSource}`].join('; ');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function renderInspectorHtml(input: InspectorHtmlInput): string {
  const csp = escapeAttribute(inspectorCsp(input.cspSource, input.nonce));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(input.styleUri)}">
<title>${escapeAttribute(input.title)}</title>
</head>
<body>
<main id="app" aria-busy="true"><p class="boot">Loading the inspector…</p></main>
<script nonce="${escapeAttribute(input.nonce)}" src="${escapeAttribute(input.scriptUri)}"></script>
</body>
</html>
`;
}
