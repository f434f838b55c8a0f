// Small hand-made conversations for the compaction tests: a builder that keeps ids unique and
// tool calls paired, so each test states only what it is about.

import type { Conversation, Message } from '../../src/engine/conversation/model';

export class ConversationBuilder {
  readonly messages: Message[] = [];
  private n = 0;

  private id(prefix: string): string {
    return `${prefix}${++this.n}`;
  }

  system(text: string): this {
    this.messages.push({ id: this.id('s'), role: 'system', itemType: 'SYSTEM_PROMPT', content: [{ type: 'text', text }] });
    return this;
  }

  user(text: string, extra: Partial<Message> = {}): this {
    this.messages.push({ id: this.id('u'), role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text }], ...extra });
    return this;
  }

  assistant(text: string, extra: Partial<Message> = {}): this {
    this.messages.push({ id: this.id('a'), role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: [{ type: 'text', text }], ...extra });
    return this;
  }

  thinking(text: string): this {
    this.messages.push({ id: this.id('t'), role: 'assistant', itemType: 'THINKING', content: [{ type: 'thinking', text }] });
    return this;
  }

  /** An assistant message with one tool call, then its result. */
  tool(name: string, args: Record<string, unknown>, result: string, opts: { text?: string; isError?: boolean } = {}): this {
    const callId = this.id('call_');
    this.messages.push({
      id: this.id('a'),
      role: 'assistant',
      itemType: 'ASSISTANT_MESSAGE',
      content: opts.text ? [{ type: 'text', text: opts.text }] : [],
      toolCalls: [{ id: callId, name, arguments: JSON.stringify(args) }],
    });
    this.messages.push({
      id: this.id('r'),
      role: 'tool',
      itemType: 'TOOL_RESULT',
      content: [{ type: 'text', text: result }],
      toolResult: { toolCallId: callId, isError: opts.isError ?? false, toolName: name },
    });
    return this;
  }

  build(id = 'conv'): Conversation {
    return { id, format: 'openai', messages: [...this.messages], meta: {} };
  }
}

/** A small coding session: read, failing test, fix, passing test, todo list. `fileLines`
 *  pads the file the agent reads (a bigger conversation for compaction to shrink). */
export function codingSession(fileLines = 0): Conversation {
  const body = `export function login() {\n  return createSession(30);\n}${'\n// padding line of the login module'.repeat(fileLines)}`;
  return new ConversationBuilder()
    .system('You are a coding agent.')
    .user('Please fix the failing login test in src/auth/login.ts. The session must expire after 30 minutes.')
    .tool('Read', { file_path: 'src/auth/login.ts' }, body)
    .tool('Bash', { command: 'npm test -- login' }, 'FAIL test/login.test.ts\nTypeError: session.expiresAt is not a function\nTests: 1 failed, 4 passed')
    .assistant(
      'The problem is that expiresAt is a property, not a method. I decided to read it as a property instead of calling it, because the Session type defines it as a Date.',
    )
    .tool(
      'Edit',
      { file_path: 'src/auth/login.ts', old_string: 'session.expiresAt()', new_string: 'session.expiresAt' },
      'The file src/auth/login.ts has been updated.',
    )
    .tool('Bash', { command: 'npm test -- login' }, 'PASS test/login.test.ts\nTests: 5 passed')
    .tool(
      'TodoWrite',
      {
        todos: [
          { content: 'Fix login test', status: 'completed' },
          { content: 'Add a test for session expiry', status: 'in_progress' },
          { content: 'Update CHANGELOG.md', status: 'pending' },
        ],
      },
      'Todos updated',
    )
    .user('Great. Next, add a test for the 30 minute expiry, and TODO: update the CHANGELOG.')
    .assistant('I will add the expiry test in test/session.test.ts next.')
    .user('Also make the timeout configurable via SESSION_TTL.')
    .assistant('Sure, I will read SESSION_TTL from the environment.')
    .build('coding');
}
