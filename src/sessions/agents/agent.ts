// Everything the product knows about one coding agent, in one module per agent (one folder under
// src/sessions/agents/): its name and icon, where its sessions live and the variables that move
// them, how they are found for a workspace and read, how it resumes, how to write a session it
// resumes, its hooks, and the versions it was tested with. The extension, `ctxc`, the MCP server
// and the Copilot tools read the registry (registry.ts); no other file keeps a table of agents.

import type { InheritedFigures } from '../../engine/conversation/exporters/sessionParts';
import type { Conversation, Message, SourceFormat } from '../../engine/conversation/model';
import type { CompactionResult } from '../../engine/result';
import type { FoundSession } from '../agentSession';
import type { Env } from '../locations';
import type { SourceContext } from './sourceContext';

/** The agent's package on the npm registry and the versions of it tested (testedVersions.json). */
export interface TestedVersions {
  package: string;
  bin: string;
  /** The oldest version supported: what `npm run test:agents` checks first. */
  oldest: string;
  /** The newest version known to work. A session written by a newer one is read, and said to be newer. */
  newest: string;
}

/** Where sessions are looked for: the listing's inputs. */
export interface AgentPlaces {
  /** The workspace folders, absolute. */
  folders: readonly string[];
  env: Env;
  home: string;
  /** VS Code-family globalStorage folders. */
  globalStorage: readonly string[];
  /** VS Code-family workspaceStorage folders. */
  workspaceStorage: readonly string[];
}

/** A folder to watch for the agent's session files, and a glob relative to it. */
export interface WatchPlace {
  base: string;
  pattern: string;
}

/** Where a written session goes and what it records. */
export interface WriteContext {
  env: Env;
  home: string;
  /** The folder the session belongs to: where the agent will look from this workspace. */
  cwd: string;
  /** The original's file name, recorded as where the session came from. */
  sourceFile?: string;
  now: Date;
  newUuid: () => string;
  /** What the original's agent measured that the file does not hold, carried to the new session so
   *  it is metered right before the agent answers once. */
  inherited: InheritedFigures;
}

/** The lines of a new session, and where the agent will find it. */
export interface SessionFile {
  /** The new session's id (the agent's own kind of id). */
  id: string;
  /** Absolute path of the file to create. */
  file: string;
  text: string;
  /** Other files the agent needs beside it to resume it (Copilot CLI's workspace.yaml, Cline CLI's
   *  manifest), written the same way (private, exclusive) after it, and removed with it. */
  companions?: { file: string; text: string }[];
  /** What had to change on the way (header messages left out, thinking without signature, …). */
  notes: string[];
}

/** What a register step did: notes, and the session's name in the listing when it is not the file
 *  written (opencode: `<database>#<session id>`, the import file being removed). */
export interface Registered {
  notes: string[];
  listed?: string;
}

/** What the agent will send when it resumes a file, read back with its own rules. */
export interface ReadBack {
  /** The summary text as it will be sent, if one is. */
  summary?: string;
  /** The last user turn as it will be sent. */
  lastUserTurn?: string;
  /** Why the agent would not resume the file as intended, if it would not. */
  problem?: string;
}

/** An agent that resumes a session from a file we write. */
export interface AgentResume {
  /** The command that resumes session `id`, run in the session's folder (the id shell-quoted). */
  command(id: string): string;
  /** The program that command runs, looked for on the PATH before a terminal is opened. */
  program: string;
  /** The new session's lines, or undefined when the compaction left nothing to resume from. */
  sessionFile(original: Conversation, result: CompactionResult, ctx: WriteContext): SessionFile | undefined;
  /** The written file read back as the agent resumes it. */
  readBack(file: string): Promise<ReadBack>;
  /** After the file is written and read back: anything else the agent needs to list it (an index of
   *  its own, or `opencode import`). Returns notes, and where the listing finds the session when it
   *  is not the file written. Throws only when the session cannot be resumed without it (opencode's
   *  import failed): the file is then removed and nothing is left. */
  register?(written: SessionFile, ctx: WriteContext): Promise<string[] | Registered>;
  /** Why no session can be written for the agent on this machine now (opencode: not on the PATH,
   *  so it cannot import one), checked before anything is written; undefined when one can. */
  unavailable?(env: Env): Promise<string | undefined>;
  /** Undo a `register` (the new file is being removed). */
  unregister?(written: SessionFile, ctx: WriteContext): Promise<void>;
  /** Header messages of an original of the same agent that the new file carries over (Codex's base
   *  instructions); the others it leaves out are overhead of the new session until its agent answers. */
  carries?(m: Message): boolean;
  /** The overhead a new session of the same agent inherits is measured on the original's first
   *  recorded request (meta.firstReportedUsage), not its last: the agent's later requests hold more
   *  than its file shows. */
  overheadFromFirstRequest?: boolean;
  /** Tokens the agent sends besides the messages (system prompt and tools), when a session of another
   *  agent is written for it and nothing measured says better. */
  overheadEstimate: number;
}

