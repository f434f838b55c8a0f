// A fake model server on 127.0.0.1 for the real agent CLIs: Anthropic Messages (POST /v1/messages,
// Claude Code), OpenAI Responses (POST /v1/responses, Codex), OpenAI Chat Completions (POST
// /v1/chat/completions: Qwen Code, opencode, Copilot CLI, Cline CLI) and the Gemini API (POST
// /v1beta/models/<m>:streamGenerateContent|generateContent|countTokens: Gemini CLI), streamed as SSE
// where the CLI streams.
// Every request is logged with its body (in memory and, when a log file is given, one JSON line
// each), so a test can read exactly what a CLI sent. What the model answers is a function of the
// request: `reply(body, api)` (api: 'anthropic' | 'responses' | 'chat' | 'gemini' | 'gemini-json',
// the last for Gemini CLI's non-streamed side calls that expect a JSON answer) returns { text } or
// { tool: { name, input } } (a tool call the CLI will run; for Codex, `namespace` names the tool
// namespace an MCP server's tools are listed in), and optionally `inputTokens` to report as usage.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

/** The usage a reply reports when the script gives none: what the request holds (characters / 4, as
 *  the count_tokens route answers), so the sessions the CLIs write record how big each request was,
 *  as real ones do; far under any window, so no CLI decides to auto-compact. */
function requestTokens(body) {
  return Math.ceil(JSON.stringify(body ?? {}).length / 4);
}

export async function startFakeModel({ reply, logFile }) {
  const requests = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const entry = { method: req.method, url: req.url, bytes: Buffer.byteLength(raw), body, raw };
      requests.push(entry);
      if (logFile) appendFileSync(logFile, `${JSON.stringify({ method: req.method, url: req.url, bytes: entry.bytes, body })}\n`);
      try {
        route(req, res, body, reply);
      } catch (e) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'fake_server_error', message: String(e && e.stack ? e.stack : e) } }));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Requests to the model endpoints only (not count_tokens or other side calls). */
    modelRequests(api) {
      if (api === 'gemini') return requests.filter((r) => r.method === 'POST' && /:streamGenerateContent$/.test(r.url.split('?')[0]));
      const path = api === 'anthropic' ? '/v1/messages' : api === 'chat' ? '/v1/chat/completions' : '/v1/responses';
      return requests.filter((r) => r.method === 'POST' && r.url.split('?')[0] === path);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function route(req, res, body, reply) {
  const path = (req.url || '').split('?')[0];
  if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
    json(res, { input_tokens: requestTokens(body) });
  } else if (req.method === 'POST' && path === '/v1/messages') {
    anthropic(res, body, reply(body, 'anthropic') ?? { text: 'ok' });
  } else if (req.method === 'POST' && path === '/v1/responses') {
    responses(res, body, reply(body, 'responses') ?? { text: 'ok' });
  } else if (req.method === 'POST' && path === '/v1/chat/completions') {
    chat(res, body, reply(body, 'chat') ?? { text: 'ok' });
  } else if (req.method === 'POST' && /:countTokens$/.test(path)) {
    json(res, { totalTokens: requestTokens(body) });
  } else if (req.method === 'POST' && /:streamGenerateContent$/.test(path)) {
    gemini(res, body, reply(body, 'gemini') ?? { text: 'ok' }, true);
  } else if (req.method === 'POST' && /:generateContent$/.test(path)) {
    gemini(res, body, reply(body, 'gemini-json') ?? { text: '{}' }, false);
  } else if (req.method === 'GET' && path.endsWith('/models')) {
    json(res, { object: 'list', data: [], models: [] });
  } else {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'not_found', message: `fake model server: no route for ${req.method} ${req.url}` } }));
  }
}

function json(res, value) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

let counter = 0;
const nextId = (prefix) => `${prefix}_fake${Date.now().toString(36)}${(++counter).toString(36)}`;

function sse(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return (event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Anthropic Messages, streamed: message_start, one content block (text or tool_use), message_delta, message_stop. */
function anthropic(res, body, r) {
  const model = (body && body.model) || 'claude-fake';
  const inputTokens = r.inputTokens ?? requestTokens(body);
  const message = {
    id: nextId('msg'),
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: 1 },
  };
  if (body && body.stream === false) {
    const content = r.tool ? [{ type: 'tool_use', id: nextId('toolu'), name: r.tool.name, input: r.tool.input }] : [{ type: 'text', text: r.text }];
    json(res, { ...message, content, stop_reason: r.tool ? 'tool_use' : 'end_turn', usage: { input_tokens: inputTokens, output_tokens: 10 } });
    return;
  }
  const send = sse(res);
  send('message_start', { type: 'message_start', message });
  if (r.tool) {
    send('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: nextId('toolu'), name: r.tool.name, input: {} },
    });
    send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(r.tool.input) } });
  } else {
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: r.text } });
  }
  send('content_block_stop', { type: 'content_block_stop', index: 0 });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: r.tool ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 10 } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

