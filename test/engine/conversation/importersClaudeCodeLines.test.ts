// Claude Code sessions read by meaning, as the newest CLIs write them (2.1.332, seen on this machine:
// ../shared/AGENTS.md): bookkeeping lines without a uuid (atis-latch, api-request-shape,
// api-request-blob, api-request, tools-used), attachment lines whose `rendered` text is sent with the
// next user message, and prompt_snapshot attachments holding the system prompt and the tools. What
// is sent is counted, what is not is skipped, and a line type this reader does not know is named.

import { describe, expect, it } from 'vitest';
import { ClaudeCodeGrowingImport, importClaudeCode, importClaudeCodeLines } from '../../../src/engine/conversation/importers/claudeCode';
import { JsonlParser } from '../../../src/engine/conversation/importers/jsonText';
import { sessionParts } from '../../../src/engine/conversation/exporters/sessionParts';
import type { Conversation, Message } from '../../../src/engine/conversation/model';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { tokenReport } from '../../../src/engine/tokens/report';
import { leftOutOfSession } from '../../../src/engine/conversation/exporters/sessionParts';
import { inheritedFigures } from '../../../src/sessions/writeSession';
import { fixedUuid, jsonl } from '../../helpers/agentSessions';

const SYSTEM_BLOCKS = ['You are an agent working with the user.', '# Harness\n - Text you output is shown to the user.', '# Tone\nBe brief.'];
const TOOLS = [
  {
    name: 'Bash',
    description: 'Executes a bash command and returns its output.',
    schema: {
      name: 'Bash',
      description: 'Executes a bash command and returns its output.',
      input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    },
  },
  { name: 'Read', description: 'Reads a file.', schema: { name: 'Read', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } } },
];
const REMINDER = "<system-reminder>\nToday's date is 2026-11-27.\n</system-reminder>";

/** A session in 2.1.332's shape: one turn, a tool call, its result, an answer with usage. */
function session(opts: { usage?: number; unknown?: boolean } = {}): Record<string, unknown>[] {
  let n = 0;
  let parent: string | null = null;
  const out: Record<string, unknown>[] = [];
  const base = { isSidechain: false, userType: 'external', cwd: '/w', sessionId: 's-332', version: '2.1.332' };
  const chained = (v: Record<string, unknown>) => {
    const uuid = fixedUuid(++n);
    out.push({ parentUuid: parent, ...base, ...v, uuid, timestamp: new Date(Date.UTC(2026, 10, 27, 0, 0, n)).toISOString() });
    parent = uuid;
  };
  const bookkeeping = (v: Record<string, unknown>) => out.push({ sessionId: 's-332', ...v });
  bookkeeping({ type: 'queue-operation', operation: 'enqueue', content: 'read the notes' });
  chained({ type: 'user', message: { role: 'user', content: 'Please read notes.txt' } });
  chained({ type: 'attachment', attachment: { type: 'date', date: '2026-11-27' }, rendered: [{ content: REMINDER }], renderedRole: 'system' });
  chained({ type: 'attachment', attachment: { type: 'session_context', context: {} } });
  chained({ type: 'attachment', attachment: { type: 'prompt_snapshot', systemPrompt: SYSTEM_BLOCKS, reminderFold: false } });
  bookkeeping({ type: 'atis-latch', atis: 'x' });
  bookkeeping({ type: 'api-request-shape', shapeHash: 'h', shape: { big: 'x'.repeat(200) } });
  bookkeeping({ type: 'api-request-blob', hash: 'b' });
  bookkeeping({ type: 'api-request', id: 'r1', params: {} });
  if (opts.unknown) {
    bookkeeping({ type: 'future-ledger', note: 'a line type no version of this reader knows' });
    chained({ type: 'future-reminder', rendered: [{ content: '<system-reminder>FUTURE-REMINDER-TEXT</system-reminder>' }], renderedRole: 'user' });
  }
  const usage = { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: (opts.usage ?? 9000) - 3, output_tokens: 12 };
  chained({
    type: 'assistant',
    apiBlockIndex: 0,
    requestRef: 'r1',
    requestedModel: 'claude-opus-5-5',
    message: {
      id: 'msg_1',
      role: 'assistant',
      model: 'claude-opus-5-5',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'cat notes.txt' } }],
      usage,
    },
  });
  chained({ type: 'attachment', attachment: { type: 'prompt_snapshot', systemPrompt: SYSTEM_BLOCKS, cliPrefix: 'You are a Claude agent.', tools: TOOLS } });
  chained({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'NOTE LINE 1\nNOTE LINE 2' }] } });
  chained({
    type: 'assistant',
    message: { id: 'msg_2', role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'text', text: 'The notes say two lines.' }], usage },
  });
  bookkeeping({ type: 'tools-used', tools: ['Bash'] });
  bookkeeping({ type: 'last-prompt', lastPrompt: 'Please read notes.txt' });
  bookkeeping({ type: 'cost-state', totalCostUSD: 0 });
  return out;
}

