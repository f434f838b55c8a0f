// Gemini CLI and Qwen Code sessions read as each CLI resumes them: from files the real CLIs wrote
// (test/fixtures, NOTICE.md says how), and hand-made records for what those runs do not show.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, importTranscript } from '../../../src/engine/conversation/importers/detect';
import { importGeminiCli } from '../../../src/engine/conversation/importers/geminiCli';
import { importQwenCode } from '../../../src/engine/conversation/importers/qwenCode';
import { isTranscriptError } from '../../../src/engine/conversation/importers/transcriptError';
import { messageText, type Message, type ReportedUsage } from '../../../src/engine/conversation/model';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { tokenReport } from '../../../src/engine/tokens/report';
import { fixturesDir } from '../../helpers/transcripts';

const GEMINI = readFileSync(join(fixturesDir, 'gemini-cli-0.61.0-session.jsonl'), 'utf8');
const QWEN = readFileSync(join(fixturesDir, 'qwen-code-0.24.4-session.jsonl'), 'utf8');
const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
/** Each message as `role/itemType: ` and the first 30 characters of its text. */
const texts = (ms: readonly Message[]) => ms.map((m) => `${m.role}/${m.itemType}: ${messageText(m).slice(0, 30)}`);

/** What the meter says, as `ctxc count` totals it: the recorded usage plus what came after it. */
async function meter(messages: Message[], usage: ReportedUsage, model?: string): Promise<number> {
  return tokenReport(messages, await createTokenCounter(model), { reportedUsage: usage }).total;
}

describe('detection', () => {
  it('tells a Gemini CLI session (header first) and a Qwen Code session (chained records with Gemini parts) from Claude Code', () => {
    expect(detectFormat(GEMINI, 'session-2026-11-27T02-41-5310d824.jsonl')).toBe('gemini-cli');
    expect(detectFormat(QWEN, 'dd32b60b.jsonl')).toBe('qwen-code');
    const legacy = JSON.stringify({ sessionId: 's', projectHash: 'h', startTime: 't', lastUpdated: 't', messages: [] }, null, 2);
    expect(detectFormat(legacy, 'session-2025-01-01T00-00-abcdef12.json')).toBe('gemini-cli');
    // A Gemini CLI file is never read as a Claude Code session with no messages.
    expect(importTranscript(GEMINI).conversation.messages.length).toBeGreaterThan(0);
  });
});

describe('Gemini CLI 0.61.0: a real session, resumed twice and compressed by the CLI', () => {
  const { conversation, history, warnings } = importGeminiCli(GEMINI, { sourcePath: 'g.jsonl' });
  const ms = conversation.messages;

  it('reads what the CLI sends after its compression: the session context, the summary, the turns kept, the new tool turn', () => {
    expect(texts(ms)).toEqual([
      'user/SKILL_METADATA: <session_context>\nThis is the ',
      'user/COMPACTION_SUMMARY: <state_snapshot>\n<overall_goal',
      'assistant/ASSISTANT_MESSAGE: Got it. Thanks for the additio',
      'user/USER_MESSAGE: Bump the version in package.js',
      'assistant/ASSISTANT_MESSAGE: Done: the version is bumped to',
      'user/USER_MESSAGE: List the folder, then say what',
      'assistant/ASSISTANT_MESSAGE: ',
      'tool/TOOL_RESULT: Directory listing for /tmp/ctx',
      'assistant/ASSISTANT_MESSAGE: The checklist has three steps:',
    ]);
    // The call the compression stored without its id is answered by its tool's name.
    expect(ms[6]!.toolCalls![0]!.name).toBe('list_directory');
    expect(ms[7]!.toolResult).toMatchObject({ toolCallId: ms[6]!.toolCalls![0]!.id, toolName: 'list_directory', isError: false });
    expect(conversation.meta).toMatchObject({ sessionId: '5310d824-6aab-4476-91b2-82ddfbaa05f2', model: 'gemini-3.8-flash' });
  });

  it('keeps what the compression replaced as history, not counted', () => {
    expect(history?.beforeBoundary).toBeGreaterThan(0);
    expect(history!.conversation.messages.some((m) => messageText(m) === 'Read notes.txt and tell me the release steps.')).toBe(true);
    expect(warnings.some((w) => /not sent when the session is resumed/.test(w.message))).toBe(true);
  });

  it('meters from tokens.input of the last gemini record it sends, within −5%/+15%', async () => {
    const usage = conversation.meta.reportedUsage!;
    expect(usage).toMatchObject({ tokens: 9909, source: 'gemini-cli', line: 29, parts: { input: 9909, cacheRead: 0, output: 10 } });
    expect(usage.atMessageId).toBe(ms.at(-1)!.id);
    const total = await meter(ms, usage, conversation.meta.model);
    expect(total / 9909 - 1).toBeGreaterThanOrEqual(-0.05);
    expect(total / 9909 - 1).toBeLessThanOrEqual(0.15);
  });

  it('reads a tool turn recorded before a resume once, and the copy the CLI sends again as its own words', () => {
    const beforeCompression = GEMINI.split('\n').slice(0, 20).join('\n');
    const r = importGeminiCli(beforeCompression);
    const results = r.conversation.messages.filter((m) => m.toolResult);
    expect(results).toHaveLength(1);
    expect(messageText(results[0]!)).toContain('bump version in package.json');
    // Counted as sent (so what the recorded usage holds beside the messages is the system prompt and
    // tools alone), marked so that a session written back leaves it out.
    const copies = r.conversation.messages.filter((m) => m.source?.extra?.['resent'] === 'tool_result');
    expect(copies.map((m) => m.itemType)).toEqual(['SKILL_METADATA']);
    expect(messageText(copies[0]!)).toBe(messageText(results[0]!));
    expect(r.warnings.some((w) => /sent twice/.test(w.message))).toBe(true);
  });
});

