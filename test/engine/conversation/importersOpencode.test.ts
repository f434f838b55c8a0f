// opencode sessions (exports the real opencode 1.18.33 wrote, test/fixtures/opencode, made by
// scripts/agents/captureOpencodeFixtures.mjs) are read as opencode sends them: after an automatic
// compaction only "What did we do so far?", the summary, the recent turns the compaction kept (after
// the summary, though older) and what followed — the same messages, in the same order, as the
// request the real CLI sent, captured beside the export; everything older is history. Tool calls
// pair with their results (a failed glob is an error), run's quotes are taken off the prompts, and
// the usage of the last request recorded after the summary is the meter's figure. Then the cases the
// CLI rarely writes, built on a real export: an errored message, an aborted one, an interrupted tool
// call, a pruned output, reasoning, several steps in one message, attachments, unknown parts.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, importTranscript } from '../../../src/engine/conversation/importers/detect';
import { OPENCODE_COMPACTION_QUESTION, unquoteRunPrompt } from '../../../src/engine/conversation/importers/opencode';
import { isUserAuthored, messageText, type Message } from '../../../src/engine/conversation/model';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { tokenReport } from '../../../src/engine/tokens/report';
import { calibrate } from '../../../src/engine/tokens/calibration';
import { apiShapeProblems } from '../../helpers/toolPairingCheck';

const dir = join(__dirname, '../..', 'fixtures', 'opencode');
const text = (name: string) => readFileSync(join(dir, name), 'utf8');
type Export = { info: Record<string, unknown>; messages: { info: Record<string, unknown>; parts: Record<string, unknown>[] }[] };
const exported = (name: string) => JSON.parse(text(name)) as Export;
const load = (value: unknown) => importTranscript(JSON.stringify(value), { sourcePath: 'session.json' });

/** A request's messages as (role, text) — the quotes `opencode run` put around prompts taken off. */
function sentShape(messages: { role: string; content: unknown; tool_calls?: { function: { name: string } }[] }[]): string[] {
  return messages
    .filter((m) => m.role !== 'system')
    .map((m) => {
      const content = typeof m.content === 'string' ? m.content : '';
      const calls = (m.tool_calls ?? []).map((c) => `call:${c.function.name}`).join(',');
      return `${m.role}:${m.role === 'user' ? unquoteRunPrompt(content) : content}${calls ? ` ${calls}` : ''}`;
    });
}

function ourShape(messages: readonly Message[]): string[] {
  return messages.map((m) => {
    const calls = (m.toolCalls ?? []).map((c) => `call:${c.name}`).join(',');
    return `${m.role}:${messageText(m)}${calls ? ` ${calls}` : ''}`;
  });
}

