// The chat and language-model classes of the API (messages, parts, turns, errors), a chat model
// tests script (fakeChatModel) and a response stream that records what a participant wrote.

import { CancellationError, type CancellationToken, type Event, MarkdownString, type Uri } from './api';

export enum LanguageModelChatMessageRole {
  User = 1,
  Assistant = 2,
}

export class LanguageModelTextPart {
  constructor(public value: string) {}
}

export class LanguageModelToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}

export class LanguageModelToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}

export class LanguageModelToolResult {
  constructor(public content: unknown[]) {}
}

/** VS Code 1.101's stdio MCP server definition (not in @types/vscode 1.95, so not checked below). */
export class McpStdioServerDefinition {
  cwd: Uri | undefined;
  constructor(
    public label: string,
    public command: string,
    public args: string[] = [],
    public env: Record<string, string | number | null> = {},
    public version?: string,
  ) {}
}

export class LanguageModelChatMessage {
  static User(content: string | unknown[], name?: string): LanguageModelChatMessage {
    return new LanguageModelChatMessage(LanguageModelChatMessageRole.User, content, name);
  }
  static Assistant(content: string | unknown[], name?: string): LanguageModelChatMessage {
    return new LanguageModelChatMessage(LanguageModelChatMessageRole.Assistant, content, name);
  }
  content: unknown[];
  constructor(
    public role: LanguageModelChatMessageRole,
    content: string | unknown[],
    public name?: string,
  ) {
    this.content = typeof content === 'string' ? [new LanguageModelTextPart(content)] : content;
  }
}

export class LanguageModelError extends Error {
  static NoPermissions(message?: string) {
    return new LanguageModelError(message ?? 'no permissions', 'NoPermissions');
  }
  static Blocked(message?: string) {
    return new LanguageModelError(message ?? 'blocked', 'Blocked');
  }
  static NotFound(message?: string) {
    return new LanguageModelError(message ?? 'not found', 'NotFound');
  }
  constructor(
    message: string,
    readonly code = 'Unknown',
  ) {
    super(message);
  }
}

/** What the extension uses of a LanguageModelChat; tests build these with fakeChatModel(). */
export interface LanguageModelChatLike {
  id: string;
  name: string;
  vendor: string;
  family: string;
  version: string;
  maxInputTokens: number;
  sendRequest(
    messages: LanguageModelChatMessage[],
    options?: unknown,
    token?: CancellationToken,
  ): Promise<{ text: AsyncIterable<string>; stream: AsyncIterable<unknown> }>;
  countTokens(text: string | LanguageModelChatMessage, token?: CancellationToken): Promise<number>;
}

export interface FakeChatModelOptions {
  id?: string;
  family?: string;
  maxInputTokens?: number;
  /** The reply to each request (default: echoes how many messages it received). */
  reply?: (messages: LanguageModelChatMessage[]) => string;
  /** Tokens per text (default: one per 4 characters, rounded up, plus 3 per message). */
  countTokens?: (text: string) => number;
}

/** A language model that records what it was sent. */
export function fakeChatModel(opts: FakeChatModelOptions = {}): LanguageModelChatLike & { requests: LanguageModelChatMessage[][]; counted: number } {
  const count = opts.countTokens ?? ((t: string) => Math.ceil(t.length / 4));
  const textOf = (m: LanguageModelChatMessage) => m.content.map((p) => (p instanceof LanguageModelTextPart ? p.value : '')).join('');
  const model = {
    id: opts.id ?? 'fake-model',
    name: 'Fake Model',
    vendor: 'fake',
    family: opts.family ?? 'gpt-4o',
    version: '1',
    maxInputTokens: opts.maxInputTokens ?? 128_000,
    requests: [] as LanguageModelChatMessage[][],
    counted: 0,
    async sendRequest(messages: LanguageModelChatMessage[], _options?: unknown, token?: CancellationToken) {
      model.requests.push(messages);
      if (token?.isCancellationRequested) throw new CancellationError();
      const reply = opts.reply ? opts.reply(messages) : `received ${messages.length} messages`;
      const parts = reply.match(/.{1,16}/gs) ?? [''];
      async function* text() {
        for (const p of parts) yield p;
      }
      async function* stream() {
        for (const p of parts) yield new LanguageModelTextPart(p);
      }
      return { text: text(), stream: stream() };
    },
    async countTokens(input: string | LanguageModelChatMessage) {
      model.counted++;
      return typeof input === 'string' ? count(input) : count(textOf(input)) + 3;
    },
  };
  return model;
}

export class ChatRequestTurn {
  constructor(
    readonly prompt: string,
    readonly command: string | undefined,
    readonly references: unknown[],
    readonly participant: string,
    readonly toolReferences: unknown[] = [],
  ) {}
}

export class ChatResponseMarkdownPart {
  value: MarkdownString;
  constructor(value: string | MarkdownString) {
    this.value = typeof value === 'string' ? new MarkdownString(value) : value;
  }
}

export class ChatResponseCommandButtonPart {
  constructor(public value: { command: string; title: string; arguments?: unknown[] }) {}
}

export class ChatResponseTurn {
  constructor(
    readonly response: unknown[],
    readonly result: { metadata?: Record<string, unknown>; errorDetails?: { message: string } },
    readonly participant: string,
    readonly command?: string,
  ) {}
}

export interface FakeChatParticipant {
  id: string;
  requestHandler: (request: unknown, context: unknown, response: unknown, token: CancellationToken) => unknown;
  iconPath?: unknown;
  followupProvider?: unknown;
  onDidReceiveFeedback: Event<unknown>;
  disposed: boolean;
  dispose(): void;
}

/** A response stream that records what a participant wrote. */
export class FakeChatResponseStream {
  readonly parts: (
    | { kind: 'markdown'; value: string }
    | { kind: 'button'; command: string; title: string; arguments?: unknown[] }
    | { kind: 'progress'; value: string }
    | { kind: 'reference'; value: unknown }
    | { kind: 'anchor'; value: unknown }
  )[] = [];
  markdown(value: string | MarkdownString): void {
    this.parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value });
  }
  button(command: { command: string; title: string; arguments?: unknown[] }): void {
    this.parts.push({ kind: 'button', command: command.command, title: command.title, ...(command.arguments ? { arguments: command.arguments } : {}) });
  }
  progress(value: string): void {
    this.parts.push({ kind: 'progress', value });
  }
  reference(value: unknown): void {
    this.parts.push({ kind: 'reference', value });
  }
  anchor(value: unknown): void {
    this.parts.push({ kind: 'anchor', value });
  }
  filetree(): void {}
  push(part: unknown): void {
    if (part instanceof ChatResponseMarkdownPart) this.markdown(part.value);
  }
  /** Everything written as Markdown, joined. */
  get text(): string {
    return this.parts
      .filter((p): p is { kind: 'markdown'; value: string } => p.kind === 'markdown')
      .map((p) => p.value)
      .join('');
  }
  get buttons(): { command: string; title: string; arguments?: unknown[] }[] {
    return this.parts.filter((p) => p.kind === 'button') as { command: string; title: string; arguments?: unknown[] }[];
  }
}
