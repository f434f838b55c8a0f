// The formats no public sample is shipped for (OpenAI, Anthropic, Cline, SWE-agent, VS Code chat)
// and the rules every importer shares: detection, ids, pins, item types, summary recognition.

import { describe, expect, it } from 'vitest';
import { detectFormat, importTranscript } from '../../../src/engine/conversation/importers/detect';
import { extractXmlCalls } from '../../../src/engine/conversation/importers/cline';
import { isUserAuthored, messageText, thinkingText, type Message } from '../../../src/engine/conversation/model';
import { SECTION_NAMES } from '../../../src/engine/sections';
import { apiShapeProblems } from '../../helpers/toolPairingCheck';

const imp = (value: unknown, sourcePath = 'chat.json') => importTranscript(typeof value === 'string' ? value : JSON.stringify(value), { sourcePath });
const kinds = (ms: Message[]) => ms.map((m) => `${m.role}/${m.itemType}`);

describe('OpenAI messages', () => {
  const body = {
    model: 'gpt-4o-mini',
    tools: [
      {
        type: 'function',
        function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
      },
    ],
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'developer', content: 'Prefer TypeScript.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Fix src/a.ts' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
        name: 'ana',
      },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/a.ts"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'export const a = 1;' },
      { role: 'assistant', content: 'Done.', reasoning_content: 'The file is fine.' },
    ],
  };

  it('reads roles, tool calls, results, tools and the model', () => {
    const { conversation, warnings } = imp(body);
    expect(warnings).toEqual([]);
    expect(conversation.format).toBe('openai');
    expect(conversation.meta.model).toBe('gpt-4o-mini');
    const ms = conversation.messages;
    expect(kinds(ms)).toEqual([
      'system/SYSTEM_PROMPT',
      'system/SYSTEM_PROMPT',
      'system/TOOL_DEFINITIONS',
      'user/USER_MESSAGE',
      'assistant/ASSISTANT_MESSAGE',
      'tool/TOOL_RESULT',
      'assistant/ASSISTANT_MESSAGE',
    ]);
    expect(ms[1]!.source?.role).toBe('developer');
    expect(ms[2]!.toolDefinitions).toEqual([{ name: 'read_file', description: 'Read a file', parameters: body.tools[0]!.function.parameters }]);
    // The definitions are text too, so they are counted.
    expect(JSON.parse(messageText(ms[2]!))).toEqual(ms[2]!.toolDefinitions);
    expect(ms[3]!.name).toBe('ana');
    expect(ms[3]!.content[1]).toMatchObject({ type: 'image', mediaType: 'image/png' });
    expect(ms[4]!.toolCalls).toEqual([{ id: 'c1', name: 'read_file', arguments: '{"path":"src/a.ts"}' }]);
    expect(ms[5]!.toolResult).toEqual({ toolCallId: 'c1', isError: false, toolName: 'read_file' });
    expect(thinkingText(ms[6]!)).toBe('The file is fine.');
    expect(apiShapeProblems(ms)).toEqual([]);
  });

  it('pairs legacy function_call / role function messages', () => {
    const { conversation } = imp([
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: null, function_call: { name: 'weather', arguments: '{}' } },
      { role: 'function', name: 'weather', content: 'sunny' },
    ]);
    const [, call, result] = conversation.messages;
    expect(call!.toolCalls![0]!.name).toBe('weather');
    expect(result!.toolResult!.toolCallId).toBe(call!.toolCalls![0]!.id);
    expect(apiShapeProblems(conversation.messages)).toEqual([]);
  });

  it('gives derived ids `${index}-${hash}` that are stable and unique, even for repeated text', () => {
    const list = [
      { role: 'user', content: 'ok' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'ok' },
    ];
    const a = imp(list).conversation.messages.map((m) => m.id);
    const b = imp(list).conversation.messages.map((m) => m.id);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(3);
    for (const [i, id] of a.entries()) expect(id).toMatch(new RegExp(`^${i}-[0-9a-f]{8}$`));
  });

  it('pins messages that say <pin>…</pin>', () => {
    const { conversation } = imp([
      { role: 'user', content: 'Always use tabs. <pin>tabs, never spaces</pin>' },
      { role: 'assistant', content: 'Noted.' },
    ]);
    expect(conversation.messages.map((m) => m.pinned === true)).toEqual([true, false]);
  });

  it('recognises our own 8-section summary as a COMPACTION_SUMMARY', () => {
    const summary = SECTION_NAMES.map((n, i) => `## ${i + 1}. ${n}\n- something`).join('\n\n');
    const { conversation } = imp([
      { role: 'user', content: summary },
      { role: 'user', content: 'continue' },
    ]);
    expect(conversation.messages.map((m) => m.itemType)).toEqual(['COMPACTION_SUMMARY', 'USER_MESSAGE']);
  });
});

