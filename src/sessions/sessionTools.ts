// What other agents call on a session through us — the MCP server (`ctxc mcp`) and the
// extension's tools for Copilot's agent mode — in one place: find a session (by file or by the id
// `ctxc sessions` lists), count what fills it, list its must-keep facts, and compact it into a
// session the agent resumes or a handoff. Plain Node: no vscode, no MCP SDK.
//
// Every failure a caller can cause (no such file, no such id, a file that is not a transcript, a
// session too short to compact) is a SessionToolError whose message names the file or id and what
// was expected; the callers show it as it is.

import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { exportConversation } from '../engine/conversation/exporters/exportConversation';
import type { Conversation, ImportResult, Message, SourceFormat } from '../engine/conversation/model';
import type { CompactionFigures } from '../engine/figures';
import { clip } from '../engine/text/clip';
import { TOKEN_CATEGORIES, type TokenCategory } from '../engine/tokens/tokenCounter';
import { dataLine } from '../engine/text/quoteAsData';
import { mustKeepItems, type RestoreCategory } from '../engine/validate/restoreFacts';
import type { AgentId, FoundSession } from './agentSession';
import { agentOfFormat, sessionRoots, storeOwning } from './agents/registry';
import { englishHandoffWords, handoffMarkdown, type HandoffWords } from './handoff';
import { guessGlobalStorageDirs, guessWorkspaceStorageDirs, isInside, type Env } from './locations';
import { SESSION_MAX_BYTES } from './diskReads';
import { CompactionRequestError, countConversation, runCompaction, type CompactionRequest, type CompactionRun, type CountingRule } from './compactionService';
import { findSessions, readSession } from './sessionCatalog';
import { AgentUnavailableError, NothingToWriteError, ReadBackError, resumeTargets, writeCompactedSession, type WrittenSession } from './writeSession';

export class SessionToolError extends Error {
  override name = 'SessionToolError';
}

export interface ToolContext {
  env: Env;
  home: string;
  /** The folder relative paths and session ids are looked up in. */
  cwd: string;
  signal?: AbortSignal;
  /** How sessions naming no model are counted, and the window (the extension's settings). */
  counting?: CountingRule;
}

/** A session by its file, or by its id among a folder's sessions. */
export interface SessionRef {
  /** Taken as it is: a path from outside goes through readablePath first. */
  file?: string;
  sessionId?: string;
  /** The folder whose sessions an id is looked up in (default: the context's cwd). */
  folder?: string;
}

export interface FoundFile {
  file: string;
  agent?: AgentId;
  format?: FoundSession['format'];
}

/** Shortest id prefix taken for a whole id. */
const ID_PREFIX_MIN = 8;
/** Longest echo of an argument in a message: enough to recognise it, never the whole of a huge one. */
const ARG_ECHO_CHARS = 120;

/** An argument as a message quotes it: one line, at most ARG_ECHO_CHARS. */
export function quoteArg(value: string): string {
  return clip(value.replace(/[\u0000-\u001f\u007f]/g, ' '), ARG_ECHO_CHARS);
}

