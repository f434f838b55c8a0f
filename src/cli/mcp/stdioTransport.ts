// The MCP server's stdio transport: one JSON-RPC message per line on stdin and stdout, as the SDK's
// StdioServerTransport, except for what that one drops or dies on. The SDK's closes the connection
// (and the server exits 0) on a line over 10 MiB, and gives no reply to a line that is not JSON or
// not a JSON-RPC 2.0 message, so the client waits for its own timeout. Here every such line gets an
// error reply and the server goes on:
//
//   not JSON                                   -32700 parse error
//   over MCP_MAX_MESSAGE_BYTES                 -32600, the line's bytes dropped as they arrive
//   "jsonrpc" not "2.0", params not an object  -32600, naming what was expected
//   a batch (an array: MCP no longer has them) -32600 for each request in it, as one array
//
// The reply carries the request's id when it can be told (from the head or the tail of a line too
// large to keep), else null, as JSON-RPC says. Lines are split in one pass over each chunk (a line
// that arrives in a thousand pieces costs its length, not a thousand times it). And nothing sent
// back echoes more than a prefix of what came in: the text of an error (a JSON-RPC error, a tool
// result marked isError) is clipped to MCP_ECHO_CHARS, whatever produced it (the SDK quotes an
// unknown tool's name whole).

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { clip } from '../../engine/text/clip';

/** The longest message taken, as the SDK's own limit: far more than any request of these tools. */
export const MCP_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** The longest error text sent back. */
export const MCP_ECHO_CHARS = 1_000;
/** Bytes kept from each end of a line too large to keep, to find its id in. */
const ID_WINDOW_BYTES = 4 * 1024;
const NEWLINE = 0x0a;

type RequestId = string | number;

/** An id at the start of a message (`{"jsonrpc":"2.0","id":7,…`) or as its last member (`…,"id":7}`,
 *  where the SDK's client puts it). */
const ID_AT_HEAD = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"\\]{0,16}"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,128}")\s*[,}]/;
const ID_AT_TAIL = /[,{]\s*"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,128}")\s*\}\s*$/;

function idIn(head: string, tail: string): RequestId | null {
  const m = ID_AT_HEAD.exec(head) ?? ID_AT_TAIL.exec(tail);
  return m ? (JSON.parse(m[1]!) as RequestId) : null;
}

function isId(v: unknown): v is RequestId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** What is wrong with a value that is not a JSON-RPC 2.0 message, in a few words. */
function invalidReason(v: unknown): string {
  if (v === null || typeof v !== 'object') return 'expected a JSON-RPC 2.0 message (an object)';
  const o = v as Record<string, unknown>;
  if (o['jsonrpc'] !== '2.0') return 'expected "jsonrpc": "2.0"';
  if ('params' in o && (o['params'] === null || typeof o['params'] !== 'object' || Array.isArray(o['params']))) return 'expected "params" to be an object';
  if ('method' in o && typeof o['method'] !== 'string') return 'expected "method" to be a string';
  if ('id' in o && !isId(o['id'])) return 'expected "id" to be a string or a number';
  return 'expected a JSON-RPC 2.0 request, notification or response';
}

function errorReply(id: RequestId | null, code: number, message: string) {
  return { jsonrpc: '2.0' as const, id, error: { code, message } };
}

/** A message on its way out with every error text clipped (see the file's head). */
export function clipEchoes(message: JSONRPCMessage): JSONRPCMessage {
  const m = message as Record<string, unknown>;
  const error = m['error'] as { message?: unknown } | undefined;
  if (error && typeof error.message === 'string' && error.message.length > MCP_ECHO_CHARS) {
    return { ...m, error: { ...error, message: clip(error.message, MCP_ECHO_CHARS) } } as unknown as JSONRPCMessage;
  }
  const result = m['result'] as { isError?: unknown; content?: unknown } | undefined;
  if (result?.isError === true && Array.isArray(result.content)) {
    const content = result.content.map((c: unknown) => {
      const part = c as { type?: unknown; text?: unknown };
      return part.type === 'text' && typeof part.text === 'string' && part.text.length > MCP_ECHO_CHARS
        ? { ...part, text: clip(part.text, MCP_ECHO_CHARS) }
        : c;
    });
    return { ...m, result: { ...result, content } } as unknown as JSONRPCMessage;
  }
  return message;
}

