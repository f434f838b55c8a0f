// What every session source is given, and what it returns: the session files of the workspace
// folders, found with directory listings, stats and small reads only (reading and counting a
// session is the listing's job, so a source stays cheap to run on every refresh).

import type { Env } from '../locations';

export interface SourceContext {
  /** The workspace folders, absolute. */
  folders: readonly string[];
  env: Env;
  home: string;
  /** VS Code-family `globalStorage` folders (Cline and Roo Code keep their tasks there). */
  globalStorage: readonly string[];
  /** VS Code-family `workspaceStorage` folders (chat sessions live in `<hash>/chatSessions`). */
  workspaceStorage: readonly string[];
  signal?: AbortSignal;
}