describe('an opencode session the real CLI wrote', () => {
  const raw = exported('tools-compaction.export.json');
  const result = importTranscript(text('tools-compaction.export.json'), { sourcePath: 'tools-compaction.export.json' });
  const conv = result.conversation;

  it('is detected as opencode and sends what the real CLI sent after its compaction, in that order', () => {
    expect(detectFormat(text('tools-compaction.export.json'))).toBe('opencode');
    // requests.json: the request that filled the window, the summary call, the first request after.
    const requests = JSON.parse(text('requests.json')) as { messages: Parameters<typeof sentShape>[0] }[];
    const after = requests.find((r) => r.messages.some((m) => m.content === OPENCODE_COMPACTION_QUESTION));
    const sent = sentShape(after!.messages);
    expect(sent[0]).toBe(`user:${OPENCODE_COMPACTION_QUESTION}`);
    expect(ourShape(conv.messages).slice(0, sent.length)).toEqual(sent);
    expect(apiShapeProblems(conv.messages)).toEqual([]);
  });

  it('marks the summary, the question and the synthetic turn as what they are, and the prompts as the person’s', () => {
    const kinds = conv.messages.map((m) => m.itemType);
    expect(kinds.slice(0, 2)).toEqual(['SKILL_METADATA', 'COMPACTION_SUMMARY']);
    expect(messageText(conv.messages[1]!)).toContain('SUMMARY-OF-OPENCODE');
    const users = conv.messages.filter(isUserAuthored).map(messageText);
    expect(users).toEqual(['FIND-FILES find the text files', 'summarize the ledger', 'after the compaction']);
    const harness = conv.messages.filter((m) => m.itemType === 'SKILL_METADATA').map(messageText);
    expect(harness[1]).toMatch(/^Continue if you have next steps/);
    // The failed glob is an error result of its call.
    const glob = conv.messages.find((m) => m.toolCalls?.[0]?.name === 'glob')!;
    const result = conv.messages.find((m) => m.toolResult?.toolCallId === glob.toolCalls![0]!.id)!;
    expect(result.toolResult).toMatchObject({ isError: true, toolName: 'glob' });
    expect(messageText(result)).toBe('ripgrep execution failed');
  });

  it('keeps what the compaction summarized as history: the first turns and their tool output', () => {
    const history = result.history!.conversation.messages;
    expect(history.filter(isUserAuthored).map(messageText)).toEqual(['hello one', 'READ-NOTES please read notes.txt']);
    expect(history.some((m) => m.toolResult && messageText(m).includes('NOTE-2: the port is 8443'))).toBe(true);
    expect(conv.messages.some((m) => messageText(m).includes('NOTE-2'))).toBe(false);
    // Five of opencode's messages: two prompts, an answer, the read call's message and the answer after it.
    expect(result.history).toMatchObject({ lines: 5, beforeBoundary: 5, otherBranches: 0 });
  });

  it('records the session’s own facts and the usage of its last request', async () => {
    expect(conv.meta).toMatchObject({ sessionId: raw.info['id'], cwd: '/work/ws', agentVersion: '1.18.33', model: 'fake-model', title: 'Ledger review' });
    const last = raw.messages[raw.messages.length - 1]!;
    const tokens = last.info['tokens'] as { input: number; cache: { read: number; write: number } };
    expect(conv.meta.reportedUsage).toMatchObject({
      source: 'opencode',
      tokens: tokens.input + tokens.cache.read + tokens.cache.write,
      atMessageId: last.info['id'],
    });
    // The meter builds on it: within −5%/+15% of the recorded request.
    const counter = await createTokenCounter(conv.meta.model);
    const cal = calibrate(conv.messages, conv.meta.reportedUsage!, counter)!;
    const total = tokenReport(conv.messages, counter).total + cal.overhead;
    expect(total / conv.meta.reportedUsage!.tokens).toBeGreaterThan(0.95);
    expect(total / conv.meta.reportedUsage!.tokens).toBeLessThan(1.15);
  });

  it('reads a sub-agent’s task call with its result, and the sub-agent’s own session', () => {
    const parent = load(exported('subagent.export.json')).conversation;
    const task = parent.messages.find((m) => m.toolCalls?.[0]?.name === 'task')!;
    expect(JSON.parse(task.toolCalls![0]!.arguments)).toMatchObject({ subagent_type: 'general' });
    expect(parent.messages.some((m) => m.toolResult?.toolCallId === task.toolCalls![0]!.id && messageText(m).includes('The notes have two lines.'))).toBe(true);
    const child = load(exported('subagent-child.export.json')).conversation;
    expect(child.messages.filter(isUserAuthored).map(messageText)).toEqual(['SUBTASK: count the notes lines']);
  });
});