export async function findSession(ref: SessionRef, ctx: ToolContext): Promise<FoundFile> {
  if (ref.file !== undefined && ref.file.trim() !== '') {
    const file = resolve(ctx.cwd, ref.file);
    const stored = storeOwning(file);
    if (stored) return { file, agent: stored.id, format: stored.formats[0]! };
    const s = await stat(file).catch((e: NodeJS.ErrnoException) => {
      throw new SessionToolError(`${quoteArg(file)}: ${e.code === 'ENOENT' ? 'no such file' : `cannot be read (${e.code ?? 'error'})`}`);
    });
    if (!s.isFile()) throw new SessionToolError(`${quoteArg(file)}: not a file (expected a session or transcript file)`);
    return { file };
  }
  if (ref.sessionId !== undefined && ref.sessionId.trim() !== '') {
    const folder = resolve(ctx.cwd, ref.folder ?? '.');
    const id = ref.sessionId.trim();
    const all = await findSessions({ folders: [folder], env: ctx.env, home: ctx.home, ...(ctx.signal ? { signal: ctx.signal } : {}) });
    const exact = all.filter((s) => s.id === id);
    const matches = exact.length > 0 ? exact : id.length >= ID_PREFIX_MIN ? all.filter((s) => s.id.startsWith(id)) : [];
    if (matches.length === 0)
      throw new SessionToolError(
        `no session with id '${quoteArg(id)}' among the ${all.length} sessions of ${quoteArg(folder)} (list_sessions or 'ctxc sessions' gives the ids)`,
      );
    if (matches.length > 1)
      throw new SessionToolError(`the id '${quoteArg(id)}' matches ${matches.length} sessions of ${quoteArg(folder)}; give the whole id or the file`);
    const m = matches[0]!;
    return { file: m.file, agent: m.agent, ...(m.format ? { format: m.format } : {}) };
  }
  throw new SessionToolError('name the session: a file (a session or transcript path) or a session id (from list_sessions)');
}

/** Where a session may be named by path: the context's folder (its transcripts) and the folders
 *  the agents keep its sessions in (and those of `folder`), from the registry. */
function pathPlaces(folder: string | undefined, ctx: ToolContext): { workspace: string; roots: string[]; folders: string[] } {
  const workspace = resolve(ctx.cwd);
  const folders = [...new Set([workspace, ...(folder !== undefined ? [resolve(ctx.cwd, folder)] : [])])];
  const places = {
    folders,
    env: ctx.env,
    home: ctx.home,
    globalStorage: guessGlobalStorageDirs(ctx.env, ctx.home),
    workspaceStorage: guessWorkspaceStorageDirs(ctx.env, ctx.home),
  };
  return { workspace, roots: [workspace, ...sessionRoots(places)], folders };
}

/** The real path of a session a caller from outside named by path (`folder`: the folder it names
 *  for session ids), when it is one it may read: inside the context's folder or the agents' session
 *  folders (pathPlaces), or a file the listing gives for those folders — checked on the path as
 *  given (before anything is opened) and on the path its links lead to. Anything else is refused
 *  with a message that says nothing of what is there. `SessionRef.file` itself is taken as it is:
 *  the MCP server passes what this returns; in-process callers pass files of their own listing. */
export async function readablePath(given: string, folder: string | undefined, ctx: ToolContext): Promise<string> {
  const shown = quoteArg(given);
  const file = resolve(ctx.cwd, given);
  const { workspace, roots, folders } = pathPlaces(folder, ctx);
  const refused = () =>
    new SessionToolError(
      `${shown}: not a session this server reads. Name a session by the id list_sessions gives, or by a path inside ${quoteArg(workspace)} or the folders the agents keep its sessions in`,
    );
  let listed: Promise<string[]> | undefined;
  const listedFiles = () =>
    (listed ??= findSessions({ folders, env: ctx.env, home: ctx.home, ...(ctx.signal ? { signal: ctx.signal } : {}) }).then((all) => all.map((s) => s.file)));
  // The path as given, before anything is opened: no answer tells what lies outside.
  if (!roots.some((r) => isInside(file, r)) && !(await listedFiles()).includes(file)) throw refused();
  // A session of an agent's store (opencode's database) is checked as the store's file on disk.
  const stored = storeOwning(file);
  const onDisk = stored ? stored.store.fileOf(file) : file;
  const real = await realpath(onDisk).catch((e: NodeJS.ErrnoException) => {
    throw new SessionToolError(`${shown}: ${e.code === 'ENOENT' ? 'no such file' : `cannot be read (${e.code ?? 'error'})`}`);
  });
  // Where its links lead, against the places' own real paths.
  if (real !== onDisk) {
    const realOf = (p: string) => realpath(p).catch(() => p);
    const realRoots = await Promise.all(roots.map(realOf));
    if (!realRoots.some((r) => isInside(real, r)) && !(await Promise.all((await listedFiles()).map(realOf))).includes(real)) throw refused();
  }
  const s = await stat(real).catch((e: NodeJS.ErrnoException) => {
    throw new SessionToolError(`${shown}: cannot be read (${e.code ?? 'error'})`);
  });
  if (!s.isFile()) throw new SessionToolError(`${shown}: not a file (expected a session or transcript file)`);
  return stored ? file : real;
}

