// Exporters: what they write is valid for the API it targets, comes back the same when imported
// again, and reads well as Markdown.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportAnthropic, PLACEHOLDER_USER_TEXT, toAnthropicRequest, type AnthropicRequestOut } from '../../../src/engine/conversation/exporters/anthropic';
import { exportConversation } from '../../../src/engine/conversation/exporters/exportConversation';
import { exportMarkdown } from '../../../src/engine/conversation/exporters/markdown';
import { exportOpenAI, toOpenAIRequest } from '../../../src/engine/conversation/exporters/openai';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import type { Conversation, Message } from '../../../src/engine/conversation/model';
import { SECTION_NAMES } from '../../../src/engine/sections';
import { apiShapeProblems } from '../../helpers/toolPairingCheck';
import { transcriptFiles, transcriptPath } from '../../helpers/transcripts';

const imp = (text: string, format?: 'openai' | 'anthropic') => importTranscript(text, format ? { format } : {}).conversation;
/** What a round trip must keep: everything but ids and source bookkeeping. */
const essence = (ms: readonly Message[]) =>
  ms.map((m) => ({
    role: m.role,
    itemType: m.itemType,
    content: m.content,
    toolCalls: m.toolCalls,
    toolResult: m.toolResult,
    name: m.name,
    toolDefinitions: m.toolDefinitions,
    pinned: m.pinned,
  }));

const openaiBody = {
  tools: [
    { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
  ],
  messages: [
    { role: 'system', content: 'You are terse.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Fix src/a.ts' },
        { type: 'text', text: 'and src/b.ts <pin>keep</pin>' },
      ],
      name: 'ana',
    },
    {
      role: 'assistant',
      content: 'Reading both.',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/a.ts"}' } },
        { id: 'c2', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/b.ts"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'export const a = 1;' },
    { role: 'tool', tool_call_id: 'c2', content: 'export const b = 2;' },
    { role: 'assistant', content: 'Both fine.' },
  ],
};

const anthropicBody = {
  system: 'Be careful.',
  tools: [{ name: 'bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
  messages: [
    { role: 'user', content: 'List the files' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'ls will do', signature: 'sig1' },
        { type: 'text', text: 'Listing.' },
        { type: 'tool_use', id: 'tu1', name: 'bash', input: { command: 'ls' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'tu1', content: 'permission denied', is_error: true },
        { type: 'text', text: 'Try sudo' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: 'I will not use sudo.' },
      ],
    },
  ],
};

describe('OpenAI export', () => {
  it('round-trips: import → export → import gives the same conversation', () => {
    const first = imp(JSON.stringify(openaiBody));
    const json = exportOpenAI(first);
    const second = imp(json, 'openai');
    expect(essence(second.messages)).toEqual(essence(first.messages));
    // And the export of the re-import is byte-identical.
    expect(exportOpenAI(second)).toBe(json);
    expect(JSON.parse(json)).toEqual(openaiBody);
  });

  it('writes tool results as role tool and calls as type function; bare on request', () => {
    const conv = imp(JSON.stringify(anthropicBody));
    const req = toOpenAIRequest(conv);
    expect(req.tools).toEqual([
      { type: 'function', function: { name: 'bash', description: 'Run a command', parameters: anthropicBody.tools[0]!.input_schema } },
    ]);
    expect(req.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user', 'assistant']);
    expect(req.messages[2]!.tool_calls).toEqual([{ id: 'tu1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }]);
    expect(req.messages[3]).toEqual({ role: 'tool', tool_call_id: 'tu1', content: 'permission denied' });
    expect(Array.isArray(JSON.parse(exportOpenAI(conv, { bare: true })))).toBe(true);
  });

  it('drops thinking by default, or keeps it as text or as reasoning_content', () => {
    const conv = imp(JSON.stringify(anthropicBody));
    expect(toOpenAIRequest(conv).messages[2]!.content).toBe('Listing.');
    expect(toOpenAIRequest(conv, { thinking: 'text' }).messages[2]!.content).toEqual([
      { type: 'text', text: '<thinking>\nls will do\n</thinking>' },
      { type: 'text', text: 'Listing.' },
    ]);
    expect(toOpenAIRequest(conv, { thinking: 'field' }).messages[2]!.reasoning_content).toBe('ls will do');
  });
});

/** The Anthropic API's rules, checked independently of the exporter. */
function anthropicProblems(req: AnthropicRequestOut): string[] {
  const problems: string[] = [];
  const turns = req.messages;
  if (turns.length > 0 && turns[0]!.role !== 'user') problems.push('first turn is not the user');
  turns.forEach((t, i) => {
    if (t.content.length === 0) problems.push(`${i}: empty turn`);
    if (i > 0 && turns[i - 1]!.role === t.role) problems.push(`${i}: two ${t.role} turns in a row`);
    const uses = t.role === 'assistant' ? t.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id) : [];
    if (t.role === 'user') {
      const results = t.content.filter((b) => b.type === 'tool_result');
      const firstOther = t.content.findIndex((b) => b.type !== 'tool_result');
      if (firstOther !== -1 && t.content.slice(firstOther).some((b) => b.type === 'tool_result')) problems.push(`${i}: tool_result after text`);
      const prevUses = i > 0 ? turns[i - 1]!.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id) : [];
      for (const r of results) if (!prevUses.includes((r as { tool_use_id: string }).tool_use_id)) problems.push(`${i}: orphan tool_result`);
    }
    if (uses.length > 0) {
      const next = turns[i + 1];
      const answered = new Set((next?.content ?? []).filter((b) => b.type === 'tool_result').map((b) => (b as { tool_use_id: string }).tool_use_id));
      for (const u of uses) if (!answered.has(u)) problems.push(`${i}: tool_use ${u} unanswered`);
    }
  });
  return problems;
}

describe('Anthropic export', () => {
  it('round-trips: import → export → import gives the same conversation', () => {
    const first = imp(JSON.stringify(anthropicBody));
    const json = exportAnthropic(first);
    const second = imp(json, 'anthropic');
    expect(essence(second.messages)).toEqual(essence(first.messages));
    expect(exportAnthropic(second)).toBe(json);
    // Signed thinking and redacted thinking go back exactly as they came.
    const turns = JSON.parse(json).messages;
    expect(turns[1].content[0]).toEqual({ type: 'thinking', thinking: 'ls will do', signature: 'sig1' });
    expect(turns[3].content[0]).toEqual({ type: 'redacted_thinking', data: 'opaque' });
    expect(turns[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'tu1', content: 'permission denied', is_error: true },
      { type: 'text', text: 'Try sudo' },
    ]);
  });

  it('merges tool results into one user turn and puts them before the user text', () => {
    const conv = imp(JSON.stringify(openaiBody));
    const { request, notes } = toAnthropicRequest(conv);
    expect(notes).toEqual([]);
    expect(anthropicProblems(request)).toEqual([]);
    expect(request.system).toBe('You are terse.');
    expect(request.tools![0]).toEqual({ name: 'read_file', description: 'Read a file', input_schema: openaiBody.tools[0]!.function.parameters });
    expect(request.messages[2]!.content.map((b) => b.type)).toEqual(['tool_result', 'tool_result']);
  });

  it('inserts a placeholder user turn when the conversation starts with the assistant, and says so', () => {
    const conv = imp(
      JSON.stringify([
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'hi' },
      ]),
    );
    const { request, notes } = toAnthropicRequest(conv);
    expect(request.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: PLACEHOLDER_USER_TEXT }] });
    expect(notes).toEqual(['the conversation started with an assistant turn; a placeholder user turn was inserted before it']);
    expect(anthropicProblems(request)).toEqual([]);
  });

  it('merges same-role neighbours and sends a later system message as user text', () => {
    const conv = imp(
      JSON.stringify([
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
        { role: 'system', content: 'mid-conversation rule' },
        { role: 'assistant', content: 'ok' },
      ]),
    );
    const { request } = toAnthropicRequest(conv);
    expect(request.system).toBeUndefined();
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
          { type: 'text', text: 'mid-conversation rule' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ]);
  });

  it('drops thinking on request', () => {
    const conv = imp(JSON.stringify(anthropicBody));
    const { request } = toAnthropicRequest(conv, { thinking: 'drop' });
    expect(request.messages.flatMap((t) => t.content).some((b) => b.type === 'thinking' || b.type === 'redacted_thinking')).toBe(false);
  });
});