describe('Anthropic messages', () => {
  const body = {
    system: [{ type: 'text', text: 'Be careful.' }],
    tools: [{ name: 'bash', description: 'Run a command', input_schema: { type: 'object' } }],
    messages: [
      { role: 'user', content: 'List the files' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'ls will do', signature: 'sig1' },
          { type: 'text', text: 'Listing.' },
          { type: 'tool_use', id: 'tu1', name: 'bash', input: { command: 'ls' } },
          { type: 'tool_use', id: 'tu2', name: 'bash', input: { command: 'pwd' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'tu1', content: [{ type: 'text', text: 'a.ts\nb.ts' }] },
          { type: 'tool_result', tool_use_id: 'tu2', content: 'permission denied', is_error: true },
          { type: 'text', text: 'Also check c.ts please' },
        ],
      },
      { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'opaque' }] },
    ],
  };

  it('splits tool results out of the user turn and keeps the user text user-authored', () => {
    const { conversation, warnings } = imp(body);
    expect(warnings).toEqual([]);
    expect(conversation.format).toBe('anthropic');
    const ms = conversation.messages;
    expect(kinds(ms)).toEqual([
      'system/SYSTEM_PROMPT',
      'system/TOOL_DEFINITIONS',
      'user/USER_MESSAGE',
      'assistant/ASSISTANT_MESSAGE',
      'tool/TOOL_RESULT',
      'tool/TOOL_RESULT',
      'user/USER_MESSAGE',
      'assistant/THINKING',
    ]);
    expect(ms[3]!.toolCalls!.map((c) => JSON.parse(c.arguments))).toEqual([{ command: 'ls' }, { command: 'pwd' }]);
    expect(ms[3]!.content[0]).toEqual({ type: 'thinking', text: 'ls will do', signature: 'sig1' });
    expect(ms[4]!.source?.role).toBe('user');
    expect(ms[5]!.toolResult).toEqual({ toolCallId: 'tu2', isError: true, toolName: 'bash' });
    expect(isUserAuthored(ms[4]!)).toBe(false);
    expect(isUserAuthored(ms[6]!)).toBe(true);
    expect(ms[7]!.content[0]).toMatchObject({ type: 'thinking', redacted: true, signature: 'opaque' });
    expect(apiShapeProblems(ms)).toEqual([]);
  });

  it('is detected from its blocks even as a bare array', () => {
    expect(detectFormat(JSON.stringify(body.messages))).toBe('anthropic');
    expect(detectFormat(JSON.stringify([{ role: 'user', content: 'hi' }]))).toBe('openai');
  });
});

