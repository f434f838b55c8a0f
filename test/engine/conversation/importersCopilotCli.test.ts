// GitHub Copilot CLI's events.jsonl read as Copilot sends it on resume: checked against the
// requests the real CLI 1.0.102 sent for the captured session (test/fixtures/copilot-cli/: a turn
// with a tool call, a turn whose tool failed, Copilot's own /compact, a turn after it), and against
// the replay rules verified with the real CLI (what a compaction keeps and quotes, the failed tool's
// text, the usage it records).

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotSummaryText, importCopilotCli } from '../../../src/engine/conversation/importers/copilotCli';
import { detectFormat, importTranscript } from '../../../src/engine/conversation/importers/detect';
import { isUserAuthored, messageText, type Message } from '../../../src/engine/conversation/model';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { tokenReport } from '../../../src/engine/tokens/report';
import { repoRoot } from '../../helpers/transcripts';

const dir = join(repoRoot, 'test', 'fixtures', 'copilot-cli');
const text = readFileSync(join(dir, 'events.jsonl'), 'utf8');
const lines = text.trimEnd().split('\n');
interface Sent {
  role: string;
  content?: string | null;
  contentSha256?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}
const requests = JSON.parse(readFileSync(join(dir, 'requests.json'), 'utf8')) as Record<string, { messages: Sent[] }>;

/** Our messages as Copilot puts them on the wire: the system prompt (hashed, as captured), one user
 *  message per user.message event (its notes and request joined back), answers with their calls,
 *  tool results. */
function asWire(messages: readonly Message[]): Sent[] {
  const out: Sent[] = [];
  let line: number | undefined;
  for (const m of messages) {
    if (m.role === 'system') out.push({ role: 'system', contentSha256: createHash('sha256').update(messageText(m)).digest('hex') });
    else if (m.role === 'user' && m.source?.line === line && out.at(-1)?.role === 'user') out.at(-1)!.content += `\n\n${messageText(m)}`;
    else if (m.role === 'user') out.push({ role: 'user', content: messageText(m) });
    else if (m.role === 'tool') out.push({ role: 'tool', content: messageText(m), tool_call_id: m.toolResult!.toolCallId });
    else
      out.push({
        role: 'assistant',
        content: messageText(m) || null,
        ...(m.toolCalls ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, function: { name: c.name, arguments: c.arguments } })) } : {}),
      });
    line = m.role === 'user' ? m.source?.line : undefined;
  }
  return out;
}

function wireOf(sent: readonly Sent[]): Sent[] {
  return sent.map((m) => ({
    role: m.role,
    ...(m.role === 'system' ? { contentSha256: m.contentSha256! } : { content: m.content ?? null }),
    ...(m.tool_calls ? { tool_calls: m.tool_calls.map((c) => ({ id: c.id, function: { name: c.function.name, arguments: c.function.arguments } })) } : {}),
    ...(m.tool_call_id ? { tool_call_id: m.tool_call_id } : {}),
  }));
}

const ev = (type: string, data: Record<string, unknown>, n: number) =>
  JSON.stringify({ type, data, id: `e${n}`, timestamp: '2026-11-27T00:00:00.000Z', parentId: n > 1 ? `e${n - 1}` : null });

