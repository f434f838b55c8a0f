// `ctxc mcp`: Context Compactor as an MCP server over stdio, on the official SDK, for any agent
// that speaks MCP (Claude Code, Codex, Cline, VS Code). Four tools, each with a JSON schema the
// SDK derives from its zod shape:
//
//   list_sessions    a folder's agent sessions (every agent of the registry) with the tokens each
//                    sends when resumed
//   count_context    a session or transcript → tokens by category, the window, each share
//   session_facts    its must-keep facts (instructions, open tasks, errors, requests, files)
//   compact_session  a resumable compacted session for an agent that resumes one, or the handoff text
//
// A failure is a tool result with isError and one clear line (the SDK turns a thrown error and a
// bad argument into one); nothing but protocol messages goes to stdout — the work here never
// prints, and stray console output is sent to stderr while the server runs.
//
// What a client may make it read: a session by the id list_sessions gives, or by a path inside the
// server's folder or the folders the agents keep sessions in (readablePath); nothing else is opened.
// No reply quotes what a file holds (errors say what was expected, never what was found), and an
// argument is quoted back at most by its first characters (quoteArg; the transport clips every
// error text besides). Malformed and oversized messages get an error reply and the server goes on
// (stdioTransport.ts).

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { figuresJson } from '../../engine/figures';
import { AGENT_IDS, AGENT_MODULES, resumableAgents } from '../../sessions/agents/registry';
import { listSessions } from '../../sessions/sessionCatalog';
import {
  compactSession,
  compactTargets,
  countSession,
  readablePath,
  sessionFacts,
  SessionToolError,
  type SessionRef,
  type ToolContext,
} from '../../sessions/sessionTools';
import { resolve } from 'node:path';
import { sessionJson } from '../commands/sessions';
import { LineStdioTransport } from './stdioTransport';

export const MCP_SERVER_NAME = 'context-compactor';

declare const __CTXC_VERSION__: string | undefined;
const VERSION = typeof __CTXC_VERSION__ === 'string' ? __CTXC_VERSION__ : '0.1.0';

/** Longest path taken (PATH_MAX on Linux); longest id or model name. */
const MAX_PATH_CHARS = 4096;
const MAX_NAME_CHARS = 256;

const sessionShape = {
  file: z
    .string()
    .min(1)
    .max(MAX_PATH_CHARS)
    .optional()
    .describe(
      "Path of a session or transcript file: inside the server's folder (relative to it) or inside the folders the agents keep sessions in. Give this or session_id.",
    ),
  session_id: z.string().min(1).max(MAX_NAME_CHARS).optional().describe('A session id as list_sessions gives it (or its first 8+ characters).'),
  cwd: z.string().min(1).max(MAX_PATH_CHARS).optional().describe("The folder whose sessions session_id is looked up in (default: the server's folder)."),
};

type SessionArgs = { file?: string | undefined; session_id?: string | undefined; cwd?: string | undefined };

/** The session the arguments name; a path only when the client may read it (readablePath). */
async function refOf(a: SessionArgs, ctx: ToolContext): Promise<SessionRef> {
  return {
    ...(a.file !== undefined ? { file: await readablePath(a.file, a.cwd, ctx) } : {}),
    ...(a.session_id !== undefined ? { sessionId: a.session_id } : {}),
    ...(a.cwd !== undefined ? { folder: a.cwd } : {}),
  };
}

function json(value: unknown) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(value, null, 2) }] };
}

/** An expected failure as a tool error with its own message; anything else as an internal error
 *  named by its kind only (its message may quote what it was parsing: Node's JSON.parse does), in
 *  full on stderr, the server's log. */