describe('Cline / Roo api_conversation_history.json', () => {
  const history = [
    {
      role: 'user',
      content: [
        { type: 'text', text: '<task>\nAdd a README section about testing\n</task>' },
        { type: 'text', text: '<environment_details>\n# VSCode Visible Files\nREADME.md\n</environment_details>' },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: '<thinking>Read it first.</thinking>\n\n<read_file>\n<path>README.md</path>\n</read_file>' }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: "[read_file for 'README.md'] Result:" },
        { type: 'text', text: '# Project\n' },
        { type: 'text', text: '<environment_details>\n# VSCode Open Tabs\n</environment_details>' },
      ],
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'text',
          text: '<write_to_file>\n<path>README.md</path>\n<content>\n# Project\n\n## Testing\nnpm test\n</content>\n</write_to_file>\n<attempt_completion>\n<result>Done</result>\n</attempt_completion>',
        },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'text', text: "[write_to_file for 'README.md'] Result:" },
        { type: 'text', text: 'The content was successfully saved to README.md.' },
        { type: 'text', text: 'Tool [attempt_completion] was not executed because a tool has already been used in this message.' },
      ],
    },
    {
      role: 'assistant',
      content: [{ type: 'text', text: '<attempt_completion>\n<result>README updated.</result>\n</attempt_completion>' }],
    },
    {
      role: 'user',
      content: [
        { type: 'text', text: '[attempt_completion] Result:' },
        { type: 'text', text: 'The user has provided feedback on the results.\n<feedback>\nAlso mention coverage\n</feedback>' },
      ],
    },
  ];

  it('turns XML tool calls into calls, Result: segments into their results, and keeps only the user’s words as user messages', () => {
    const { conversation, warnings } = imp(history, 'api_conversation_history.json');
    expect(warnings).toEqual([]);
    expect(conversation.format).toBe('cline');
    const ms = conversation.messages;
    expect(apiShapeProblems(ms)).toEqual([]);
    expect(ms.filter(isUserAuthored).map(messageText)).toEqual(['Add a README section about testing', 'Also mention coverage']);
    // First turn: the task, then the environment as a non-user note.
    expect(kinds(ms.slice(0, 2))).toEqual(['user/USER_MESSAGE', 'user/SKILL_METADATA']);
    const read = ms[2]!;
    expect(read.toolCalls).toEqual([{ id: 'cline_1_0', name: 'read_file', arguments: '{"path":"README.md"}' }]);
    expect(messageText(read)).toBe('<thinking>Read it first.</thinking>');
    // The result carries the environment details that travelled with it.
    expect(messageText(ms[3]!)).toContain("[read_file for 'README.md'] Result:");
    expect(messageText(ms[3]!)).toContain('<environment_details>');
    const write = ms[4]!;
    expect(write.toolCalls!.map((c) => c.name)).toEqual(['write_to_file', 'attempt_completion']);
    expect(JSON.parse(write.toolCalls![0]!.arguments)).toEqual({ path: 'README.md', content: '# Project\n\n## Testing\nnpm test' });
    const notExecuted = ms.find((m) => messageText(m).startsWith('Tool [attempt_completion] was not executed'))!;
    expect(notExecuted.toolResult).toMatchObject({ toolCallId: write.toolCalls![1]!.id, isError: true });
    const last = ms[ms.length - 1]!;
    expect(isUserAuthored(last)).toBe(true);
    expect(messageText(ms[ms.length - 2]!)).not.toContain('Also mention coverage');
  });

  it('finds XML calls without being fooled by content holding tags', () => {
    const r = extractXmlCalls('Before\n<write_to_file>\n<path>a.html</path>\n<content>\n<p>x</p>\n</content>\n</write_to_file>', new Set(['write_to_file']));
    expect(r.text).toBe('Before');
    expect(r.calls).toEqual([{ name: 'write_to_file', params: { path: 'a.html', content: '<p>x</p>' } }]);
  });
});

describe('SWE-agent .traj', () => {
  it('reads history: demos are not the user, observations answer the action before them', () => {
    const traj = {
      trajectory: [],
      info: {},
      history: [
        { role: 'system', content: 'You are an agent.', message_type: 'system_prompt' },
        { role: 'user', content: 'Here is a demonstration…', message_type: 'demonstration', is_demo: true },
        { role: 'user', content: [{ type: 'text', text: 'Fix issue #1' }], message_type: 'observation' },
        { role: 'assistant', content: 'Let me look.\n```\nopen src/a.py\n```', message_type: 'action', action: 'open src/a.py' },
        { role: 'user', content: '[File: src/a.py]', message_type: 'observation' },
        {
          role: 'assistant',
          content: 'Now edit.',
          message_type: 'action',
          tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'edit', arguments: '{"x":1}' } }],
        },
        { role: 'tool', content: 'edited', message_type: 'observation', tool_call_ids: ['call_9'] },
      ],
    };
    const { conversation } = imp(traj, 'x.traj');
    const ms = conversation.messages;
    expect(conversation.format).toBe('swe-agent');
    expect(kinds(ms)).toEqual([
      'system/SYSTEM_PROMPT',
      'user/SKILL_PROMPT',
      'user/USER_MESSAGE',
      'assistant/ASSISTANT_MESSAGE',
      'tool/TOOL_RESULT',
      'assistant/ASSISTANT_MESSAGE',
      'tool/TOOL_RESULT',
    ]);
    expect(ms[3]!.toolCalls).toEqual([{ id: 'swe_3', name: 'open', arguments: '{"command":"open src/a.py"}' }]);
    expect(ms[6]!.toolResult!.toolCallId).toBe('call_9');
    expect(apiShapeProblems(ms)).toEqual([]);
  });
});

