// The OpenAI-compatible endpoint's API key, in VS Code's SecretStorage (the OS keychain) — never
// in settings, logs or files.

import type * as vscode from 'vscode';
import { SECRET_OPENAI_API_KEY } from './ids';

export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(): Promise<string | undefined> {
    return Promise.resolve(this.secrets.get(SECRET_OPENAI_API_KEY));
  }

  async set(value: string): Promise<void> {
    await this.secrets.store(SECRET_OPENAI_API_KEY, value);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(SECRET_OPENAI_API_KEY);
  }
}

export function registerSecrets(context: vscode.ExtensionContext): ApiKeyStore {
  return new ApiKeyStore(context.secrets);
}
