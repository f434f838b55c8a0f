// What every importer accepts. The caller (CLI, extension) reads the file; importers only see text.

import type { SourceFormat } from '../model';
import type { UsageRecord } from './reportedUsage';

export interface ImportOptions {
  /** Used in error messages and kept in conversation.meta.sourcePath. */
  sourcePath?: string;
  /** Claude Code: include sub-agent (sidechain) lines. Off by default: they are another conversation.
   *  Implies wholeFile (sub-agent lines are never on the chain the CLI resumes). */
  includeSidechains?: boolean;
  /** Claude Code: read every line of the file; aider: every chat session. By default only what the
   *  agent sends is read — the chain the CLI resumes, the last chat session — and the rest is
   *  returned as ImportResult.history. The usage the agent recorded in the file is not read then:
   *  it is that of the part it sends. */
  wholeFile?: boolean;
  /** Usage the agent recorded outside the transcript (Cline's ui_messages.json, read by the caller
   *  with clineUsageRecords), in file order; the newest one the conversation answers is applied. */
  usage?: readonly UsageRecord[];
  /** LongMemEval: which instance of the list to import (default 0). */
  instance?: number;
  /** Skip detection and read the text as this format. */
  format?: SourceFormat;
}
