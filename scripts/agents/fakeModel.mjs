// A fake model server on 127.0.0.1 for the real Claude Code and Codex CLIs: Anthropic Messages
// (POST /v1/messages, streamed as SSE) and OpenAI Responses (POST /v1/responses, streamed as SSE).
// Every request is logged with its body (in memory and, when a log file is given, one JSON line
// each), so a test can read exactly what a CLI sent. What the model answers is a function of the
// request: `reply(body, api)` returns { text } or { tool: { name, input } } (a tool call the CLI
// will run; for Codex, `namespace` names the tool namespace an MCP server's tools are listed in),
// and optionally `inputTokens` to report as usage.
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
      const path = api === 'anthropic' ? '/v1/messages' : '/v1/responses';
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
