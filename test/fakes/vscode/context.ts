// The extension context: mementos, secrets and storage folders that survive a fake reload.

import { EventEmitter, ExtensionMode, Uri } from './api';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// ───────────────────────────── extension context ─────────────────────────────

export class FakeMemento {
  private readonly data = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.data.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.data.has(key) ? (structuredClone(this.data.get(key)) as T) : defaultValue;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, structuredClone(value));
  }
  setKeysForSync(_keys: readonly string[]): void {}
}

export class FakeSecretStorage {
  private readonly emitter = new EventEmitter<{ key: string }>();
  readonly onDidChange = this.emitter.event;
  constructor(private readonly data: Map<string, string>) {}
  async get(key: string): Promise<string | undefined> {
    return this.data.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.data.set(key, value);
    this.emitter.fire({ key });
  }
  async delete(key: string): Promise<void> {
    this.data.delete(key);
    this.emitter.fire({ key });
  }
}

/** Survives "reloads": pass the same one to createExtensionContext to keep state and secrets. */
export interface FakeProfile {
  storageDir: string;
  globalState: FakeMemento;
  workspaceState: FakeMemento;
  secrets: Map<string, string>;
}

export function createProfile(storageDir: string): FakeProfile {
  return { storageDir, globalState: new FakeMemento(), workspaceState: new FakeMemento(), secrets: new Map() };
}

export interface FakeExtensionContext {
  subscriptions: { dispose(): unknown }[];
  globalState: FakeMemento;
  workspaceState: FakeMemento;
  secrets: FakeSecretStorage;
  globalStorageUri: Uri;
  storageUri: Uri;
  logUri: Uri;
  extensionUri: Uri;
  extensionPath: string;
  extensionMode: ExtensionMode;
  asAbsolutePath(rel: string): string;
}

/** An ExtensionContext whose storage lives in `profile.storageDir` (a real directory). */
export function createExtensionContext(
  profile: FakeProfile,
  extensionPath = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..'),
): FakeExtensionContext {
  return {
    subscriptions: [],
    globalState: profile.globalState,
    workspaceState: profile.workspaceState,
    secrets: new FakeSecretStorage(profile.secrets),
    globalStorageUri: Uri.file(join(profile.storageDir, 'global')),
    storageUri: Uri.file(join(profile.storageDir, 'workspace')),
    logUri: Uri.file(join(profile.storageDir, 'logs')),
    extensionUri: Uri.file(extensionPath),
    extensionPath,
    extensionMode: ExtensionMode.Test,
    asAbsolutePath: (rel) => join(extensionPath, rel),
  };
}

/** Disposes what an activation registered, in reverse order, as VS Code does on deactivate. */
export function disposeContext(context: FakeExtensionContext): void {
  for (const d of context.subscriptions.reverse()) d.dispose();
  context.subscriptions.length = 0;
}
