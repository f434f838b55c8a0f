// @compactor with the REAL engine (no stand-in): a chat session made of the turns of a real
// aider history is compacted by /compact and at the trigger; the model then receives the
// summary (the 8 sections) plus the recent rounds instead of the raw history; /undo restores it.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import { messageText } from '../../src/engine/conversation/model';
import { SECTION_NAMES } from '../../src/engine/sections';
import { transcriptPath } from '../helpers/transcripts';
import { activateHost, type ActivatedHost } from '../fakes/extensionHost';
import {
  CancellationTokenSource,
  ChatRequestTurn,
  ChatResponseMarkdownPart,
  ChatResponseTurn,
  FakeChatResponseStream,
  LanguageModelTextPart,
  fake,
  fakeChatModel,
  resetFake,
  type LanguageModelChatMessage,
} from '../fakes/vscode';

const PARTICIPANT = 'context-compactor.compactor';
const SOURCE = 'aider/AFI-Protocol__afi-core.aider.chat.history.md';
const ROUNDS = 14;

/** Question/answer pairs from a real aider session: each user message and the assistant's reply. */
function realTurns(): [string, string][] {
  const file = transcriptPath(SOURCE);
  const messages = importTranscript(readFileSync(file, 'utf8'), { sourcePath: file, wholeFile: true }).conversation.messages;
  const turns: [string, string][] = [];
  for (let i = 0; i < messages.length - 1 && turns.length < ROUNDS; i++) {
    const q = messages[i]!;
    const a = messages[i + 1]!;
    if (q.role === 'user' && a.role === 'assistant' && messageText(q).trim() && messageText(a).trim()) turns.push([messageText(q), messageText(a)]);
  }
  return turns;
}

function historyOf(turns: [string, string][]): unknown[] {
  return turns.flatMap(([q, a]) => [
    new ChatRequestTurn(q, undefined, [], PARTICIPANT),
    new ChatResponseTurn([new ChatResponseMarkdownPart(a)], { metadata: { answer: a } }, PARTICIPANT),
  ]);
}

const textOf = (m: LanguageModelChatMessage) => m.content.map((p) => (p instanceof LanguageModelTextPart ? p.value : '')).join('');

describe('@compactor with the real engine', () => {
  let host: ActivatedHost;
  let model: ReturnType<typeof fakeChatModel>;
  const turns = realTurns();

  beforeEach(() => {
    resetFake();
    fake.setWorkspaceRoot(mkdtempSync(join(tmpdir(), 'ctxc-chat-real-')));
    host = activateHost();
    model = fakeChatModel({ maxInputTokens: 200_000, reply: () => 'ok' });
  });
  afterEach(() => host.deactivate());

  async function ask(prompt: string, history: unknown[], command?: string) {
    const stream = new FakeChatResponseStream();
    const participant = fake.chatParticipant(PARTICIPANT)!;
    const result = (await participant.requestHandler(
      { prompt, command, references: [], toolReferences: [], toolInvocationToken: undefined, model },
      { history },
      stream,
      new CancellationTokenSource().token,
    )) as {
      metadata?: { sessionKey: string };
      errorDetails?: { message: string };
    };
    return { stream, result };
  }

  it('uses a real session of several rounds', () => {
    expect(turns.length).toBe(ROUNDS);
  });

  it('/compact summarizes the older rounds; the next request sends the summary and the recent rounds; /undo restores', async () => {
    const history = historyOf(turns);
    const { stream, result } = await ask('', history, 'compact');
    expect(result.errorDetails).toBeUndefined();
    expect(stream.text).toMatch(/\*\*Compacted: \d{1,3}(?:,\d{3})* → \d{1,3}(?:,\d{3})* tokens/);
    const key = result.metadata!.sessionKey;
    const session = host.api.store.get(key)!;
    expect(session.compactions).toBe(1);
    expect(session.lastResult!.tokensAfter).toBeLessThan(session.lastResult!.tokensBefore);

    await ask('What is left to do?', history);
    const sent = model.requests.at(-1)!;
    expect(sent.length).toBeLessThan(turns.length * 2 + 1);
    const summary = sent.map(textOf).find((t) => t.includes('## Primary Request and Intent'))!;
    for (const section of SECTION_NAMES) expect(summary).toContain(`## ${section}`);
    // The recent rounds are sent verbatim, then the new prompt.
    expect(textOf(sent.at(-2)!)).toBe(turns.at(-1)![1]);
    expect(textOf(sent.at(-1)!)).toBe('What is left to do?');

    const undone = await ask('', history, 'undo');
    expect(undone.stream.text).toMatch(/Restored the conversation/);
    expect(host.api.store.get(key)!.conversation.messages.map(messageText)).toEqual(turns.flat());
  });

  it('/compact on a session too short to compact says so, and answers still come at the trigger', async () => {
    const short = historyOf(turns.slice(0, 2));
    const { stream, result } = await ask('', short, 'compact');
    expect(result.errorDetails).toBeUndefined();
    expect(stream.text).toMatch(/^Nothing to compact: /);
    expect(host.api.store.get(result.metadata!.sessionKey)!.compactions).toBe(0);
    // Over the trigger with nothing to compact: no failure, the answer comes from the history.
    fake.setConfig('contextCompactor.requireConfirmation', false);
    model = fakeChatModel({ maxInputTokens: 200, reply: () => 'still here' });
    const answered = await ask('Next?', short);
    expect(answered.result.errorDetails).toBeUndefined();
    expect(answered.stream.text).toContain('still here');
  });

  it('compacts by itself at the trigger when confirmation is off, before answering', async () => {
    fake.setConfig('contextCompactor.requireConfirmation', false);
    const history = historyOf(turns);
    const probe = await ask('', history, 'usage');
    const total = host.api.store.get(probe.result.metadata!.sessionKey)!.report.total;
    // A window the session fills to ~90%: above the default trigger of 80%.
    model = fakeChatModel({ maxInputTokens: Math.ceil(total / 0.9), reply: () => 'ok' });
    const { stream } = await ask('Next?', history);
    expect(stream.text).toMatch(/so it was compacted first/);
    expect(textOf(model.requests[0]![0]!)).toContain('## All user messages');
  });
});
