// Inspector webview entry (bundled to dist/webview.js).
export {};