describe('every real transcript exports validly', () => {
  it.each(transcriptFiles())('%s', (rel) => {
    const conv = importTranscript(readFileSync(transcriptPath(rel), 'utf8'), { sourcePath: transcriptPath(rel) }).conversation;
    const calls = conv.messages.flatMap((m) => m.toolCalls ?? []).length;

    const openai = exportOpenAI(conv);
    const back = imp(openai, 'openai');
    expect(apiShapeProblems(back.messages)).toEqual([]);
    expect(back.messages.flatMap((m) => m.toolCalls ?? []).length).toBe(calls);
    expect(back.messages.length).toBe(conv.messages.filter((m) => m.itemType !== 'THINKING').length);
    expect(exportOpenAI(back)).toBe(openai);

    const { request } = toAnthropicRequest(conv);
    expect(anthropicProblems(request)).toEqual([]);
    const backA = imp(JSON.stringify(request), 'anthropic');
    expect(apiShapeProblems(backA.messages)).toEqual([]);
    expect(backA.messages.flatMap((m) => m.toolCalls ?? []).length).toBe(calls);
  });
});

describe('Markdown export', () => {
  it('one heading per message, tool output fenced safely, a summary as it is', () => {
    const summary = SECTION_NAMES.map((n) => `## ${n}\n- kept`).join('\n\n');
    const conv: Conversation = imp(
      JSON.stringify([
        { role: 'user', content: summary },
        { role: 'user', content: 'Show me the file' },
        { role: 'assistant', content: 'Here:', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'cat', arguments: '{"path":"README.md"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '# Title\n```js\nx()\n```' },
        { role: 'assistant', content: 'Use:\n\n```bash\nnpm test\n```' },
      ]),
    );
    const md = exportMarkdown(conv);
    expect(md.match(/^## \d+ · /gm)!.length).toBe(conv.messages.length);
    expect(md).toContain('## 1 · user · COMPACTION_SUMMARY');
    expect(md).toContain(summary);
    expect(md).toContain('## 4 · tool · TOOL_RESULT · cat ← c1');
    // The tool output holds ``` so its fence is longer; the assistant's own code block stays as written.
    expect(md).toContain('````\n# Title\n```js\nx()\n```\n````');
    expect(md).toContain('```bash\nnpm test\n```');
    expect(md).toContain('**Tool call** `cat` (c1)\n\n```json\n{\n  "path": "README.md"\n}\n```');
    expect(exportConversation(conv, 'markdown')).toBe(md);
    expect(JSON.parse(exportConversation(conv, 'openai')).messages.length).toBe(5);
    expect(JSON.parse(exportConversation(conv, 'anthropic')).messages[0].role).toBe('user');
  });
});