/** OpenAI Responses, streamed: created, one output item (a message or a function_call), completed. */
function responses(res, body, r) {
  const send = sse(res);
  const id = nextId('resp');
  const model = (body && body.model) || 'm';
  const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model, status: 'in_progress', output: [] };
  send('response.created', { type: 'response.created', response: base });
  let item;
  if (r.tool) {
    item = {
      type: 'function_call',
      id: nextId('fc'),
      call_id: nextId('call'),
      name: r.tool.name,
      ...(r.tool.namespace ? { namespace: r.tool.namespace } : {}),
      arguments: JSON.stringify(r.tool.input),
      status: 'completed',
    };
    send('response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '' } });
    send('response.function_call_arguments.delta', {
      type: 'response.function_call_arguments.delta',
      output_index: 0,
      item_id: item.id,
      delta: item.arguments,
    });
    send('response.function_call_arguments.done', {
      type: 'response.function_call_arguments.done',
      output_index: 0,
      item_id: item.id,
      arguments: item.arguments,
    });
    send('response.output_item.done', { type: 'response.output_item.done', output_index: 0, item });
  } else {
    const part = { type: 'output_text', text: r.text, annotations: [] };
    item = { type: 'message', id: nextId('m'), role: 'assistant', status: 'completed', content: [part] };
    send('response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } });
    send('response.content_part.added', {
      type: 'response.content_part.added',
      output_index: 0,
      item_id: item.id,
      content_index: 0,
      part: { ...part, text: '' },
    });
    send('response.output_text.delta', { type: 'response.output_text.delta', output_index: 0, item_id: item.id, content_index: 0, delta: r.text });
    send('response.output_text.done', { type: 'response.output_text.done', output_index: 0, item_id: item.id, content_index: 0, text: r.text });
    send('response.output_item.done', { type: 'response.output_item.done', output_index: 0, item });
  }
  const inputTokens = r.inputTokens ?? requestTokens(body);
  send('response.completed', {
    type: 'response.completed',
    response: {
      ...base,
      status: 'completed',
      output: [item],
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 10,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: inputTokens + 10,
      },
    },
  });
  res.end();
}

/** OpenAI Chat Completions: streamed chunks (a text delta or one tool call), then a usage chunk
 *  when the request asks for it (`stream_options.include_usage`), then [DONE]; or one JSON body. */
function chat(res, body, r) {
  const id = nextId('chatcmpl');
  const model = (body && body.model) || 'fake-model';
  const created = Math.floor(Date.now() / 1000);
  const inputTokens = r.inputTokens ?? requestTokens(body);
  const usage = { prompt_tokens: inputTokens, completion_tokens: 10, total_tokens: inputTokens + 10 };
  const toolCall = r.tool ? { id: nextId('call'), type: 'function', function: { name: r.tool.name, arguments: JSON.stringify(r.tool.input) } } : undefined;
  const finish = toolCall ? 'tool_calls' : 'stop';
  if (!body || body.stream !== true) {
    const message = toolCall ? { role: 'assistant', content: null, tool_calls: [toolCall] } : { role: 'assistant', content: r.text };
    json(res, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (choices, extra = {}) => res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`);
  chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  if (toolCall) chunk([{ index: 0, delta: { tool_calls: [{ index: 0, ...toolCall }] }, finish_reason: null }]);
  else chunk([{ index: 0, delta: { content: r.text }, finish_reason: null }]);
  chunk([{ index: 0, delta: {}, finish_reason: finish }]);
  if (body.stream_options && body.stream_options.include_usage) chunk([], { usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** The Gemini API: `:streamGenerateContent?alt=sse` (one SSE event with the whole candidate and the
 *  usage) or `:generateContent` (one JSON body). A tool call is a `functionCall` part. */
function gemini(res, body, r, stream) {
  const inputTokens = r.inputTokens ?? requestTokens(body);
  const parts = r.tool ? [{ functionCall: { name: r.tool.name, args: r.tool.input } }] : [{ text: r.text }];
  const answer = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: inputTokens, candidatesTokenCount: 10, totalTokenCount: inputTokens + 10 },
    modelVersion: 'gemini-fake',
  };
  if (!stream) {
    json(res, answer);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.write(`data: ${JSON.stringify(answer)}\n\n`);
  res.end();
}
