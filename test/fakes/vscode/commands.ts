// commands, env and l10n.

import { Disposable, type FakeOf, UIKind, type Uri } from './api';
import { state } from './state';
import type * as vscode from 'vscode';

// ───────────────────────────── commands, env, l10n ─────────────────────────────

export const commands = {
  registerCommand(id: string, handler: (...args: unknown[]) => unknown, thisArg?: unknown): Disposable {
    if (state.commands.has(id)) throw new Error(`command '${id}' already exists`);
    state.commands.set(id, thisArg ? handler.bind(thisArg) : handler);
    return new Disposable(() => state.commands.delete(id));
  },
  async executeCommand<T = unknown>(id: string, ...args: unknown[]): Promise<T> {
    const handler = state.commands.get(id);
    if (handler) return (await handler(...args)) as T;
    state.executed.push({ command: id, args });
    if (id === 'setContext') state.contextKeys.set(String(args[0]), args[1]);
    return undefined as T;
  },
  async getCommands(_filterInternal?: boolean): Promise<string[]> {
    return [...state.commands.keys()];
  },
} satisfies FakeOf<typeof vscode.commands>;

export const env = {
  clipboard: {
    async readText(): Promise<string> {
      return state.clipboard;
    },
    async writeText(value: string): Promise<void> {
      state.clipboard = value;
    },
  },
  get language(): string {
    return state.language;
  },
  appName: 'Visual Studio Code (fake)',
  remoteName: undefined as string | undefined,
  uiKind: UIKind.Desktop,
  machineId: 'fake-machine',
  sessionId: 'fake-session',
  uriScheme: 'vscode',
} satisfies FakeOf<typeof vscode.env>;

function format(message: string, args: unknown[] | Record<string, unknown>): string {
  return message.replace(/\{([^}]+)\}/g, (m, key: string) => {
    const v = Array.isArray(args) ? args[Number(key)] : args[key];
    return v === undefined ? m : String(v);
  });
}

export const l10n = {
  t(messageOrOptions: string | { message: string; args?: unknown[] | Record<string, unknown>; comment?: string | string[] }, ...args: unknown[]): string {
    if (typeof messageOrOptions === 'object') return format(messageOrOptions.message, messageOrOptions.args ?? []);
    if (args.length === 1 && typeof args[0] === 'object' && args[0] !== null && !Array.isArray(args[0])) {
      return format(messageOrOptions, args[0] as Record<string, unknown>);
    }
    return format(messageOrOptions, args);
  },
  bundle: undefined as { [key: string]: string } | undefined,
  uri: undefined as Uri | undefined,
} satisfies FakeOf<typeof vscode.l10n>;

// ───────────────────────────── chat and language models ─────────────────────────────