describe('a Copilot CLI events.jsonl captured from the real CLI', () => {
  const result = importTranscript(text, { sourcePath: 'events.jsonl' });
  const conv = result.conversation;

  it('is detected and read as Copilot CLI, with the session’s facts', () => {
    expect(detectFormat(text)).toBe('copilot-cli');
    expect(detectFormat(text, 'events.jsonl')).toBe('copilot-cli');
    expect(conv.format).toBe('copilot-cli');
    expect(conv.meta).toMatchObject({
      sessionId: 'c7ef6441-c502-462f-9c6f-03976003c6c8',
      cwd: '/tmp/fx/cop/work',
      agentVersion: '1.0.102',
      model: 'fake-model',
    });
  });

  it('sends what the real CLI sent after its compaction: system prompt, the summary quoting the requests, the new turn', () => {
    const answer = conv.messages.at(-1)!;
    expect(answer.role).toBe('assistant');
    expect(asWire(conv.messages.slice(0, -1))).toEqual(wireOf(requests['afterCompaction']!.messages));
    expect(conv.messages.find((m) => m.itemType === 'COMPACTION_SUMMARY')).toBeDefined();
    // The request is the person's words; Copilot's date line is a note of its own.
    expect(conv.messages.filter(isUserAuthored).map(messageText)).toEqual(['TURN-charlie: what is next after the compaction?']);
  });

  it('keeps what the compaction replaced as history, not counted', () => {
    expect(result.history?.conversation.messages.map((m) => m.role)).toEqual([
      'user',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(result.warnings.map((w) => w.message)).toContain('10 messages were replaced by 1 compaction: read as history, not counted');
  });

  it('before the compaction sends what the real CLI sent then, a failed tool as its error message', () => {
    const start = lines.findIndex((l) => l.includes('"session.compaction_start"'));
    const before = importCopilotCli(lines.slice(0, start).join('\n')).conversation;
    const sent = wireOf(requests['beforeCompaction']!.messages);
    const ours = asWire(before.messages).slice(0, sent.length);
    // In its own process Copilot sent the tool's longer message; resumed, it sends error.message.
    expect(sent.at(-1)!.content).toBe('Path /tmp/fx/cop/work/notes-bravo.txt does not exist. Please provide a valid path.');
    expect(ours.at(-1)!.content).toBe('Path does not exist');
    expect(ours.slice(0, -1)).toEqual(sent.slice(0, -1));
    expect(before.messages.find((m) => m.toolResult?.isError)?.toolResult?.toolName).toBe('view');
  });

  it('meters from the last usage record: within −5 %/+15 % of what Copilot recorded for its last request', async () => {
    const records = lines.map((l) => JSON.parse(l) as { type: string; data: { usage?: { inputTokens: number; maxPromptTokens: number } } });
    const last = records.filter((r) => r.type === 'session.usage_record').at(-1)!.data.usage!;
    const usage = conv.meta.reportedUsage!;
    expect(usage).toMatchObject({
      tokens: last.inputTokens,
      source: 'copilot-cli',
      contextWindow: last.maxPromptTokens,
      atMessageId: conv.messages.at(-1)!.id,
    });
    const counter = await createTokenCounter(conv.meta.model);
    const total = tokenReport(conv.messages, counter, conv.meta).total;
    expect(total).toBeGreaterThanOrEqual(last.inputTokens * 0.95);
    expect(total).toBeLessThanOrEqual(last.inputTokens * 1.15);
  });
});

describe('Copilot CLI replay rules', () => {
  const start = ev('session.start', { sessionId: 's1', copilotVersion: '1.0.102', context: { cwd: '/w' } }, 1);
  const user = (n: number, content: string) => ev('user.message', { content, transformedContent: `<current_datetime>T</current_datetime>\n\n${content}` }, n);
  const answer = (n: number, content: string) => ev('assistant.message', { messageId: `m${n}`, content, toolRequests: [] }, n);
  const compaction = (n: number, id: string, summary: string) => [
    ev('session.compaction_start', { compactionAttemptId: id, trigger: 'manual' }, n),
    ev('session.compaction_complete', { success: true, outcome: 'applied', compactionAttemptId: id, summaryContent: summary }, n + 1),
  ];

  it('a later compaction quotes every request since the session began, as Copilot did', () => {
    const events = [
      start,
      user(2, 'first'),
      answer(3, 'a1'),
      user(4, 'second'),
      answer(5, 'a2'),
      ...compaction(6, 'c1', 'S1'),
      user(8, 'third'),
      answer(9, 'a3'),
    ];
    events.push(...compaction(10, 'c2', 'S2'), user(12, 'fourth'));
    const conv = importCopilotCli(events.join('\n')).conversation;
    const summary = conv.messages.find((m) => m.itemType === 'COMPACTION_SUMMARY')!;
    expect(messageText(summary)).toBe(copilotSummaryText(['first', 'second', 'third'], 'S2'));
    expect(messageText(summary)).toBe(
      'Some of the conversation history has been summarized to free up context.\n\nYou were originally given instructions from a user over one or more turns. Here were the user messages:\n<user_message>\nfirst\n</user_message>\n<user_message>\nsecond\n</user_message>\n<user_message>\nthird\n</user_message>\n\nHere is a summary of the prior context:\n<summary>\nS2\n</summary>\n',
    );
    expect(conv.messages.filter(isUserAuthored).map(messageText)).toEqual(['fourth']);
    // With no request before it, the summary is introduced without the quotes (as the real CLI sent).
    expect(copilotSummaryText([], 'S')).toBe(
      'Some of the conversation history has been summarized to free up context.\n\nHere is a summary of the prior context:\n<summary>\nS\n</summary>\n',
    );
  });

  it('messages added while a background compaction ran stay after the summary; a cancelled one changes nothing', () => {
    const events = [
      start,
      user(2, 'first'),
      answer(3, 'a1'),
      ev('session.compaction_start', { compactionAttemptId: 'c1', trigger: 'threshold' }, 4),
      answer(5, 'during'),
    ];
    const cancelled = importCopilotCli(
      [...events, ev('session.compaction_complete', { success: false, outcome: 'cancelled', compactionAttemptId: 'c1' }, 6)].join('\n'),
    ).conversation;
    expect(cancelled.messages.map(messageText)).toEqual(['<current_datetime>T</current_datetime>', 'first', 'a1', 'during']);
    const applied = importCopilotCli(
      [...events, ev('session.compaction_complete', { success: true, compactionAttemptId: 'c1', summaryContent: 'S' }, 6)].join('\n'),
    );
    expect(applied.conversation.messages.map((m) => m.itemType)).toEqual(['COMPACTION_SUMMARY', 'ASSISTANT_MESSAGE']);
    expect(messageText(applied.conversation.messages[1]!)).toBe('during');
  });

  it('takes the latest system prompt, leaves sub-agents out and warns of truncations it does not model', () => {
    const events = [
      start,
      ev('system.message', { role: 'system', content: 'old prompt' }, 2),
      user(3, 'first'),
      ev('assistant.message', { messageId: 'x', content: 'sub-agent words', parentToolCallId: 't1' }, 4),
      ev('system.message', { role: 'system', content: 'new prompt' }, 5),
      ev('session.truncation', { messagesRemovedDuringTruncation: 1 }, 6),
      answer(7, 'a1'),
    ];
    const result = importCopilotCli(events.join('\n'));
    expect(result.conversation.messages.map(messageText)).toEqual(['new prompt', '<current_datetime>T</current_datetime>', 'first', 'a1']);
    expect(result.warnings.map((w) => w.message).join('\n')).toMatch(/1 sub-agent event left out[\s\S]*1 truncation .* not modelled/);
  });

  it("a usage record's inputTokens is the whole input (the cache inside it, as Copilot records it)", () => {
    const usage = { inputTokens: 4400, outputTokens: 7, cacheReadTokens: 3000, cacheWriteTokens: 400, maxPromptTokens: 128000 };
    const conv = importCopilotCli([start, user(2, 'q'), ev('session.usage_record', { usage }, 3), answer(4, 'a')].join('\n')).conversation;
    expect(conv.meta.reportedUsage).toMatchObject({ tokens: 4400, parts: { input: 4400, cacheRead: 3000, cacheWrite: 400, output: 7 }, contextWindow: 128000 });
  });
});