describe('Gemini CLI records applied in order', () => {
  const header = { sessionId: 'g-1', projectHash: 'abc', startTime: 't', lastUpdated: 't', kind: 'main' };
  const user = (id: string, text: string) => ({ id, timestamp: 't', type: 'user', content: [{ text }] });
  const gemini = (id: string, text: string, extra: Record<string, unknown> = {}) => ({ id, timestamp: 't', type: 'gemini', content: text, ...extra });

  it('a later record with the same id replaces the earlier where it stood; $rewindTo drops it and what follows', () => {
    const r = importGeminiCli(
      jsonl([
        header,
        user('u1', 'first'),
        gemini('g1', 'draft'),
        user('u2', 'second'),
        gemini('g1', 'final answer'),
        gemini('g2', 'to be rewound'),
        { $rewindTo: 'u2' },
        user('u3', 'third'),
      ]),
    );
    expect(texts(r.conversation.messages)).toEqual(['user/USER_MESSAGE: first', 'assistant/ASSISTANT_MESSAGE: final answer', 'user/USER_MESSAGE: third']);
    expect(r.history?.otherBranches).toBe(2);
  });

  it('a $set of messages replaces the list; metadata patches set the title', () => {
    const r = importGeminiCli(jsonl([header, user('u1', 'old'), { $set: { summary: 'A title', messages: [user('u9', 'new'), gemini('g9', 'reply')] } }]));
    expect(texts(r.conversation.messages)).toEqual(['user/USER_MESSAGE: new', 'assistant/ASSISTANT_MESSAGE: reply']);
    expect(r.conversation.meta.title).toBe('A title');
  });

  it('drops what the CLI does not resume: /commands, ?help, <hook_context> prompts, info/error/warning notes', () => {
    const r = importGeminiCli(
      jsonl([
        header,
        user('u1', '/stats'),
        { id: 'i1', timestamp: 't', type: 'info', content: 'note' },
        user('u2', '<hook_context>facts</hook_context>\n\nreal prompt'),
        user('u3', '? what'),
        user('u4', 'kept'),
      ]),
    );
    expect(texts(r.conversation.messages)).toEqual(['user/USER_MESSAGE: kept']);
    expect(r.history?.otherBranches).toBe(3);
    expect(r.warnings.some((w) => /which Gemini CLI drops/.test(w.message))).toBe(true);
  });

  it('a gemini record sends its thoughts, content, and a call per toolCalls entry with the result it holds', () => {
    const r = importGeminiCli(
      jsonl([
        header,
        user('u1', 'list it'),
        gemini('g1', 'looking', {
          thoughts: [{ subject: 'Plan', description: 'list the folder' }],
          toolCalls: [{ id: 'c1', name: 'ls', args: { path: '.' }, result: [{ functionResponse: { id: 'c1', name: 'ls', response: { error: 'denied' } } }] }],
        }),
      ]),
    );
    const [, call, result] = r.conversation.messages;
    expect(call!.content).toEqual([
      { type: 'thinking', text: '**Plan** list the folder' },
      { type: 'text', text: 'looking' },
    ]);
    expect(call!.toolCalls).toEqual([{ id: 'c1', name: 'ls', arguments: '{"path":"."}' }]);
    expect(result!.toolResult).toMatchObject({ toolCallId: 'c1', isError: true });
  });

  it('the single JSON document of older versions reads the same', () => {
    const doc = JSON.stringify({ ...header, messages: [user('u1', 'hello'), gemini('g1', 'hi', { tokens: { input: 1234, output: 2 } })] }, null, 2);
    const r = importTranscript(doc, { sourcePath: 'session-x.json' });
    expect(r.conversation.format).toBe('gemini-cli');
    expect(texts(r.conversation.messages)).toEqual(['user/USER_MESSAGE: hello', 'assistant/ASSISTANT_MESSAGE: hi']);
    expect(r.conversation.meta.reportedUsage).toMatchObject({ tokens: 1234, index: 1 });
  });

  it('a file that is no Gemini CLI session is an error naming what was expected', () => {
    try {
      importGeminiCli('{"foo":1}\n', { sourcePath: 'x.jsonl' });
      expect.unreachable();
    } catch (e) {
      expect(isTranscriptError(e)).toBe(true);
      expect((e as Error).message).toMatch(/x\.jsonl.*Gemini CLI session/);
    }
  });
});

