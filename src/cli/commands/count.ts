// `ctxc count FILE`: how many tokens a transcript holds, of which window, and what fills it.

import type { Conversation } from '../../engine/conversation/model';
import { createTokenCounter } from '../../engine/tokens/messageCounter';
import { tokenReport, type TokenReport } from '../../engine/tokens/report';
import { TOKEN_CATEGORIES, type TokenCategory } from '../../engine/tokens/tokenCounter';
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

export const CATEGORY_LABELS: Record<TokenCategory, string> = {
  system: 'System',
  toolDefinitions: 'Tool definitions',
  user: 'User',
  assistant: 'Assistant',
  toolCalls: 'Tool calls',
  toolResults: 'Tool results',
  thinking: 'Thinking',
  summary: 'Summary',
};

export const countCommand: CliCommand = {
  name: 'count',
  summary: 'count the tokens of a transcript, by category',
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    return runFileCommand(COUNT_HELP, argv, io, async ({ file, args, loaded }) => {
      const report = await countConversation(loaded.conversation, stringFlag(args, 'model'));
      if (booleanFlag(args, 'json')) io.out(`${JSON.stringify(countJson(file, loaded.conversation, report, loaded.warnings.length))}\n`);
      else io.out(reportText(file, loaded.conversation, report));
      return EXIT_OK;
    });
  },
};

/** The token report for a conversation, with the model asked for, else the one it names. */
export async function countConversation(conv: Conversation, model?: string): Promise<TokenReport> {
  const counter = await createTokenCounter(model ?? conv.meta.model);
  return tokenReport(conv.messages, counter);
}

export interface CountJson {
  file: string;
  format: string;
  model: string;
  encoding: string;
  method: string;
  exact: boolean;
  total: number;
  window: number;
  outputReserve: number;
  percent: number;
  messageCount: number;
  byCategory: Record<TokenCategory, number>;
  warnings: number;
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

/** The human report: totals, model, and a table of what fills the window. */
export function reportText(file: string, conv: Conversation, r: TokenReport): string {
  const lines: string[] = [];
  lines.push(`${file} — ${conv.format}, ${fmt(r.messageCount)} messages`);
  lines.push(`Total:  ${fmt(r.total)} tokens of ${fmt(r.window)} (${r.percent.toFixed(1)}%)${r.method === 'exact' ? '' : r.method === 'estimate' ? ' (estimate)' : ' (approximate)'}`);
  lines.push(`Model:  ${r.model} · ${r.encoding} (${methodLabel(r)})`);
  lines.push('');
  const rows = TOKEN_CATEGORIES.filter((c) => r.byCategory[c] > 0).map((c) => {
    const n = r.byCategory[c];
    const pct = r.total > 0 ? (n / r.total) * 100 : 0;
    return [CATEGORY_LABELS[c], fmt(n), `${pct.toFixed(1)}%`] as const;
  });
  const w0 = Math.max('Category'.length, ...rows.map((x) => x[0].length));
  const w1 = Math.max('Tokens'.length, ...rows.map((x) => x[1].length));
  const w2 = Math.max('Share'.length, ...rows.map((x) => x[2].length));
  lines.push(`${'Category'.padEnd(w0)}  ${'Tokens'.padStart(w1)}  ${'Share'.padStart(w2)}`);
  for (const [a, b, c] of rows) lines.push(`${a.padEnd(w0)}  ${b.padStart(w1)}  ${c.padStart(w2)}`);
  lines.push(`${'Total'.padEnd(w0)}  ${fmt(r.total).padStart(w1)}  ${'100.0%'.padStart(w2)}`);
  return `${lines.join('\n')}\n`;
}