describe('opencode parts the CLI rarely writes', () => {
  const base = exported('tools-compaction.export.json');
  const first = base.messages.slice(0, 2);
  /** The first turn of the real export, its assistant message's parts replaced. */
  const withAssistant = (parts: Record<string, unknown>[], info: Record<string, unknown> = {}) => ({
    info: base.info,
    messages: [first[0], { info: { ...first[1]!.info, ...info }, parts: parts.map((p, i) => ({ id: `prt_x${i}`, ...p })) }],
  });

  it('leaves out a message that ended in an error, but sends an aborted one that produced something', () => {
    const failed = load(withAssistant([{ type: 'step-start' }, { type: 'text', text: 'half' }], { error: { name: 'APIError', data: {} } })).conversation;
    expect(failed.messages.map((m) => m.role)).toEqual(['user']);
    const aborted = load(
      withAssistant([{ type: 'step-start' }, { type: 'text', text: 'half an answer' }], { error: { name: 'MessageAbortedError', data: {} } }),
    );
    expect(aborted.conversation.messages.map(messageText)).toEqual(['hello one', 'half an answer']);
  });

  it('reads tool states, pruned outputs, reasoning and the steps of one message as opencode sends them', () => {
    const conv = load(
      withAssistant([
        { type: 'step-start' },
        { type: 'reasoning', text: 'thinking it over' },
        { type: 'tool', tool: 'bash', callID: 'c1', state: { status: 'running', input: { command: 'ls' }, time: { start: 1 } } },
        { type: 'tool', tool: 'read', callID: 'c2', state: { status: 'completed', input: {}, output: 'OLD OUTPUT', time: { start: 1, end: 2, compacted: 3 } } },
        { type: 'step-finish', tokens: { input: 100, output: 5, cache: { read: 900, write: 40 } } },
        { type: 'step-start' },
        { type: 'text', text: 'second step' },
        { type: 'patch', hash: 'x', files: [] },
        { type: 'mystery', what: 1 },
        { type: 'step-finish', tokens: { input: 50, output: 5, cache: { read: 1200, write: 0 } } },
      ]),
    );
    const m = conv.conversation.messages;
    expect(m.map((x) => x.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(m[1]!.content).toEqual([{ type: 'thinking', text: 'thinking it over' }]);
    expect(m[2]).toMatchObject({ content: [{ type: 'text', text: '[Tool execution was interrupted]' }], toolResult: { toolCallId: 'c1', isError: true } });
    expect(messageText(m[3]!)).toBe('[Old tool result content cleared]');
    expect(messageText(m[4]!)).toBe('second step');
    // The last step's request is the figure, answered by the second step.
    expect(conv.conversation.meta.reportedUsage).toMatchObject({ tokens: 1250, parts: { input: 50, cacheRead: 1200 }, atMessageId: m[4]!.id });
    expect(conv.warnings.map((w) => w.message).join('\n')).toMatch(/types the conversation does not model: mystery \(1\)/);
  });

  it('reads attachments as placeholders, leaves ignored text out, and takes run’s quotes off only a quoted prompt', () => {
    const conv = load({
      info: base.info,
      messages: [
        {
          info: first[0]!.info,
          parts: [
            { type: 'text', text: '"say \\"hi\\" to the team"' },
            { type: 'text', text: 'never sent', ignored: true },
            { type: 'file', mime: 'image/png', filename: 'shot.png', url: 'data:image/png;base64,AAAA' },
            { type: 'file', mime: 'text/plain', filename: 'a.txt', url: 'file:///a.txt' },
          ],
        },
      ],
    }).conversation;
    expect(conv.messages[0]!.content).toEqual([
      { type: 'text', text: 'say "hi" to the team' },
      { type: 'image', placeholder: '[file shot.png: image/png]', mediaType: 'image/png' },
    ]);
    expect(unquoteRunPrompt('"one"')).toBe('"one"');
    expect(unquoteRunPrompt('fix "the bug"')).toBe('fix "the bug"');
  });

  it('reads an empty session as one with no messages yet, and says what is not an opencode export', () => {
    const empty = load({ info: base.info, messages: [] });
    expect(empty.conversation.messages).toEqual([]);
    expect(empty.warnings.map((w) => w.message)).toContain('the session holds no messages yet');
    const odd = load({ info: base.info, messages: [first[0], 'not a message'] });
    expect(odd.warnings[0]).toMatchObject({ position: 'messages[1]' });
    expect(() => importTranscript(JSON.stringify({ info: { id: 'x' }, messages: [{ parts: [] }] }))).toThrow(/none with a 'role'/);
  });
});
