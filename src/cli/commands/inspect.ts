// `ctxc inspect FILE`: what the compactor thinks of each message — tokens, importance (overall
// and its four components), temporal relevance, and what a compaction with the defaults would
// do with it and why. The plan is the dry run `ctxc compact FILE` would execute.

import { planCompaction, CompactionInputError } from '../../engine/compactor';
import type { MessagePlan } from '../../engine/result';
import { createTokenCounter } from '../../engine/tokens/messageCounter';
import { booleanFlag, stringFlag, type FlagSpec } from '../args';
import { runFileCommand, TRANSCRIPT_FLAGS, type CommandHelp } from '../fileCommand';
import { EXIT_BAD_INPUT, EXIT_OK, type CliCommand, type CliIO } from '../io';

/** Longest reason shown in the table; --json has it whole. */
const REASON_COLUMN_CHARS = 60;

const INSPECT_FLAGS: readonly FlagSpec[] = [
  { name: 'json', kind: 'boolean', description: 'print the rows as JSON instead of the table' },
  { name: 'model', short: 'm', kind: 'string', valueName: 'MODEL', description: 'count for this model (default: the model the transcript names, else gpt-4o)' },
  ...TRANSCRIPT_FLAGS,
];

const USAGE = 'ctxc inspect FILE|- [--json] [--model MODEL]';
const INSPECT_HELP: CommandHelp = { name: 'inspect', usage: USAGE, flags: INSPECT_FLAGS };

export interface InspectRow {
  index: number;
  id: string;
  role: string;
  itemType: string;
  tokens: number;
  overall: number;
  criticality: number;
  dependency: number;
  uniqueness: number;
  actionability: number;
  temporal: number;
  temporalCategory: string;
  decision: string;
  reason: string;
}

export function inspectRows(plan: readonly MessagePlan[]): InspectRow[] {
  return plan.map((p) => ({
    index: p.index,
    id: p.id,
    role: p.role,
    itemType: p.itemType,
    tokens: p.tokens,
    overall: round3(p.importance.overall),
    criticality: round3(p.importance.criticality),
    dependency: round3(p.importance.dependency),
    uniqueness: round3(p.importance.uniqueness),
    actionability: round3(p.importance.actionability),
    temporal: round3(p.importance.temporal),
    temporalCategory: p.importance.temporalCategory,
    decision: p.decision,
    reason: p.reason,
  }));
}

function oneLine(text: string): string {
  const t = text.replace(/\s+/g, ' ');
  return t.length > REASON_COLUMN_CHARS ? `${t.slice(0, REASON_COLUMN_CHARS - 1)}…` : t;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const fix2 = (x: number) => x.toFixed(2);

/** The aligned table: numbers right-aligned, text left-aligned, the reason last. */
export function inspectTable(rows: readonly InspectRow[]): string {
  const header = ['#', 'role', 'itemType', 'tokens', 'overall', 'crit', 'dep', 'uniq', 'act', 'temporal', 'decision', 'reason'];
  const right = new Set([0, 3, 4, 5, 6, 7, 8, 9]);
  const cells = rows.map((r) => [
    String(r.index),
    r.role,
    r.itemType,
    r.tokens.toLocaleString('en-US'),
    fix2(r.overall),
    fix2(r.criticality),
    fix2(r.dependency),
    fix2(r.uniqueness),
    fix2(r.actionability),
    fix2(r.temporal),
    r.decision,
    oneLine(r.reason),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) =>
    c
      .map((x, i) => (i === c.length - 1 ? x : right.has(i) ? x.padStart(widths[i]!) : x.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...cells.map(line)].join('\n')}\n`;
}

export const inspectCommand: CliCommand = {
  name: 'inspect',
  summary: 'show each message with its importance and what compaction would do with it',
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    return runFileCommand(
      INSPECT_HELP,
      argv,
      io,
      async ({ file, args, loaded }) => {
        const conv = loaded.conversation;
        const counter = await createTokenCounter(stringFlag(args, 'model') ?? conv.meta.model);
        const preview = planCompaction(conv, { counter });
        const rows = inspectRows(preview.plan);
        if (booleanFlag(args, 'json')) {
          io.out(
            `${JSON.stringify({ file, model: counter.model.id, tokensBefore: preview.tokensBefore, tokensAfter: preview.tokensAfter, messages: rows }, null, 2)}\n`,
          );
        } else {
          io.out(
            `${file} — ${conv.format}, ${rows.length} messages, ${preview.tokensBefore.toLocaleString('en-US')} tokens (${counter.model.id}); compacted with the defaults: ${preview.tokensAfter.toLocaleString('en-US')}\n\n`,
          );
          io.out(inspectTable(rows));
        }
        return EXIT_OK;
      },
      (e, file) => {
        if (!(e instanceof CompactionInputError)) return undefined;
        io.err(`ctxc inspect: ${file}: ${e.message}\n`);
        return EXIT_BAD_INPUT;
      },
    );
  },
};
