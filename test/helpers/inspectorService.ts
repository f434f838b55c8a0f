// A fake ConversationService for the inspector's host tests: it records what reaches it and
// answers with the compaction fixture's plan (test/webview/compactionFixture.ts).

import * as vscode from 'vscode';
import type { Conversation, Message } from '../../src/engine/conversation/model';
import type { CompactionEdits, CompactionResult } from '../../src/engine/result';
import type { CachedTokenCounter } from '../../src/engine/tokens/messageCounter';
import { tokenReport } from '../../src/engine/tokens/report';
import type { ActiveConversation, Compaction, ConversationService } from '../../src/extension/conversationService';
import { compactionFigures } from '../../src/engine/figures';
import { fixtureResult } from '../webview/compactionFixture';
import { EventEmitter } from '../fakes/vscode';

export function conversation(id: string, turns = 4): Conversation {
  const messages: Message[] = [
    { id: `${id}-sys`, role: 'system', itemType: 'SYSTEM_PROMPT', content: [{ type: 'text', text: 'You are a coding assistant.' }] },
  ];
  for (let i = 0; i < turns; i++) {
    messages.push({
      id: `${id}-u${i}`,
      role: 'user',
      itemType: 'USER_MESSAGE',
      content: [{ type: 'text', text: `Fix the failing test in src/app${i}.ts please` }],
    });
    messages.push({
      id: `${id}-a${i}`,
      role: 'assistant',
      itemType: 'ASSISTANT_MESSAGE',
      content: [{ type: 'text', text: `I changed src/app${i}.ts: TypeError: x is not a function is fixed.` }],
    });
  }
  return { id, format: 'openai', messages, meta: {} };
}

export interface Call {
  method: 'preview' | 'apply' | 'undo';
  key: string;
  edits?: CompactionEdits;
}

export class FakeService implements ConversationService {
  readonly calls: Call[] = [];
  readonly changed = new EventEmitter<ActiveConversation>();
  readonly activeChanged = new EventEmitter<ActiveConversation | undefined>();
  readonly onDidChange = this.changed.event as unknown as vscode.Event<ActiveConversation>;
  readonly onDidChangeActive = this.activeChanged.event as unknown as vscode.Event<ActiveConversation | undefined>;
  readonly entries = new Map<string, ActiveConversation>();
  activeKey: string | undefined;
  undoResult = true;
  /** Makes the next preview wait until released (to test superseding). */
  hold: Promise<void> | undefined;

  constructor(private readonly counter: CachedTokenCounter) {}

  add(key: string, conv: Conversation): ActiveConversation {
    const entry: ActiveConversation = {
      key,
      label: `${key}.json`,
      kind: 'transcript',
      conversation: conv,
      report: tokenReport(conv.messages, this.counter),
      compactions: 0,
      model: 'gpt-4o',
    };
    this.entries.set(key, entry);
    this.activeKey ??= key;
    return entry;
  }
  active() {
    return this.activeKey === undefined ? undefined : this.entries.get(this.activeKey);
  }
  get(key: string) {
    return this.entries.get(key);
  }
  private compaction(result: CompactionResult, key: string): Compaction {
    return { result, figures: compactionFigures(this.entries.get(key)!.report, result), inherited: {} };
  }
  async preview(key: string, edits?: CompactionEdits, token?: vscode.CancellationToken): Promise<Compaction> {
    this.calls.push({ method: 'preview', key, ...(edits ? { edits } : {}) });
    if (this.hold) await this.hold;
    if (token?.isCancellationRequested) throw new vscode.CancellationError();
    return this.compaction(fixtureResult(this.entries.get(key)!.conversation, this.counter, edits?.restore ?? []), key);
  }
  async apply(key: string, edits?: CompactionEdits): Promise<Compaction> {
    this.calls.push({ method: 'apply', key, ...(edits ? { edits } : {}) });
    const entry = this.entries.get(key)!;
    const result = fixtureResult(entry.conversation, this.counter, edits?.restore ?? []);
    const made = this.compaction(result, key);
    entry.conversation = result.conversation;
    entry.compactions++;
    this.changed.fire(entry);
    return made;
  }
  async undo(key: string): Promise<boolean> {
    this.calls.push({ method: 'undo', key });
    return this.undoResult;
  }
  canUndo(key: string): boolean {
    return (this.entries.get(key)?.compactions ?? 0) > 0;
  }
  dispose() {}
}