/** The session's file read and imported as its agent resumes it (the listing's own reader). A
 *  file that is not a transcript is refused without quoting it. */
export async function readSessionFile(found: FoundFile): Promise<ImportResult> {
  // A session of an agent's store has no file of its own: the store says how large it is.
  const size = storeOwning(found.file) ? 0 : (await stat(found.file)).size;
  const read = await readSession({ file: found.file, size, ...(found.format ? { format: found.format } : {}) }, SESSION_MAX_BYTES);
  if ('error' in read) {
    const message = read.unquoted ?? read.error;
    throw new SessionToolError(message.startsWith(found.file) ? message : `${found.file}: ${message}`);
  }
  if (!read.result) throw new SessionToolError(`${found.file}: empty (a session being created has nothing to read yet)`);
  return read.result;
}

export interface SessionCount {
  file: string;
  format: string;
  model: string;
  /** Tokens of what the agent sends when the session is resumed (what list_sessions and `ctxc count`
   *  give): inFile + notInFile. */
  total: number;
  /** Our count of the messages the file holds and the agent sends. */
  inFile: number;
  /** What the agent sends that the file does not hold (system prompt, tools), from the usage it
   *  reported or what the session inherited; 0 when neither is known. */
  notInFile: number;
  /** Where notInFile comes from. */
  notInFileSource: 'reported' | 'inherited' | 'none';
  /** A usage the agent recorded below our count of the same messages: not used. */
  implausibleUsage?: { tokens: number; countedAsOf: number };
  window: number;
  /** total / window × 100. */
  percent: number;
  byCategory: Record<TokenCategory, number>;
  /** Each category's share of the total, in percent (one decimal); never negative, never over 100. */
  share: Record<TokenCategory, number>;
  messages: number;
  /** Tokens the file holds that are not sent (history before a compaction, rewound branches). */
  historyTokens: number;
  exact: boolean;
}

export async function countSession(ref: SessionRef, ctx: ToolContext, model?: string): Promise<SessionCount> {
  const found = await findSession(ref, ctx);
  const { conversation, history } = await readSessionFile(found);
  const { counter, report: r } = await countConversation(conversation, { ...ctx.counting, ...(model ? { model } : {}) });
  const share = Object.fromEntries(TOKEN_CATEGORIES.map((c) => [c, r.total > 0 ? Math.round((r.byCategory[c] / r.total) * 1000) / 10 : 0])) as Record<
    TokenCategory,
    number
  >;
  return {
    file: found.file,
    format: conversation.format,
    model: r.model,
    total: r.total,
    inFile: r.counted,
    notInFile: r.overhead,
    notInFileSource: r.overhead <= 0 ? 'none' : r.reported ? 'reported' : 'inherited',
    ...(r.implausible ? { implausibleUsage: { tokens: r.implausible.usage.tokens, countedAsOf: r.implausible.countedAsOf } } : {}),
    window: r.window,
    percent: r.percent,
    byCategory: r.byCategory,
    share,
    messages: r.messageCount,
    historyTokens: history ? counter.countMessages(history.conversation.messages) : 0,
    exact: r.exact,
  };
}

export interface SessionFact {
  category: RestoreCategory;
  kind: string;
  value: string;
  /** The fact as a summary would list it. */
  line: string;
}

/** Messages of the whole session: what the file holds but the agent no longer sends (before a
 *  compaction, and branches left by a rewind) first, then what it sends. */