async function answer<T>(work: () => Promise<T>, render: (v: T) => { content: { type: 'text'; text: string }[] }) {
  try {
    return render(await work());
  } catch (e) {
    if (!(e instanceof SessionToolError)) process.stderr.write(`ctxc mcp: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    const message =
      e instanceof SessionToolError ? e.message : `internal error (${e instanceof Error ? e.name : typeof e}); the server's log (stderr) has the details`;
    return { content: [{ type: 'text' as const, text: message }], isError: true };
  }
}

export function createMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version: VERSION });
  const resumers = resumableAgents();

  server.registerTool(
    'list_sessions',
    {
      title: 'List agent sessions',
      description: `The agent sessions of a folder (${AGENT_MODULES.map((a) => a.name).join(', ')}), newest first, each with the tokens its agent sends when it is resumed, the model's window, and its file. Sub-agents and compacted sessions name their parent.`,
      inputSchema: {
        cwd: z.string().min(1).max(MAX_PATH_CHARS).optional().describe("The folder (default: the server's folder)."),
        agents: z
          .array(z.enum(AGENT_IDS as [string, ...string[]]))
          .min(1)
          .optional()
          .describe(`Only these agents (${AGENT_IDS.join(', ')}).`),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const folder = resolve(ctx.cwd, args.cwd ?? '.');
        const only = args.agents ? Object.fromEntries(AGENT_IDS.map((a) => [a, args.agents!.includes(a)])) : undefined;
        const sessions = await listSessions({ folders: [folder], env: ctx.env, home: ctx.home, ...(only ? { agents: only } : {}) });
        // A session that cannot be read says why without quoting its file.
        return { folder, sessions: sessions.map((s) => ({ ...sessionJson(s), ...(s.errorUnquoted ? { error: s.errorUnquoted } : {}) })) };
      }, json),
  );

  server.registerTool(
    'count_context',
    {
      title: "Count a session's context",
      description:
        "Tokens of a session or transcript as its agent sends them when resumed (the total list_sessions gives): the file's part and the part not in the file (system prompt, tools, from the usage the agent reported), by category (system, tool definitions, user, assistant, tool calls, tool results, thinking, summary, not in the file), with the model's window and each category's share in percent.",
      inputSchema: {
        ...sessionShape,
        model: z.string().min(1).max(MAX_NAME_CHARS).optional().describe('Count for this model (default: the one the session names).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => answer(async () => countSession(await refOf(args, ctx), ctx, args.model), json),
  );

  server.registerTool(
    'session_facts',
    {
      title: 'Must-keep facts of a session',
      description:
        "The facts a summary of the session must not lose, most important first: the user's standing instructions, the open items of the latest task list, the errors met and what became of them, the user's requests, the files acted on.",
      inputSchema: sessionShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => answer(async () => sessionFacts(await refOf(args, ctx), ctx), json),
  );

  server.registerTool(
    'compact_session',
    {
      title: 'Compact a session',
      description: `Compacts a session into an 8-section summary plus the most recent turns. to ${resumers.map((a) => `"${a.id}"`).join(', ')} writes a new session file that agent resumes (${resumers.map((a) => a.resume.command('ID')).join(' / ')}; the original is never changed) and returns its id and command; to "handoff" returns the handoff text to start a new session with. Default: a session of the same agent when it resumes files, else the handoff.`,
      inputSchema: {
        ...sessionShape,
        to: z
          .enum(compactTargets() as [string, ...string[]])
          .optional()
          .describe(compactTargets().join(', ')),
        budget: z.number().int().positive().optional().describe('Target size of the result in tokens.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      answer(
        async () =>
          compactSession(await refOf(args, ctx), ctx, {
            ...(args.to ? { to: args.to } : {}),
            ...(args.budget !== undefined ? { request: { budget: args.budget } } : {}),
          }),
        (r) =>
          r.kind === 'session'
            ? json({
                agent: r.written.agent,
                id: r.written.id,
                file: r.written.file,
                resume: r.written.resume,
                command: r.written.command,
                ...figuresJson(r.figures),
                notes: r.written.notes,
              })
            : {
                content: [
                  { type: 'text' as const, text: JSON.stringify({ handoff: true, file: r.file, ...figuresJson(r.figures) }) },
                  { type: 'text' as const, text: r.text },
                ],
              },
      ),
  );

  return server;
}

/** Serves on stdin/stdout until the client closes stdin. */
export async function serveMcp(ctx: ToolContext): Promise<void> {
  // stdout carries the protocol: anything a dependency logs goes to stderr instead.
  const toStderr = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  const server = createMcpServer(ctx);
  const transport = new LineStdioTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
