// The sessions of a workspace across agents, metered: each source finds its files, each file is
// read (asynchronously), imported as the agent resumes it, and counted. A catalog remembers what it
// read, so a refresh re-reads only the files whose size or modification time changed; the extension
// keeps one catalog and refreshes it when its file watcher fires. Every step can be cancelled
// (AbortSignal) and yields between files, so a long listing never blocks the extension host.
//
// A file that cannot be read as its agent's format is listed with its error, never skipped; an
// empty file (a session being created) is listed with no tokens.

import { homedir } from 'node:os';
import { importTranscript } from '../engine/conversation/importers/detect';
import type { UsageRecord } from '../engine/conversation/importers/reportedUsage';
import { formatTranscriptErrorUnquoted, isTranscriptError, type TranscriptError } from '../engine/conversation/importers/transcriptError';
import type { ImportResult, Message } from '../engine/conversation/model';
import { basisOf, type BasisSource } from '../engine/tokens/calibration';
import { TokenLedger } from '../engine/tokens/ledger';
import type { CachedTokenCounter } from '../engine/tokens/messageCounter';
import type { TokenReport } from '../engine/tokens/report';
import { streamAiderHandle } from '../files/aiderStream';
import { decodeTranscript } from '../files/decodeText';
import { siblingUsage } from '../files/siblingUsage';
import { titleText, type AgentId, type AgentSession, type FoundSession } from './agentSession';
import { RequestScan } from './firstRequest';
import { AGENT_MODULES, agentById, storeOwning } from './agents/registry';
import type { SourceContext } from './agents/sourceContext';
import { newerThanTested } from './agents/versions';
import { counterFactory, type CountingRule } from './compactionService';
import { openRegularFile, overLimitError, readSessionBytes, SESSION_MAX_BYTES } from './diskReads';
import { guessGlobalStorageDirs, guessWorkspaceStorageDirs, type Env } from './locations';

export interface SessionQuery {
  /** The workspace folders. */
  folders: readonly string[];
  /** Sources to leave out (the extension's settings turn each one off); all are on by default. */
  agents?: Partial<Record<AgentId, boolean>>;
  env?: Env;
  home?: string;
  /** VS Code-family globalStorage folders; default: the usual installs (Code, Insiders, VSCodium,
   *  Cursor, code-server). The extension passes the parent of its own globalStorageUri. */
  globalStorage?: readonly string[];
  /** workspaceStorage folders, or a workspace's own storage folder; default: the usual installs. */
  workspaceStorage?: readonly string[];
  signal?: AbortSignal;
  maxBytes?: number;
  /** Called as each session is metered (in the order found), so a view can fill in as it goes. */
  onSession?: (session: AgentSession, done: number, total: number) => void;
  /** How sessions naming no model are counted, and the window (the extension's settings). */
  counting?: CountingRule;
}

/** What the listing found, in one pass: the sessions, newest first. */
export async function listSessions(q: SessionQuery): Promise<AgentSession[]> {
  return new SessionCatalog(q.counting ? counterFactory(q.counting) : undefined).list(q);
}

export class SessionCatalog {
  private readonly read = new Map<string, { key: string; session: AgentSession }>();

  /** `counterFor`: how a session naming `model` (or none) is counted, one counter per model shared
   *  by every session of the catalog (and its live meters); default: that model, else the
   *  registry's default. The extension passes its own (the contextCompactor.model and
   *  maxContextTokens settings, the store's counters), so the Sessions view and the meter count alike. */
  constructor(readonly counterFor: CounterFor = counterFactory()) {}

  /** Finds the sessions and meters the new or changed ones; newest first, children linked. */
  async list(q: SessionQuery): Promise<AgentSession[]> {
    const found = await findSessions(q);
    const out: AgentSession[] = [];
    const seen = new Set<string>();
    for (const f of found) {
      q.signal?.throwIfAborted();
      seen.add(f.file);
      const session = await this.meter(f, q);
      out.push(session);
      q.onSession?.(session, out.length, found.length);
    }
    for (const file of this.read.keys()) if (!seen.has(file)) this.read.delete(file);
    return linkChildren(out);
  }

  /** One session file, read again only when its size or modification time changed. */
  async meter(found: FoundSession, q: Pick<SessionQuery, 'maxBytes' | 'signal'> = {}): Promise<AgentSession> {
    const key = `${found.size}:${found.mtimeMs}`;
    const cached = this.read.get(found.file);
    if (cached && cached.key === key) return { ...cached.session, children: [] };
    const session = await meterSession(found, this.counterFor, q);
    this.read.set(found.file, { key, session });
    // Give the event loop a turn between files: importing and counting are synchronous.
    await new Promise((resolve) => setImmediate(resolve));
    return { ...session, children: [] };
  }
}

