// `ctxc count FILE`: how many tokens the agent's next request will hold, of which window, and what
// fills it. When the transcript records what the API counted for a request, the total is that figure
// plus our count of what came after it, and the difference between the figure and our count of the
// same messages — what the file does not show — is its own category; else it is our count.

import type { Conversation, ReportedUsage, UsageParts, UsageSource } from '../../engine/conversation/model';
import type { TokenReport } from '../../engine/tokens/report';
import { countConversation } from '../../sessions/compactionService';
import { categoryRowLabel, TOKEN_CATEGORIES, type TokenCategory } from '../../engine/tokens/tokenCounter';
import { usageSourceLabel } from '../../sessions/agents/registry';
import { booleanFlag, stringFlag, type FlagSpec } from '../args';
import { runFileCommand, TRANSCRIPT_FLAGS, type CommandHelp } from '../fileCommand';
import { EXIT_OK, type CliCommand, type CliIO } from '../io';

export const COUNT_FLAGS: readonly FlagSpec[] = [
  { name: 'model', short: 'm', kind: 'string', valueName: 'MODEL', description: 'count for this model (default: the model the transcript names, else gpt-4o)' },
  { name: 'json', kind: 'boolean', description: 'print one JSON object instead of the table' },
  ...TRANSCRIPT_FLAGS,
];

const USAGE = 'ctxc count FILE|- [--model MODEL] [--json] [--include-sidechains]';
const COUNT_HELP: CommandHelp = { name: 'count', usage: USAGE, flags: COUNT_FLAGS };

export const countCommand: CliCommand = {
  name: 'count',
  summary: 'count the tokens of a transcript, by category',
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    return runFileCommand(COUNT_HELP, argv, io, async ({ file, args, loaded }) => {
      const report = await countTranscript(loaded.conversation, stringFlag(args, 'model'));
      if (booleanFlag(args, 'json')) io.out(`${JSON.stringify(countJson(file, loaded.conversation, report, loaded.warnings.length))}\n`);
      else io.out(reportText(file, loaded.conversation, report));
      return EXIT_OK;
    });
  },
};

/** The token report for a conversation, with the model asked for, else the one it names; built on
 *  the usage the transcript reports, or what a session we wrote inherited (compactionService.ts,
 *  the count every front end makes). */
export async function countTranscript(conv: Conversation, model?: string): Promise<TokenReport> {
  return (await countConversation(conv, model ? { model } : {})).report;
}

/** Where a reported figure came from, as `count --json` prints it. */
export interface ReportedJson {
  tokens: number;
  source: UsageSource;
  messageId: string;
  line?: number;
  index?: number;
  file?: string;
  parts: UsageParts;
  rounding?: number;
  /** Our count of the messages that request held. */
  countedAsOf: number;
}

export interface CountJson {
  file: string;
  format: string;
  model: string;
  encoding: string;
  method: string;
  exact: boolean;
  /** The best estimate of the next request: `reported.tokens + countedSince`, or our count. */
  total: number;
  /** Our own count of the messages. */
  counted: number;
  /** The usage the transcript records for its last request, or null. */
  reported: ReportedJson | null;
  /** Our count of the messages from the answer to that request on, or null. */
  countedSince: number | null;
  /** total − counted: what the file does not show (system prompt, tools) and our tokenizer's error;
   *  never negative. */
  overhead: number;
  /** A session we wrote, before its agent answered: what it took over from its original, or null. */
  inherited: { model?: string; overhead?: number; window?: number } | null;
  /** A usage recorded below our count of the messages it covered (not used), or null. */
  implausible: { tokens: number; countedAsOf: number; line?: number; index?: number; file?: string } | null;
  window: number;
  outputReserve: number;
  percent: number;
  messageCount: number;
  byCategory: Record<TokenCategory, number>;
  warnings: number;
}

export function reportedJson(r: TokenReport): ReportedJson | null {
  if (!r.reported) return null;
  const { atMessageId, contextWindow: _w, totalInputTokens: _i, totalOutputTokens: _o, ...where } = r.reported.usage;
  return { ...where, messageId: atMessageId, countedAsOf: r.reported.countedAsOf };
}

export function countJson(file: string, conv: Conversation, r: TokenReport, warnings: number): CountJson {
  return {
    file,
    format: conv.format,
    model: r.model,
    encoding: r.encoding,
    method: r.method,
    exact: r.exact,
    total: r.total,
    counted: r.counted,
    reported: reportedJson(r),
    countedSince: r.reported?.countedSince ?? null,
    overhead: r.overhead,
    inherited: r.inherited ?? null,
    implausible: r.implausible ? { ...usageAt(r.implausible.usage), tokens: r.implausible.usage.tokens, countedAsOf: r.implausible.countedAsOf } : null,
    window: r.window,
    outputReserve: r.outputReserve,
    percent: r.percent,
    messageCount: r.messageCount,
    byCategory: r.byCategory,
    warnings,
  };
}