/** How a handoff reaches an agent that cannot resume a file. */
export interface AgentHandoff {
  /** A VS Code command that opens a new, empty chat or task of the agent (checked to exist before use). */
  newTaskCommand?: string;
  /** The agent's chat is VS Code's own: open it with the handoff in its input. */
  vscodeChat?: boolean;
}

/** A settings file an agent reads hooks from. */
export interface HookSettingsFile {
  path: string;
  /** 'workspace': read only in that folder; 'user': for every project of the person. */
  scope: 'workspace' | 'user';
  /** The folder, for a workspace file. */
  folder?: string;
  /** The file holds our hooks alone (Copilot CLI's hooks folder takes one file per set): removing
   *  them removes the file when nothing else is left in it. */
  ownFile?: boolean;
}

/** A settings object with our hooks added or taken out, every other key and hook as it was. */
export interface HookSettingsChange {
  settings: Record<string, unknown>;
  /** Handlers of ours taken out. */
  removed: number;
  /** Handlers added. */
  added: number;
  /** Nothing but our hooks was in it (an `ownFile` can then be removed). */
  empty?: boolean;
}

/** The hook settings `ctxc hook <agent>` runs with (flags of its command line). */
export interface AgentHookSettings {
  /** Most tokens a repair puts back. */
  maxTokens: number;
  /** Automatic compactions let through within `loopMinutes`; the next one is blocked. */
  loopLimit: number;
  loopMinutes: number;
}

/** One run of `ctxc hook <agent>`: the agent's JSON from stdin in; at most one JSON object for
 *  stdout and one line for stderr out, and the exit code when it is not 0 (Copilot CLI shows a hook's
 *  stderr to the person only when it exits 2). Never throws: a hook must not stop the agent by
 *  accident. */
export type HookRunner = (
  stdinText: string,
  /** `inputDeadlineMs`: stdin was still open after that long; `stdinText` is what came by then. */
  opts: AgentHookSettings & { stateDir: string; now?: () => Date; inputDeadlineMs?: number },
) => Promise<{ output?: Record<string, unknown>; message?: string; exitCode?: number }>;

/** An agent's hooks around its own compactions: how they are installed, and what runs. */
export interface AgentHooks {
  /** The files the hooks can go in: each workspace folder's (when the agent reads one), then the user's. */
  settingsFiles(p: Pick<AgentPlaces, 'folders' | 'env' | 'home'>): HookSettingsFile[];
  /** The events installed, as the agent names them (for the confirmation). */
  events: readonly string[];
  /** The command line the hooks run: `node "<cli.js>" hook <agent>` with the settings as flags. */
  commandLine(cliPath: string, settings?: Partial<AgentHookSettings>): string;
  /** What the install adds for `command` (shown before asking). */
  entry(command: string): unknown;
  /** `settings` (the parsed file, {} when there is none) with our hooks for `command`; an earlier
   *  install of ours is replaced. Throws a SettingsShapeError (claudeHook/hookSettings.ts) for a file it
   *  cannot change safely. */
  add(settings: unknown, command: string): HookSettingsChange;
  /** `settings` without our hooks. */
  remove(settings: unknown): HookSettingsChange;
  has(settings: unknown): boolean;
  /** The runner, loaded only when a hook runs (the hook starts often and must start fast). */
  load(): Promise<HookRunner>;
}

export interface AgentModule {
  /** The id used everywhere: `ctxc sessions --agents`, `--to`, JSON output, settings. */
  readonly id: string;
  /** The product's own name (not translated). */
  readonly name: string;
  /** A codicon id for views. */
  readonly icon: string;
  /** `contextCompactor.sessions.<settingKey>` turns its sessions on and off. */
  readonly settingKey: string;
  /** The environment variables that move its sessions. */
  readonly envVars: readonly string[];
  /** Where it keeps sessions, in words (`ctxc sessions --help`, the README's table). */
  readonly where: string;
  /** The formats its files are read as; also what its reported usage is labelled. */
  readonly formats: readonly SourceFormat[];
  /** The tested versions, when the agent is a CLI the agents test runs. */
  readonly versions?: TestedVersions;
  /** The session files of the workspace folders, found with listings, stats and small reads only. */
  find(ctx: SourceContext): Promise<FoundSession[]>;
  /** The folders to watch for changes of those files. */
  watch(p: AgentPlaces): WatchPlace[];
  /** Absent: the agent cannot resume a file, and a compaction becomes a handoff. */
  readonly resume?: AgentResume;
  readonly handoff?: AgentHandoff;
  /** Absent: the agent has no hooks we install. */
  readonly hooks?: AgentHooks;
  /** Present when the agent keeps its sessions in a store of its own rather than a file each
   *  (opencode's SQLite database): FoundSession.file then names one as `<store>#<session id>`. */
  readonly store?: AgentStore;
}

/** Sessions kept in one store: read by their name, never written. */
export interface AgentStore {
  /** Whether `file` names one of its sessions (by its form alone). */
  owns(file: string): boolean;
  /** The file on disk that holds the session `file` names (the store itself). */
  fileOf(file: string): string;
  /** The session as text in the agent's format (its first); throws an Error naming `file` when
   *  the session is not there or holds more than `maxBytes`. */
  read(file: string, maxBytes: number): Promise<string>;
}
