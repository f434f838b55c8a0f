// @compactor: answers with the request's model from the (compacted) history, counts with the
// model's own countTokens against maxInputTokens, proposes compaction at the trigger as buttons
// (or compacts at once without confirmation), and serves /compact /usage /inspect /undo /export.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionKeyOf } from '../../src/extension/chat/chatHistory';
import { standInEngine, type StandInEngine } from '../fakes/compactionEngine';
import { activateHost, type ActivatedHost } from '../fakes/extensionHost';
import {
  CancellationTokenSource,
  ChatRequestTurn,
  ChatResponseMarkdownPart,
  ChatResponseTurn,
  FakeChatResponseStream,
  LanguageModelChatMessageRole,
  LanguageModelTextPart,
  Uri,
  fake,
  fakeChatModel,
  resetFake,
  type LanguageModelChatMessage,
} from '../fakes/vscode';

const PARTICIPANT = 'context-compactor.compactor';

/** A realistic session: a developer working through a bug with the assistant. */
const TURNS: [string, string][] = [
  [
    'The login form at src/auth/login.ts throws "TypeError: cannot read properties of undefined (reading token)" after submit. Can you help?',
    'The error comes from `session.token` being read before `await fetchSession()` resolves. Move the read after the await in handleSubmit.',
  ],
  [
    'Done, but now the test tests/auth/login.test.ts fails with "expected 200 received 401".',
    'The test stubs the session endpoint without a token. Add `token: "t"` to the stub in tests/fixtures/session.json.',
  ],
  [
    'That fixed it. Next, the refresh flow: tokens expire after 15 minutes and users get logged out.',
    'Add a refresh timer in src/auth/refresh.ts that calls /api/refresh one minute before expiry, and retry once on 401.',
  ],
  [
    'How should I store the refresh token? localStorage feels wrong.',
    'Prefer an httpOnly cookie set by the server; the client never reads it. localStorage is readable by any injected script.',
  ],
  [
    'OK. Please also summarize what is left to do for the auth work.',
    'Left: implement the refresh timer, move the token to an httpOnly cookie, and add a test for the 401 retry.',
  ],
];

function historyOf(turns: [string, string][], command?: string): unknown[] {
  const out: unknown[] = [];
  for (const [q, a] of turns) {
    out.push(new ChatRequestTurn(q, command, [], PARTICIPANT));
    out.push(new ChatResponseTurn([new ChatResponseMarkdownPart(`${a}`)], { metadata: { answer: a } }, PARTICIPANT, command));
  }
  return out;
}

function textOf(m: LanguageModelChatMessage): string {
  return m.content.map((p) => (p instanceof LanguageModelTextPart ? p.value : '')).join('');
}

