// The VS Code language-model adapter behind the vscode-lm summarizer: one request with the
// instructions and the span, text streamed back, VS Code's errors classified for the retry policy.
import { describe, expect, it } from 'vitest';
import { SummarizerError } from '../../src/engine/llm/errors';
import { classifyLmError, VscodeLmClient, selectSummaryModel } from '../../src/extension/summarizers/vscodeLmClient';
import { CancellationError, LanguageModelError, type LanguageModelTextPart, fake, fakeChatModel, resetFake } from '../fakes/vscode';
import type * as vscode from 'vscode';

const asModel = (m: ReturnType<typeof fakeChatModel>) => m as unknown as vscode.LanguageModelChat;

describe('VscodeLmClient', () => {
  it('sends the instructions and the span as one user message and streams the reply', async () => {
    const model = fakeChatModel({ id: 'copilot-gpt-4o', reply: () => '<summary>## Primary Request and Intent\nFix the login bug.</summary>' });
    const client = new VscodeLmClient(asModel(model));
    const deltas: string[] = [];
    const out = await client.complete({ system: 'You summarize.', user: 'Conversation: …', maxTokens: 1000, onDelta: (d) => deltas.push(d) });
    expect(client.name).toBe('vscode-lm');
    expect(client.model).toBe('copilot-gpt-4o');
    expect(out.text).toBe('<summary>## Primary Request and Intent\nFix the login bug.</summary>');
    expect(deltas.join('')).toBe(out.text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(out.model).toBe('copilot-gpt-4o');
    const [sent] = model.requests;
    expect(sent).toHaveLength(1);
    expect((sent![0]!.content[0] as LanguageModelTextPart).value).toBe('You summarize.\n\nConversation: …');
  });

  it('rejects with kind "cancelled" when the signal fires, before or during the request', async () => {
    const client = new VscodeLmClient(asModel(fakeChatModel()));
    const controller = new AbortController();
    controller.abort();
    await expect(client.complete({ system: 's', user: 'u', maxTokens: 10, signal: controller.signal })).rejects.toMatchObject({
      name: 'SummarizerError',
      kind: 'cancelled',
    });
    const during = new AbortController();
    const slow = new VscodeLmClient(asModel(fakeChatModel({ reply: () => 'x'.repeat(200) })));
    const p = slow.complete({ system: 's', user: 'u', maxTokens: 10, signal: during.signal, onDelta: () => during.abort() });
    await expect(p).rejects.toMatchObject({ kind: 'cancelled' });
  });

  it('classifies VS Code’s language-model errors', () => {
    expect(classifyLmError(LanguageModelError.NoPermissions('denied'), 'GPT-4o')).toMatchObject({ kind: 'authentication' });
    expect(classifyLmError(LanguageModelError.Blocked('quota'), 'GPT-4o')).toMatchObject({ kind: 'rateLimit' });
    expect(classifyLmError(LanguageModelError.NotFound('gone'), 'GPT-4o').message).toContain('Select Summarizer and Model');
    expect(classifyLmError(new CancellationError(), 'GPT-4o')).toMatchObject({ kind: 'cancelled' });
    const unknown = classifyLmError(new Error('socket hang up'), 'GPT-4o');
    expect(unknown).toBeInstanceOf(SummarizerError);
    expect(unknown.message).toContain('socket hang up');
  });

  it('picks the configured model, never silently another one', async () => {
    resetFake();
    fake.setLmModels([fakeChatModel({ id: 'a' }), fakeChatModel({ id: 'b' })]);
    expect((await selectSummaryModel('b'))?.id).toBe('b');
    expect((await selectSummaryModel(''))?.id).toBe('a');
    expect(await selectSummaryModel('missing')).toBeUndefined();
  });
});
