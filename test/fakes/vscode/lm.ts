// chat participants and language models (the models tests set with fake.setLmModels), and VS
// Code 1.101's MCP server definitions.

import { type CancellationToken, Disposable, EventEmitter, type FakeOf } from './api';
import type { FakeChatParticipant, LanguageModelChatLike } from './chatApi';
import { lmModelsEmitter, state } from './state';
import type * as vscode from 'vscode';

export function registerMcpServerDefinitionProvider(id: string, provider: { provideMcpServerDefinitions(token: CancellationToken): unknown }): Disposable {
  state.mcpProviders.set(id, provider);
  return new Disposable(() => state.mcpProviders.delete(id));
}

export const chat = {
  createChatParticipant(id: string, handler: FakeChatParticipant['requestHandler']): FakeChatParticipant {
    const feedback = new EventEmitter<unknown>();
    const p: FakeChatParticipant = {
      id,
      requestHandler: handler,
      onDidReceiveFeedback: feedback.event,
      disposed: false,
      dispose() {
        this.disposed = true;
      },
    };
    state.chatParticipants.push(p);
    return p;
  },
} satisfies FakeOf<typeof vscode.chat>;

export const lm = {
  async selectChatModels(selector?: { vendor?: string; family?: string; id?: string; version?: string }): Promise<LanguageModelChatLike[]> {
    return state.lmModels.filter(
      (m) =>
        (!selector?.vendor || m.vendor === selector.vendor) &&
        (!selector?.family || m.family === selector.family) &&
        (!selector?.id || m.id === selector.id) &&
        (!selector?.version || m.version === selector.version),
    );
  },
  onDidChangeChatModels: lmModelsEmitter.event,
  registerTool<T>(name: string, tool: vscode.LanguageModelTool<T>): Disposable {
    if (state.lmTools.has(name)) throw new Error(`tool '${name}' already registered`);
    state.lmTools.set(name, tool as vscode.LanguageModelTool<unknown>);
    return new Disposable(() => state.lmTools.delete(name));
  },
} satisfies FakeOf<typeof vscode.lm>;