/** Every enabled source, run over the folders. */
export async function findSessions(q: SessionQuery): Promise<FoundSession[]> {
  const env = q.env ?? process.env;
  const home = q.home ?? env['HOME'] ?? homedir();
  const ctx: SourceContext = {
    folders: q.folders,
    env,
    home,
    globalStorage: q.globalStorage ?? guessGlobalStorageDirs(env, home),
    workspaceStorage: q.workspaceStorage ?? guessWorkspaceStorageDirs(env, home),
    ...(q.signal ? { signal: q.signal } : {}),
  };
  const out: FoundSession[] = [];
  for (const agent of AGENT_MODULES) {
    if (q.agents?.[agent.id] === false) continue;
    q.signal?.throwIfAborted();
    out.push(...(await agent.find(ctx)));
  }
  return out;
}

/** Reads, imports and counts one session. Never throws for a file it cannot read: the session
 *  comes back with its error. */
export async function meterSession(found: FoundSession, counterFor: CounterFor, q: Pick<SessionQuery, 'maxBytes' | 'signal'> = {}): Promise<AgentSession> {
  const read = await readSession(found, q.maxBytes ?? SESSION_MAX_BYTES);
  q.signal?.throwIfAborted();
  return meterRead(found, read, counterFor);
}

export type CounterFor = (model: string | undefined) => Promise<CachedTokenCounter>;

/** A session's file as read: its import, nothing (an empty file), or why it could not be read
 *  (`unquoted`: the same without what the file holds, when the error quotes it). */
export type SessionRead = { result?: ImportResult } | { error: string; unquoted?: string };

/** The listing's entry for a session from what was read of it. `figures`: what a live meter keeps
 *  between reads of the same session (its counts are then the changed messages' only). */
export async function meterRead(found: FoundSession, read: SessionRead, counterFor: CounterFor, figures = new SessionFigures()): Promise<AgentSession> {
  const base: AgentSession = {
    agent: found.agent,
    id: found.id,
    file: found.file,
    title: titleText(found.title ?? ''),
    tokens: 0,
    window: 0,
    historyTokens: 0,
    messages: 0,
    updated: new Date(found.mtimeMs).toISOString(),
    children: [],
    resumable: found.resumable ?? agentById(found.agent)?.resume !== undefined,
    warnings: 0,
    size: found.size,
    mtimeMs: found.mtimeMs,
    ...(found.cwd ? { cwd: found.cwd } : {}),
    ...(found.parent ? { parent: found.parent } : {}),
    ...(found.relation ? { relation: found.relation } : {}),
  };
  if ('error' in read) {
    const counter = await counterFor(undefined);
    return { ...base, window: counter.model.contextWindow, error: read.error, ...(read.unquoted ? { errorUnquoted: read.unquoted } : {}) };
  }
  if (!read.result) {
    const counter = await counterFor(undefined);
    return { ...base, window: counter.model.contextWindow };
  }
  const { conversation, history, warnings } = read.result;
  const counter = await counterFor(conversation.meta.model);
  // The same total `ctxc count` prints: the reported usage plus what came after it, else our count.
  const report = figures.report(conversation.messages, counter, conversation.meta);
  const title = figures.firstRequest(conversation.messages, history?.conversation.messages ?? []) ?? found.title ?? conversation.meta.title ?? '';
  return {
    ...base,
    title: figures.titleText(title),
    ...(conversation.meta.model ? { model: conversation.meta.model } : {}),
    tokens: report.total,
    ...(report.reported ? { reportedTokens: report.reported.usage.tokens } : {}),
    ...(report.overhead > 0 ? { overhead: report.overhead } : {}),
    window: report.window,
    historyTokens: history ? figures.historyTokens(history.conversation.messages, counter) : 0,
    messages: conversation.messages.length,
    warnings: warnings.length,
    ...versionFacts(found.agent, conversation.meta.agentVersion),
    ...(conversation.meta.cwd && !base.cwd ? { cwd: conversation.meta.cwd } : {}),
  };
}

/** The version that wrote a session, and the newest tested one when it is newer. */
function versionFacts(agent: AgentId, version: string | undefined): Pick<AgentSession, 'agentVersion' | 'newerThanTested'> {
  if (!version) return {};
  const module = agentById(agent);
  const newest = module ? newerThanTested(module, version) : undefined;
  return { agentVersion: version, ...(newest ? { newerThanTested: newest } : {}) };
}

/** A session's counts kept from one read to the next, for a session read again as it grows: the
 *  messages are held in a TokenLedger (a message that is the same object as last time is not
 *  counted again; an appended one is counted once), the calibration against the reported usage adds
 *  up the ledger's counts, and the history is counted again only when it is another list. Each
 *  figure equals what tokenReport and countMessages give for the same messages. */
export class SessionFigures {
  private ledger: TokenLedger | undefined;
  private history: { messages: readonly Message[]; counter: CachedTokenCounter; tokens: number } | undefined;
  private made: TokenReport | undefined;
  /** The list last reported and how many of its first messages were the very objects before it. */
  private synced: { messages: readonly Message[]; kept: number } | undefined;
  private readonly requests = new RequestScan();
  private title: { text: string; title: string } | undefined;

