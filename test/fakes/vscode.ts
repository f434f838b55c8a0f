// A small fake of the VS Code API for host-logic tests (aliased as 'vscode' in vitest.config.ts).
export {};