/** How sure the count is, in words. */
export function methodLabel(r: TokenReport): string {
  if (r.method === 'exact') return 'exact';
  if (r.method === 'proxy') return `approximate: ${r.encoding} proxy`;
  return 'estimate';
}

const fmt = (n: number) => n.toLocaleString('en-US');

function usageAt(u: Pick<ReportedUsage, 'line' | 'index' | 'file'>): Pick<ReportedUsage, 'line' | 'index' | 'file'> {
  return { ...(u.line !== undefined ? { line: u.line } : {}), ...(u.index !== undefined ? { index: u.index } : {}), ...(u.file ? { file: u.file } : {}) };
}

/** "line 501", "ui_messages.json[212]", "messages[40]". */
export function usageWhere(u: Pick<ReportedUsage, 'line' | 'index' | 'file'>): string {
  if (u.line !== undefined) return `${u.file ? `${u.file} ` : ''}line ${u.line}`;
  if (u.index !== undefined) return u.file ? `${u.file}[${u.index}]` : `messages[${u.index}]`;
  return u.file ?? 'the file';
}

/** Where the total comes from, in one line. */
export function sourceText(r: TokenReport): string {
  if (r.reported) {
    const u = r.reported.usage;
    const rounding = u.rounding ? ` (printed rounded, ±${fmt(u.rounding)})` : '';
    const since =
      r.reported.countedSince !== undefined
        ? ` + ${fmt(r.reported.countedSince)} counted since`
        : `; the messages it covered were replaced: ${fmt(r.counted)} counted + ${fmt(r.overhead)} not in the file`;
    return `${fmt(u.tokens)} as reported by the API (${usageSourceLabel(u.source)}, ${usageWhere(u)})${rounding}${since}`;
  }
  if (r.inherited && r.overhead > 0)
    return `${fmt(r.counted)} counted + ${fmt(r.overhead)} not in the file, as recorded when Compact wrote this session (no usage recorded here yet)`;
  if (r.implausible) {
    const u = r.implausible.usage;
    return `our count: the usage recorded (${fmt(u.tokens)}, ${usageSourceLabel(u.source)}, ${usageWhere(u)}) is below our count of the same messages (${fmt(r.implausible.countedAsOf)}), so it is not used`;
  }
  if (r.method === 'exact') return `counted with ${r.model}'s own tokenizer (${r.encoding}); the file records no usage`;
  if (r.method === 'proxy') return `an estimate: counted with ${r.encoding} as a proxy for ${r.model}'s tokenizer; the file records no usage`;
  return 'an estimate from the characters; the file records no usage';
}

/** The human report: totals, where they come from, model, and a table of what fills the window. */
export function reportText(file: string, conv: Conversation, r: TokenReport): string {
  const lines: string[] = [];
  lines.push(`${file} — ${conv.format}, ${fmt(r.messageCount)} messages`);
  lines.push(
    `Total:  ${fmt(r.total)} tokens of ${fmt(r.window)} (${r.percent.toFixed(1)}%)${r.reported || r.inherited || r.method === 'exact' ? '' : r.method === 'estimate' ? ' (estimate)' : ' (approximate)'}`,
  );
  lines.push(`Source: ${sourceText(r)}`);
  lines.push(`Model:  ${r.model} · ${r.encoding} (${methodLabel(r)})`);
  lines.push('');
  const rows = TOKEN_CATEGORIES.filter((c) => r.byCategory[c] > 0).map((c) => {
    const n = r.byCategory[c];
    const pct = r.total > 0 ? (n / r.total) * 100 : 0;
    return [categoryRowLabel(c), fmt(n), `${pct.toFixed(1)}%`] as const;
  });
  const w0 = Math.max('Category'.length, ...rows.map((x) => x[0].length));
  const w1 = Math.max('Tokens'.length, ...rows.map((x) => x[1].length));
  const w2 = Math.max('Share'.length, ...rows.map((x) => x[2].length));
  lines.push(`${'Category'.padEnd(w0)}  ${'Tokens'.padStart(w1)}  ${'Share'.padStart(w2)}`);
  for (const [a, b, c] of rows) lines.push(`${a.padEnd(w0)}  ${b.padStart(w1)}  ${c.padStart(w2)}`);
  lines.push(`${'Total'.padEnd(w0)}  ${fmt(r.total).padStart(w1)}  ${'100.0%'.padStart(w2)}`);
  return `${lines.join('\n')}\n`;
}