describe('@compactor', () => {
  let host: ActivatedHost;
  let engine: StandInEngine;
  let model: ReturnType<typeof fakeChatModel>;

  beforeEach(() => {
    resetFake();
    fake.setWorkspaceRoot(mkdtempSync(join(tmpdir(), 'ctxc-chat-')));
    engine = standInEngine();
    host = activateHost(engine);
    model = fakeChatModel({ maxInputTokens: 100_000, reply: () => 'Here is my answer.' });
  });
  afterEach(() => host.deactivate());

  async function ask(prompt: string, history: unknown[], command?: string, token = new CancellationTokenSource().token) {
    const stream = new FakeChatResponseStream();
    const participant = fake.chatParticipant(PARTICIPANT)!;
    const result = (await participant.requestHandler(
      { prompt, command, references: [], toolReferences: [], toolInvocationToken: undefined, model },
      { history },
      stream,
      token,
    )) as {
      metadata?: { sessionKey: string; answer?: string };
      errorDetails?: { message: string };
    };
    return { stream, result };
  }

  it('answers with the request’s model from the whole history plus the prompt, and records the answer', async () => {
    const { stream, result } = await ask('And the logout button?', historyOf(TURNS));
    const sent = model.requests[0]!;
    expect(sent).toHaveLength(TURNS.length * 2 + 1);
    expect(sent[0]!.role).toBe(LanguageModelChatMessageRole.User);
    expect(textOf(sent[0]!)).toBe(TURNS[0]![0]);
    expect(textOf(sent[1]!)).toBe(TURNS[0]![1]);
    expect(textOf(sent.at(-1)!)).toBe('And the logout button?');
    expect(stream.text).toBe('Here is my answer.');
    expect(result.metadata?.answer).toBe('Here is my answer.');
    // The session is the active conversation, counted by the chat model against its own window.
    const session = host.api.store.get(result.metadata!.sessionKey)!;
    expect(host.api.store.active()!.key).toBe(session.key);
    expect(session.kind).toBe('chat');
    expect(session.report).toMatchObject({ window: 100_000, method: 'exact', exact: true, messageCount: TURNS.length * 2 });
    expect(fake.statusBarItem('contextCompactor.meter')!.accessibilityInformation!.label).toBe(
      `Context Compactor: ${session.report.total} / 100000 tokens (${session.report.percent.toFixed(1)}%) — ${session.label}`,
    );
  });

  it('keys a session by its first turn, stable from the first request on', async () => {
    const first = await ask(TURNS[0]![0], []);
    const later = await ask('Next question', historyOf(TURNS));
    expect(later.result.metadata!.sessionKey).toBe(first.result.metadata!.sessionKey);
    expect(sessionKeyOf(historyOf(TURNS.slice(1)), { prompt: 'x' })).not.toBe(first.result.metadata!.sessionKey);
  });

  it('counts each message once with countTokens: a new turn costs the new messages only', async () => {
    await ask('q1', historyOf(TURNS.slice(0, 4)));
    const afterFirst = model.counted;
    await ask('q2', historyOf(TURNS));
    // Two new history messages plus the new prompt.
    expect(model.counted - afterFirst).toBe(3);
  });

  it('proposes compaction at the trigger with buttons, and compacts only when the button is clicked', async () => {
    model = fakeChatModel({ maxInputTokens: 300, reply: () => 'ok' });
    const { stream, result } = await ask('What next?', historyOf(TURNS));
    const key = result.metadata!.sessionKey;
    expect(stream.text).toMatch(/This conversation uses [\d,]+ of 300 tokens/);
    expect(stream.buttons[0]).toMatchObject({ command: 'contextCompactor.compactSession', title: 'Compact Conversation', arguments: [key] });
    expect(stream.buttons[1]).toMatchObject({ command: 'contextCompactor.inspect', arguments: [key] });
    expect(engine.calls.compact).toBe(0);
    // The answer still comes, from the raw history.
    expect(model.requests[0]).toHaveLength(TURNS.length * 2 + 1);
    expect(result.metadata?.answer).toBe('ok');

    const before = host.api.store.get(key)!.report.total;
    await fake.command('contextCompactor.compactSession')!(key);
    expect(engine.calls.compact).toBe(1);
    expect(host.api.store.get(key)!.report.total).toBeLessThan(before);

    // The next request sends the compacted history: the summary first, then the recent rounds.
    await ask('And now?', historyOf(TURNS));
    const sent = model.requests.at(-1)!;
    expect(textOf(sent[0]!)).toContain('## Primary Request and Intent');
    expect(textOf(sent[0]!)).toContain('login form');
    expect(sent.length).toBeLessThan(TURNS.length * 2 + 1);
    expect(textOf(sent.at(-2)!)).toBe(TURNS.at(-1)![1]);
    expect(textOf(sent.at(-1)!)).toBe('And now?');
  });

  it('compacts by itself at the trigger when confirmation is off, and reports the savings', async () => {
    fake.setConfig('contextCompactor.requireConfirmation', false);
    model = fakeChatModel({ maxInputTokens: 300, reply: () => 'ok' });
    const { stream } = await ask('What next?', historyOf(TURNS));
    expect(engine.calls.compact).toBe(1);
    expect(stream.text).toMatch(/reached \d+% of its window, so it was compacted first/);
    expect(stream.text).toMatch(/\*\*Compacted: \d{1,3}(?:,\d{3})* → \d{1,3}(?:,\d{3})* tokens/);
    expect(stream.text).toContain('| Saved |');
    expect(stream.buttons.map((b) => b.command)).toEqual(['contextCompactor.undoSession', 'contextCompactor.inspect']);
    expect(textOf(model.requests[0]![0]!)).toContain('## All user messages');
  });

  it('/compact compacts now with the given focus; /undo restores; a second /undo has nothing to do', async () => {
    let focus: string | undefined;
    engine.beforeReturn = (opts) => {
      focus = opts.focus;
    };
    const history = historyOf(TURNS);
    const compacted = await ask('focus on the refresh flow', history, 'compact');
    expect(focus).toBe('focus on the refresh flow');
    expect(compacted.stream.text).toContain('Focus: focus on the refresh flow');
    const key = compacted.result.metadata!.sessionKey;
    const raw = host.api.store.get(key)!;
    expect(raw.compactions).toBe(1);
    // Slash-command turns are bookkeeping: they do not enter the conversation.
    const withCommand = [...history, ...historyOf([['focus on the refresh flow', 'compacted']], 'compact')];
    const undone = await ask('', withCommand, 'undo');
    expect(undone.stream.text).toMatch(/Restored the conversation as it was before the last compaction/);
    expect(host.api.store.get(key)!.compactions).toBe(0);
    expect(host.api.store.get(key)!.conversation.messages).toHaveLength(TURNS.length * 2);
    const again = await ask('', withCommand, 'undo');
    expect(again.stream.text).toBe('Nothing to undo');
  });

  it('/usage shows the breakdown as a Markdown table', async () => {
    const { stream } = await ask('', historyOf(TURNS), 'usage');
    expect(stream.text).toMatch(/^\*\*[\d,]+ of 100,000 tokens \(\d+\.\d%\)\*\*/);
    expect(stream.text).toContain('| Category | Tokens | Share |');
    expect(stream.text).toMatch(/\| User \| [\d,]+ \| \d+\.\d% \|/);
    expect(stream.text).toMatch(/\| Assistant \| [\d,]+ \| \d+\.\d% \|/);
    expect(stream.text).toContain('Compactions so far: 0.');
    expect(model.requests).toHaveLength(0);
  });

  it('/inspect opens the inspector for the session; /export writes the file the user picks', async () => {
    const shown: string[] = [];
    host.api.inspector.show = (key: string) => void shown.push(key);
    const { result } = await ask('', historyOf(TURNS), 'inspect');
    expect(shown).toEqual([result.metadata!.sessionKey]);
    const target = join(fake.state.workspaceRoot!, 'chat.md');
    fake.answers.quickPick.push((items) => items[0]);
    fake.answers.saveDialog.push(Uri.file(target));
    const exported = await ask('', historyOf(TURNS), 'export');
    expect(exported.stream.text).toBe('Exported to chat.md.');
    expect(readFileSync(target, 'utf8')).toContain(TURNS[0]![0]);
  });

  it('reports a failing model as an error result, without throwing', async () => {
    model = fakeChatModel({
      reply: () => {
        throw new Error('rate limited');
      },
    });
    const { stream, result } = await ask('hello', []);
    expect(result.errorDetails?.message).toBe('The language model could not answer: rate limited');
    expect(stream.text).toContain('rate limited');
  });

  it('stops quietly when the request is cancelled', async () => {
    const source = new CancellationTokenSource();
    source.cancel();
    const { result } = await ask('hello', historyOf(TURNS), undefined, source.token);
    expect(result.errorDetails).toBeUndefined();
  });

  it('says so when a proposal button outlives its session', async () => {
    await fake.command('contextCompactor.compactSession')!('chat:unknown');
    expect(fake.messages.at(-1)!.message).toContain('no longer loaded');
  });
});
