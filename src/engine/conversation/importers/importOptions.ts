// What every importer accepts. The caller (CLI, extension) reads the file; importers only see text.

import type { SourceFormat } from '../model';

export interface ImportOptions {
  /** Used in error messages and kept in conversation.meta.sourcePath. */
  sourcePath?: string;
  /** Claude Code: include sub-agent (sidechain) lines. Off by default: they are another conversation.
   *  Implies wholeFile (sub-agent lines are never on the chain the CLI resumes). */
  includeSidechains?: boolean;
  /** Claude Code: read every line of the file. By default only the chain the CLI sends when the
   *  session is resumed is read (the rest is returned as ImportResult.history). */
  wholeFile?: boolean;
  /** LongMemEval: which instance of the list to import (default 0). */
  instance?: number;
  /** Skip detection and read the text as this format. */
  format?: SourceFormat;
}