describe('Claude Code 2.1.332 lines', () => {
  it('counts the reminders sent with a user message, and leaves out what is not sent', () => {
    const { conversation, warnings } = importClaudeCode(jsonl(session()));
    const reminders = conversation.messages.filter((m) => m.itemType === 'SKILL_METADATA');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.content).toEqual([{ type: 'text', text: REMINDER }]);
    expect(reminders[0]!.source).toMatchObject({ role: 'system', extra: { attachment: 'date' } });
    // The bookkeeping lines without a uuid and the attachments that are not rendered are not messages.
    const texts = JSON.stringify(conversation.messages);
    expect(texts).not.toContain('session_context');
    expect(texts).not.toContain('api-request');
    expect(warnings.some((w) => /line types this reader does not know/.test(w.message))).toBe(false);
  });

  it('takes the system prompt and the tool definitions from the last prompt_snapshot, so they are counted, not guessed', async () => {
    const { conversation } = importClaudeCode(jsonl(session()));
    const [system, tools] = conversation.messages;
    expect(system!.itemType).toBe('SYSTEM_PROMPT');
    expect(system!.content).toEqual([{ type: 'text', text: ['You are a Claude agent.', SYSTEM_BLOCKS.join('\n\n')].join('\n\n') }]);
    expect(tools!.itemType).toBe('TOOL_DEFINITIONS');
    expect(tools!.toolDefinitions).toEqual([
      { name: 'Bash', description: 'Executes a bash command and returns its output.', parameters: TOOLS[0]!.schema.input_schema },
      { name: 'Read', description: 'Reads a file.', parameters: TOOLS[1]!.schema.input_schema },
    ]);
    // The meter: what the file holds is counted; only the rest is "not in the file".
    const counter = await createTokenCounter(conversation.meta.model);
    const withSnapshot = tokenReport(conversation.messages, counter, conversation.meta);
    const bare = importClaudeCode(jsonl(session().filter((l) => (l['attachment'] as { type?: string } | undefined)?.type !== 'prompt_snapshot'))).conversation;
    const without = tokenReport(bare.messages, counter, bare.meta);
    expect(withSnapshot.byCategory.system).toBeGreaterThan(without.byCategory.system);
    expect(withSnapshot.byCategory.toolDefinitions).toBeGreaterThan(0);
    expect(withSnapshot.total).toBe(without.total);
    expect(withSnapshot.byCategory.unseen).toBe(without.byCategory.unseen - (withSnapshot.counted - without.counted));
  });

  it('names a line type it does not know once: counted when it carries rendered text, else skipped', () => {
    const { conversation, warnings } = importClaudeCode(jsonl(session({ unknown: true })));
    const named = warnings.filter((w) => /line types this reader does not know/.test(w.message));
    expect(named).toHaveLength(1);
    expect(named[0]!.message).toContain('future-ledger (1, skipped)');
    expect(named[0]!.message).toContain('future-reminder (1, counted: sent with the next message)');
    expect(JSON.stringify(conversation.messages)).toContain('FUTURE-REMINDER-TEXT');
    // Whole-file reading names it the same way.
    expect(importClaudeCode(jsonl(session({ unknown: true })), { wholeFile: true }).warnings.filter((w) => /does not know/.test(w.message))).toEqual(named);
  });

  it('read as it grows, it equals the whole import after every line', () => {
    const lines = session({ unknown: true }).map((l) => `${JSON.stringify(l)}\n`);
    const parser = new JsonlParser();
    const growing = new ClaudeCodeGrowingImport({});
    for (const [i, line] of lines.entries()) {
      parser.push(line);
      if (i < 2) continue;
      const grown = growing.read(parser.parsed);
      expect(grown, `after line ${i + 1}`).toStrictEqual(importClaudeCodeLines({ lines: parser.lines.slice(), bad: parser.badLines.slice() }));
    }
  });

  it('a session written back inherits as overhead the system prompt, tools and reminders it leaves out', async () => {
    const { conversation } = importClaudeCode(jsonl(session()));
    const counter = await createTokenCounter(conversation.meta.model);
    // The system prompt and tools (the first two messages) and the rendered reminders.
    const header = conversation.messages.filter(leftOutOfSession).reduce((n, m) => n + counter.countMessage(m), 0);
    expect(conversation.messages.filter(leftOutOfSession).length).toBeGreaterThan(2);
    const report = tokenReport(conversation.messages, counter, conversation.meta);
    expect(inheritedFigures(conversation, report, 'claude-code').overhead).toBe(Math.max(0, report.overhead) + header);
  });

  it('a session written back leaves the reminders out: Claude Code renders its own on resume', () => {
    const { conversation } = importClaudeCode(jsonl(session()));
    const summary: Message = { id: 'sum', role: 'user', itemType: 'COMPACTION_SUMMARY', content: [{ type: 'text', text: 'S' }] };
    const compacted: Conversation = { ...conversation, messages: [summary, ...conversation.messages.slice(2)] };
    const parts = sessionParts(compacted, 'Claude Code')!;
    expect(parts.tail.some((m) => m.itemType === 'SKILL_METADATA')).toBe(false);
    expect(parts.notes).toContain('1 reminder the agent renders itself (date, environment, listings) left out');
  });
});