describe('Qwen Code 0.24.4: a real session with a tool turn, /compress and the memory extractor', () => {
  const { conversation, history } = importQwenCode(QWEN, { sourcePath: 'q.jsonl' });
  const ms = conversation.messages;

  it('reads what the CLI sends after /compress: the summary, "Got it…", the file it re-read, then the new turn', () => {
    expect(texts(ms)).toEqual([
      'user/COMPACTION_SUMMARY: <state_snapshot>\n<overall_goal',
      'assistant/ASSISTANT_MESSAGE: Got it. Thanks for the additio',
      'user/SKILL_METADATA: Recently accessed file (full c',
      'user/USER_MESSAGE: Now run npm test.',
      'assistant/ASSISTANT_MESSAGE: Done: the version is bumped to',
    ]);
    expect(conversation.meta).toMatchObject({
      sessionId: 'dd32b60b-6ca2-41b4-bcf0-8264b866dfda',
      agentVersion: '0.24.4',
      model: 'fake-model',
      cwd: '/tmp/ctxc-fixture-qwen/work',
    });
    expect(history?.beforeBoundary).toBe(6);
    expect(history!.conversation.messages.some((m) => m.toolResult?.toolName === 'read_file')).toBe(true);
  });

  it('meters from the last assistant record’s promptTokenCount, never the memory extractor’s call logged after it', async () => {
    const usage = conversation.meta.reportedUsage!;
    expect(usage).toMatchObject({ tokens: 15199, source: 'qwen-code', line: 19 });
    // The last API call the file logs is the memory extractor's (ui_telemetry, 11,214 tokens).
    expect(QWEN.trimEnd().split('\n').at(-1)).toContain('"input_token_count":11214');
    const total = await meter(ms, usage, conversation.meta.model);
    expect(total / 15199 - 1).toBeGreaterThanOrEqual(-0.05);
    expect(total / 15199 - 1).toBeLessThanOrEqual(0.15);
  });

  it('before the compression, the tool turn reads as a call and its result', () => {
    const early = importQwenCode(QWEN.split('\n').slice(0, 12).join('\n'));
    const call = early.conversation.messages.find((m) => m.toolCalls);
    expect(call!.toolCalls![0]).toMatchObject({ name: 'read_file' });
    expect(early.conversation.messages.find((m) => m.toolResult)!.toolResult!.toolCallId).toBe(call!.toolCalls![0]!.id);
    expect(early.conversation.meta.reportedUsage?.tokens).toBe(15190);
  });
});

describe('Qwen Code records along the chain', () => {
  let n = 0;
  const rec = (type: string, parent: string | null, extra: Record<string, unknown>) => ({
    uuid: `u${++n}`,
    parentUuid: parent,
    sessionId: 's',
    timestamp: '2026-01-01T00:00:00Z',
    type,
    cwd: '/w',
    version: '0.24.4',
    ...extra,
  });
  const msg = (role: string, text: string) => ({ message: { role, parts: [{ text }] } });

  it('follows parentUuid from the last record: a rewound branch is history', () => {
    n = 0;
    const a = rec('user', null, { provenance: 'real_user', ...msg('user', 'first') });
    const b = rec('assistant', 'u1', msg('model', 'abandoned'));
    const c = rec('assistant', 'u1', msg('model', 'kept'));
    const r = importQwenCode(jsonl([a, b, c]));
    expect(texts(r.conversation.messages)).toEqual(['user/USER_MESSAGE: first', 'assistant/ASSISTANT_MESSAGE: kept']);
    expect(r.history?.otherBranches).toBe(1);
  });

  it('a local command’s result takes back its own user turn; system notifications are not the person’s words', () => {
    n = 0;
    const cmd = rec('user', null, msg('user', '/stats'));
    const res = rec('system', 'u1', {
      subtype: 'slash_command',
      systemPayload: { phase: 'result', rawCommand: '/stats', outputHistoryItems: [{ type: 'assistant' }] },
    });
    const note = rec('user', 'u2', { subtype: 'notification', provenance: 'system', ...msg('user', 'background task done') });
    const r = importQwenCode(jsonl([cmd, res, note]));
    expect(texts(r.conversation.messages)).toEqual(['user/SKILL_METADATA: background task done']);
  });

  it('fragments of one uuid are one message', () => {
    n = 0;
    const a = rec('user', null, msg('user', 'go'));
    const b1 = { ...rec('assistant', 'u1', msg('model', 'part one')), uuid: 'same' };
    const b2 = { ...rec('assistant', 'u1', { ...msg('model', ' part two'), usageMetadata: { promptTokenCount: 500 } }), uuid: 'same' };
    const r = importQwenCode(jsonl([a, b1, b2]));
    expect(texts(r.conversation.messages)).toEqual(['user/USER_MESSAGE: go', 'assistant/ASSISTANT_MESSAGE: part one\n part two']);
    expect(r.conversation.meta.reportedUsage?.tokens).toBe(500);
  });

  it('lines that are no Qwen Code record are an error naming what was expected', () => {
    expect(() => importQwenCode('{"a":1}\n', { sourcePath: 'q.jsonl' })).toThrow(/q\.jsonl.*Qwen Code records/);
  });
});