export interface LineTransportOptions {
  maxMessageBytes?: number;
}

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxBytes: number;
  /** The pieces of the line being read, while it is within the limit. */
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  /** A line over the limit: its first and (so far) last bytes, to find its id in. */
  private dropping: { head: Buffer; tail: Buffer } | undefined;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    opts: LineTransportOptions = {},
  ) {
    this.maxBytes = opts.maxMessageBytes ?? MCP_MAX_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.on('end', this.onEnd);
    // A client that went away (EPIPE) ends the connection; it never throws out of a write.
    this.output.on('error', this.onOutputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(clipEchoes(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.pieces = [];
    this.dropping = undefined;
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let nl = buf.indexOf(NEWLINE); nl !== -1; nl = buf.indexOf(NEWLINE, start)) {
      this.take(buf.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < buf.length) this.take(buf.subarray(start));
  };

  private readonly onInputError = (e: Error) => this.onerror?.(e);
  private readonly onOutputError = (e: Error) => {
    this.onerror?.(e);
    void this.close();
  };
  private readonly onEnd = () => void this.close();

  /** Part of the current line: kept while the line is within the limit, else only its ends. */
  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.dropping) {
      this.dropping.tail = lastBytes([this.dropping.tail, part]);
      return;
    }
    if (this.pieceBytes + part.length <= this.maxBytes) {
      this.pieces.push(Buffer.from(part));
      this.pieceBytes += part.length;
      return;
    }
    // Over the limit: from now on only the line's two ends are kept, and the line is answered and
    // dropped at its newline.
    const all = [...this.pieces, part];
    this.dropping = { head: Buffer.from(Buffer.concat(all).subarray(0, ID_WINDOW_BYTES)), tail: lastBytes(all) };
    this.pieces = [];
    this.pieceBytes = 0;
  }

  private endLine(): void {
    if (this.dropping) {
      const { head, tail } = this.dropping;
      this.dropping = undefined;
      const id = idIn(head.toString('utf8'), tail.toString('utf8'));
      const limit = `${Math.round(this.maxBytes / 1024 / 1024)} MiB`;
      void this.write(
        errorReply(id, ErrorCode.InvalidRequest, `Invalid Request: the message is larger than ${limit}, the most this server reads; it was dropped`),
      );
      return;
    }
    const line = Buffer.concat(this.pieces).toString('utf8').replace(/\r$/, '');
    this.pieces = [];
    this.pieceBytes = 0;
    if (line.trim() !== '') this.handle(line);
  }

  private handle(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      void this.write(
        errorReply(idIn(line.slice(0, ID_WINDOW_BYTES), line.slice(-ID_WINDOW_BYTES)), ErrorCode.ParseError, 'Parse error: the line is not JSON'),
      );
      return;
    }
    if (Array.isArray(value)) {
      const ids = value.flatMap((v: unknown) => (v !== null && typeof v === 'object' && isId((v as { id?: unknown }).id) ? [(v as { id: RequestId }).id] : []));
      const why = 'Invalid Request: batches are not supported (MCP has no JSON-RPC batching since 2025-06-18); send one message per line';
      void this.write(ids.length > 0 ? ids.map((id) => errorReply(id, ErrorCode.InvalidRequest, why)) : errorReply(null, ErrorCode.InvalidRequest, why));
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    const id = value !== null && typeof value === 'object' && isId((value as { id?: unknown }).id) ? (value as { id: RequestId }).id : null;
    void this.write(errorReply(id, ErrorCode.InvalidRequest, `Invalid Request: ${invalidReason(value)}`));
  }

  private write(message: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((done) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) done();
      else this.output.once('drain', done);
    });
  }
}

/** The last ID_WINDOW_BYTES of some buffers, in order. */
function lastBytes(parts: Buffer[]): Buffer {
  const out: Buffer[] = [];
  let n = 0;
  for (let i = parts.length - 1; i >= 0 && n < ID_WINDOW_BYTES; i--) {
    const p = parts[i]!.subarray(Math.max(0, parts[i]!.length - (ID_WINDOW_BYTES - n)));
    out.unshift(p);
    n += p.length;
  }
  return Buffer.from(Buffer.concat(out));
}
