// The one place that touches acquireVsCodeApi(): VS Code allows calling it once per page, and
// keeping it here means the rest of the webview only sees typed post/state functions.

import type { InspectorUiState, WebviewToHost } from '../../../src/shared/protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

let api: VsCodeApi | undefined;

function get(): VsCodeApi {
  api ??= acquireVsCodeApi();
  return api;
}

export function postToHost(message: WebviewToHost): void {
  get().postMessage(message);
}

/** The saved UI state, unchecked (uiState.ts validates it). */
export function loadSavedState(): unknown {
  return get().getState();
}

export function saveState(state: InspectorUiState): void {
  get().setState(state);
}