function wholeSession(result: ImportResult): Message[] {
  return [...(result.history?.conversation.messages ?? []), ...result.conversation.messages];
}

export async function sessionFacts(ref: SessionRef, ctx: ToolContext): Promise<{ file: string; format: string; facts: SessionFact[] }> {
  const found = await findSession(ref, ctx);
  const result = await readSessionFile(found);
  const facts = mustKeepItems(wholeSession(result)).map((i) => ({ category: i.category, kind: i.fact.kind, value: dataLine(i.fact.value), line: i.line }));
  return { file: found.file, format: result.conversation.format, facts };
}

/** An agent id that resumes files (resumeTargets()), or 'handoff'. */
export type CompactTarget = string;

/** Where a compaction can go: every agent that resumes a file we write, or a handoff. */
export function compactTargets(): string[] {
  return [...resumeTargets(), 'handoff'];
}

export interface CompactSessionOptions {
  /** Where the result goes (default: a session of the same agent when it resumes files, else a handoff). */
  to?: CompactTarget;
  /** What else is asked of the compaction (the extension's settings, the MCP tool's budget). */
  request?: CompactionRequest;
  /** The handoff's words (default English). */
  words?: (label: string) => HandoffWords;
}

/** A compaction's outcome with its figures (before → after as the agent will send them). */
export type CompactedSession =
  | { kind: 'session'; written: WrittenSession; figures: CompactionFigures; file: string }
  | { kind: 'handoff'; text: string; figures: CompactionFigures; file: string };

/** The session's own agent when it resumes files and can take one here now (opencode needs to be
 *  on the PATH to import it), else a handoff. */
async function defaultTarget(format: SourceFormat, env: Env): Promise<CompactTarget> {
  const agent = agentOfFormat(format);
  if (!agent?.resume) return 'handoff';
  return (await agent.resume.unavailable?.(env)) ? 'handoff' : agent.id;
}

/** A label for a handoff: the session's first request, else its file. */
function labelOf(conv: Conversation, file: string): string {
  return conv.meta.title ?? file.split(/[\\/]/).pop() ?? file;
}

export async function compactSession(ref: SessionRef, ctx: ToolContext, opts: CompactSessionOptions = {}): Promise<CompactedSession> {
  const found = await findSession(ref, ctx);
  const { conversation } = await readSessionFile(found);
  const to = opts.to ?? (await defaultTarget(conversation.format, ctx.env));
  let run: CompactionRun;
  try {
    run = await runCompaction(
      conversation,
      { ...ctx.counting, ...opts.request, ...(to !== 'handoff' ? { to } : {}) },
      ctx.signal ? { signal: ctx.signal } : {},
    );
  } catch (e) {
    if (e instanceof CompactionRequestError) throw new SessionToolError(`${found.file}: ${e.message}`);
    throw e;
  }
  const { result, figures } = run;
  if (to === 'handoff') {
    const label = labelOf(conversation, found.file);
    const words = (opts.words ?? englishHandoffWords)(label);
    return {
      kind: 'handoff',
      text: handoffMarkdown(label, words, exportConversation(result.conversation, 'markdown', { textAsData: true })),
      figures,
      file: found.file,
    };
  }
  try {
    const written = await writeCompactedSession(to, conversation, result, {
      env: ctx.env,
      home: ctx.home,
      fallbackCwd: ctx.cwd,
      sourceFile: found.file.split(/[\\/]/).pop()!,
      inherited: run.inherited,
    });
    return { kind: 'session', written, figures, file: found.file };
  } catch (e) {
    if (e instanceof NothingToWriteError) throw new SessionToolError(`${found.file}: ${e.message}; nothing was written`);
    if (e instanceof ReadBackError) throw new SessionToolError(e.message);
    if (e instanceof AgentUnavailableError) throw new SessionToolError(`${e.message}; nothing was written`);
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string') throw new SessionToolError(`cannot write the ${to} session: ${(e as Error).message}; nothing was written`);
    throw e;
  }
}