  report(messages: readonly Message[], counter: CachedTokenCounter, meta: BasisSource): TokenReport {
    if (this.ledger?.counter !== counter) this.ledger = new TokenLedger(counter);
    const ledger = this.ledger;
    ledger.sync(messages);
    this.synced = { messages, kept: ledger.sameObjects };
    this.made = ledger.report(basisOf(messages, meta, counter, (i) => ledger.tokensAt(i).total));
    return this.made;
  }

  /** The session's first request (firstRequest.ts), scanning only the messages that are not the
   *  very objects of the last report. */
  firstRequest(live: readonly Message[], history: readonly Message[]): string | undefined {
    return this.requests.find(live, history, this.synced?.messages === live ? this.synced.kept : 0);
  }

  /** titleText of `text`, the last one remembered (an update's title is the last one's). */
  titleText(text: string): string {
    if (this.title?.text !== text) this.title = { text, title: titleText(text) };
    return this.title.title;
  }

  /** The last report made (the session's one count: the extension's meter shows this one). */
  get last(): TokenReport | undefined {
    return this.made;
  }

  historyTokens(messages: readonly Message[], counter: CachedTokenCounter): number {
    const h = this.history;
    if (h && h.messages === messages && h.counter === counter) return h.tokens;
    this.history = { messages, counter, tokens: counter.countMessages(messages) };
    return this.history.tokens;
  }
}

/** Reads and imports one session file (or a session of an agent's store); a file it cannot read
 *  comes back as its error. */
export async function readSession(found: Pick<FoundSession, 'file' | 'size' | 'format'>, maxBytes: number): Promise<SessionRead> {
  const stored = storeOwning(found.file);
  if (stored) {
    let text: string;
    try {
      text = await stored.store.read(found.file, maxBytes);
    } catch (e) {
      return { error: (e as Error).message };
    }
    return importSessionText({ file: found.file, format: found.format ?? stored.formats[0]! }, () => text);
  }
  if (found.size > maxBytes) return { error: overLimitError(found.size, maxBytes) };
  if (found.format === 'aider') {
    const streamed = await streamAiderSession(found.file, maxBytes);
    if (streamed) return streamed;
  }
  const read = await readSessionBytes(found.file, maxBytes);
  if ('error' in read) return read;
  const usage = await siblingUsage(found.file);
  return importSessionText(found, () => decodeTranscript(read.bytes, found.file), usage);
}

/** An aider history read a piece at a time (never one string), from the file itself as
 *  readSessionBytes reads it; undefined for anything the whole read is to handle, which gives the
 *  same result or error. */
async function streamAiderSession(file: string, maxBytes: number): Promise<SessionRead | undefined> {
  const opened = await openRegularFile(file, { followLinks: false });
  if (!('fh' in opened)) return undefined;
  try {
    if (opened.stats.size === 0 || opened.stats.size > maxBytes) return undefined;
    const streamed = await streamAiderHandle(opened.fh, maxBytes, { sourcePath: file, format: 'aider' });
    return streamed ? { result: streamed.result } : undefined;
  } finally {
    await opened.fh.close().catch(() => undefined);
  }
}

/** Imports a session's text as its agent's format (with the usage kept beside it, if any); a
 *  transcript error becomes the session's error. */
export function importSessionText(found: Pick<FoundSession, 'file' | 'format'>, text: () => string, usage?: readonly UsageRecord[]): SessionRead {
  try {
    const t = text();
    if (t.trim() === '') return {};
    return { result: importTranscript(t, { sourcePath: found.file, ...(found.format ? { format: found.format } : {}), ...(usage ? { usage } : {}) }) };
  } catch (e) {
    if (isTranscriptError(e)) return transcriptErrorRead(e);
    throw e;
  }
}

/** A transcript error as a session's error, with its quote-free form. */
export function transcriptErrorRead(e: TranscriptError): { error: string; unquoted: string } {
  return { error: e.message, unquoted: formatTranscriptErrorUnquoted(e) };
}

/** Sessions newest first, each child listed in its parent's `children`: the parent of the same
 *  agent, else one of another agent (a Claude Code session compacted into a Codex rollout). */
function linkChildren(sessions: AgentSession[]): AgentSession[] {
  for (const s of sessions) {
    const parent = parentOf(s, sessions);
    if (parent) parent.children.push(s.id);
  }
  return sessions.sort((a, b) => b.mtimeMs - a.mtimeMs || a.id.localeCompare(b.id));
}

/** The session a session is listed under, if it is in the list. */
export function parentOf(s: AgentSession, sessions: readonly AgentSession[]): AgentSession | undefined {
  if (!s.parent) return undefined;
  return sessions.find((p) => p.id === s.parent && p.agent === s.agent) ?? sessions.find((p) => p.id === s.parent && p !== s);
}
