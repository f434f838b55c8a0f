// One number for one thing (design invariant 9): the before and after of a compaction as the agent
// will send them — our count of the messages (the file's part) and, beside it, what the agent sends
// that the file does not hold (its system prompt and tools: from the usage it reported, or what a
// session we wrote inherited from its original) — computed here once, from the conversation's token
// report (tokens/report.ts) and the compaction's result, and shown as they are by every surface: the
// confirmation, the notification, the inspector, the chat, `ctxc compact` (text and JSON), the MCP
// and Copilot tools. No figure is negative.

import type { CompactionResult } from './result';
import { formatCount } from './text/formatNumber';
import type { TokenReport } from './tokens/report';

export interface SentTokens {
  /** What the agent will send: inFile + notInFile. */
  total: number;
  /** Our count of the messages (the file's part), reply priming included. */
  inFile: number;
  /** What the agent sends besides the messages (system prompt, tools). */
  notInFile: number;
}

/** Where the part not in the file comes from. */
export type NotInFileSource = 'reported' | 'inherited' | 'estimate' | 'none';

export interface CompactionFigures {
  before: SentTokens;
  after: SentTokens;
  /** The window of the model the agent sends to. */
  window: number;
  /** before.total / after.total, one decimal: "2.3x". */
  ratio: string;
  /** after.total as a share of before.total, whole percent. */
  percentOfBefore: number;
  /** Where before.notInFile comes from. */
  source: NotInFileSource;
  /** Where after.notInFile comes from: the same as before, or another agent's own estimate when the
   *  result is written into that agent (`ctxc compact --to codex` of a Claude Code session). */
  afterSource: NotInFileSource;
}

/** What the agent a result is written into sends besides it: another agent's own estimate (its
 *  registry estimate: src/sessions/agents), or, written into the conversation's own agent, what the
 *  new session inherits — the overhead measured on the original plus what the new file leaves out
 *  for the agent to render anew (src/sessions/writeSession.ts inheritedFigures). */
export interface TargetOverhead {
  overhead: number;
  /** The conversation's own agent: the figure has the same origin as before's. */
  sameAgent?: boolean;
}

const whole = (n: number) => Math.max(0, Math.round(Number.isFinite(n) ? n : 0));

function sourceOf(report: Pick<TokenReport, 'overhead' | 'reported' | 'inherited'>): NotInFileSource {
  if (report.overhead <= 0) return 'none';
  return report.reported ? 'reported' : report.inherited ? 'inherited' : 'estimate';
}

/** The figures of a compaction of the conversation `report` counts; `target` when the result goes
 *  into an agent's new session (its overhead replaces the conversation's in `after`). */
export function compactionFigures(
  report: Pick<TokenReport, 'overhead' | 'window' | 'reported' | 'inherited'>,
  result: Pick<CompactionResult, 'tokensBefore' | 'tokensAfter'>,
  target?: TargetOverhead,
): CompactionFigures {
  const overhead = whole(report.overhead);
  const afterOverhead = target ? whole(target.overhead) : overhead;
  const before = { inFile: whole(result.tokensBefore), notInFile: overhead, total: 0 };
  before.total = before.inFile + before.notInFile;
  const after = { inFile: whole(result.tokensAfter), notInFile: afterOverhead, total: 0 };
  after.total = after.inFile + after.notInFile;
  const source = sourceOf(report);
  return {
    before,
    after,
    window: whole(report.window),
    ratio: after.total > 0 ? `${(before.total / after.total).toFixed(1)}x` : '∞x',
    percentOfBefore: before.total > 0 ? Math.round((after.total / before.total) * 100) : 100,
    source,
    afterSource: target && !target.sameAgent ? (afterOverhead > 0 ? 'estimate' : 'none') : source === 'none' && afterOverhead > 0 ? 'estimate' : source,
  };
}

/** The figures as the JSON outputs print them (`ctxc compact --format json`, `--to … --format json`,
 *  the MCP server's compact_session): tokensBefore → tokensAfter as the agent will send them, then
 *  the file's part and the part not in the file of each. */
export interface FiguresJson {
  tokensBefore: number;
  tokensAfter: number;
  inFile: { before: number; after: number };
  notInFile: { before: number; after: number; source: NotInFileSource; afterSource: NotInFileSource };
  window: number;
  ratio: string;
}

export function figuresJson(f: CompactionFigures): FiguresJson {
  return {
    tokensBefore: f.before.total,
    tokensAfter: f.after.total,
    inFile: { before: f.before.inFile, after: f.after.inFile },
    notInFile: { before: f.before.notInFile, after: f.after.notInFile, source: f.source, afterSource: f.afterSource },
    window: f.window,
    ratio: f.ratio,
  };
}

/** The figures in English (ctxc, the MCP and Copilot tools, logs): "69,822 → 40,728 tokens as the
 *  agent will send them (1.7x, 58% of the original; 28,744 of each not in the file: system prompt,
 *  tools)"; with nothing known outside the file, "41,078 → 11,984 tokens (3.4x, 29% of the original)". */
export function figuresText(f: CompactionFigures): string {
  const n = formatCount;
  const sent = `${n(f.before.total)} → ${n(f.after.total)} tokens`;
  const share = `${f.ratio}, ${f.percentOfBefore}% of the original`;
  if (f.before.notInFile === 0 && f.after.notInFile === 0) return `${sent} (${share})`;
  const outside =
    f.before.notInFile === f.after.notInFile
      ? `${n(f.before.notInFile)} of each not in the file: system prompt, tools`
      : `not in the file (system prompt, tools): ${n(f.before.notInFile)} before, ${n(f.after.notInFile)} after${f.afterSource === 'estimate' ? ", the target agent's estimate" : ''}`;
  return `${sent} as the agent will send them (${share}; ${outside})`;
}