describe('VS Code chat export', () => {
  it('reads requests as user + assistant, agent rounds as calls and results', () => {
    const exportJson = {
      requesterUsername: 'me',
      requests: [
        {
          requestId: 'r1',
          message: { text: 'What does main.ts do?' },
          variableData: { variables: [{ id: 'file', name: 'file:main.ts' }] },
          response: [{ value: 'It starts the ' }, { kind: 'inlineReference', inlineReference: { path: '/w/src/server.ts' } }, { value: '.' }],
          modelId: 'copilot/gpt-4o',
          timestamp: 1737433775000,
        },
        {
          requestId: 'r2',
          message: { text: 'Run the tests' },
          response: [{ value: 'ignored when rounds exist' }],
          result: {
            metadata: {
              toolCallRounds: [
                { response: 'Running.', toolCalls: [{ id: 't1', name: 'run_in_terminal', arguments: '{"command":"npm test"}' }] },
                { response: 'All 3 tests pass.', toolCalls: [] },
              ],
              toolCallResults: { t1: { content: [{ value: '3 passing' }] } },
            },
          },
        },
      ],
    };
    const { conversation } = imp(exportJson, 'chat-export.json');
    const ms = conversation.messages;
    expect(conversation.format).toBe('vscode-chat');
    expect(conversation.meta.model).toBe('copilot/gpt-4o');
    expect(kinds(ms)).toEqual([
      'user/USER_MESSAGE',
      'assistant/ASSISTANT_MESSAGE',
      'user/USER_MESSAGE',
      'assistant/ASSISTANT_MESSAGE',
      'tool/TOOL_RESULT',
      'assistant/ASSISTANT_MESSAGE',
    ]);
    expect(messageText(ms[1]!)).toBe('It starts the `server.ts`.');
    expect(ms[0]!.source?.extra?.['attachments']).toBe('file:main.ts');
    expect(ms[0]!.timestamp).toBe('2025-01-21T04:29:35.000Z');
    expect(messageText(ms[4]!)).toBe('3 passing');
    expect(messageText(ms[5]!)).toBe('All 3 tests pass.');
    expect(apiShapeProblems(ms)).toEqual([]);
  });
});

describe('detection', () => {
  it('names formats by file name and by content', () => {
    expect(detectFormat('# aider chat started at 2025-01-01 10:00:00\n\n#### hi\n')).toBe('aider');
    expect(
      detectFormat(
        '{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}\n{"type":"assistant","uuid":"u2","message":{"id":"m","role":"assistant","content":[]}}\n',
      ),
    ).toBe('claude-code');
    expect(detectFormat(JSON.stringify({ messages: [], trajectory_format: 'mini-swe-agent-1' }))).toBe('mini-swe-agent');
    expect(detectFormat(JSON.stringify({ history: [], trajectory: [] }))).toBe('swe-agent');
    expect(detectFormat(JSON.stringify({ requests: [] }))).toBe('vscode-chat');
    expect(detectFormat(JSON.stringify([{ id: 1, source: 'user', action: 'message', args: {} }]))).toBe('openhands');
    expect(detectFormat(JSON.stringify([{ haystack_sessions: [] }]))).toBe('longmemeval');
    expect(detectFormat(JSON.stringify({ system: 'x', messages: [] }))).toBe('anthropic');
    expect(detectFormat(JSON.stringify([{ role: 'tool', tool_call_id: 'a', content: '' }]))).toBe('openai');
  });

  it('reads .jsonl of chat messages, and one JSON document saved as .jsonl, by content', () => {
    const lines = '{"role":"user","content":"hi"}\n{"role":"assistant","content":"hello"}\n';
    const a = importTranscript(lines, { sourcePath: 'chat.jsonl' }).conversation;
    expect(a.format).toBe('openai');
    expect(kinds(a.messages)).toEqual(['user/USER_MESSAGE', 'assistant/ASSISTANT_MESSAGE']);
    const b = importTranscript(JSON.stringify({ system: 's', messages: [{ role: 'user', content: 'x' }] }), { sourcePath: 'saved.jsonl' }).conversation;
    expect(b.format).toBe('anthropic');
    expect(() => importTranscript(`${lines}{"role":"user",`, { sourcePath: 'chat.jsonl' })).toThrow(
      /^chat\.jsonl: line 3, column 16: expected a property name in double quotes, found end of input$/,
    );
  });

  it('honours a forced format', () => {
    const r = importTranscript(JSON.stringify([{ role: 'user', content: 'hi' }]), { format: 'anthropic' });
    expect(r.conversation.format).toBe('anthropic');
  });
});
