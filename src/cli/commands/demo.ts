// `ctxc demo` (npm run demo): what the product does, on a real aider session shipped with the
// repo. It runs a list of steps over one loaded transcript: the token report, then the
// compacted conversation (the 8-section summary, then the most recent turns kept verbatim),
// exactly as `ctxc compact` prints it. No key, no network, nothing written.

import { existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { ImportWarning, Conversation } from '../../engine/conversation/model';
import type { TokenReport } from '../../engine/tokens/report';
import { EXIT_BAD_INPUT, EXIT_OK, UsageError, type CliCommand, type CliIO } from '../io';
import { parseArgs, stringFlag, booleanFlag, type FlagSpec } from '../args';
import { readCommandLine, withTranscript, type CommandHelp } from '../fileCommand';
import { runCompaction } from '../../sessions/compactionService';
import { renderConversation, summaryLine } from './compact';
import { countTranscript, reportText } from './count';

/** The demo transcript, relative to the repository root. */
export const DEMO_FIXTURE = 'test/fixtures/afi-core.aider.chat.history.md';

export interface DemoContext {
  file: string;
  conversation: Conversation;
  warnings: ImportWarning[];
  /** Set by the token-report step; later steps may reuse it. */
  report?: TokenReport;
  model?: string;
}

export interface DemoStep {
  title: string;
  run(ctx: DemoContext, io: CliIO): Promise<void>;
}

export const tokenReportStep: DemoStep = {
  title: 'Token report',
  async run(ctx, io) {
    ctx.report = await countTranscript(ctx.conversation, ctx.model);
    io.out(reportText(ctx.file, ctx.conversation, ctx.report));
  },
};

/** The compacted conversation with the defaults `ctxc compact` uses, as `ctxc compact FILE`
 *  prints it (the 8-section summary, then the recent turns), then the headline figures. In
 *  memory only: the demo writes nothing. */
export const compactionStep: DemoStep = {
  title: 'Compacted (ctxc compact, default settings)',
  async run(ctx, io) {
    const { result, figures } = await runCompaction(ctx.conversation, ctx.model ? { model: ctx.model } : {});
    const kept = result.plan.filter((p) => p.decision === 'kept').length;
    io.out(renderConversation(result.conversation, 'md'));
    io.out(`\nSummary + ${kept} of ${result.plan.length} messages kept verbatim.\n`);
    io.out(`${summaryLine(ctx.file, result, figures)}\n`);
  },
};

/** The demo, in order. Append steps here. */
export const DEMO_STEPS: DemoStep[] = [tokenReportStep, compactionStep];

const DEMO_FLAGS: readonly FlagSpec[] = [
  { name: 'model', short: 'm', kind: 'string', valueName: 'MODEL', description: 'count for this model instead of the one the transcript names' },
  { name: 'help', short: 'h', kind: 'boolean', description: 'show this help' },
];
const USAGE = 'ctxc demo [FILE] [--model MODEL]';
const DEMO_HELP: CommandHelp = { name: 'demo', usage: USAGE, flags: DEMO_FLAGS };

/** Where the demo transcript is: next to the CLI bundle (dist/cli.js → ../test/fixtures), else
 *  under the working directory. */
export function findDemoFixture(cwd: string): string | undefined {
  const bases: string[] = [];
  if (typeof __dirname === 'string') bases.push(resolve(__dirname, '..'));
  if (process.argv[1]) bases.push(resolve(dirname(process.argv[1]), '..'));
  bases.push(cwd);
  for (const b of bases) {
    const p = resolve(b, DEMO_FIXTURE);
    if (existsSync(p)) return p;
  }
  return undefined;
}

export const demoCommand: CliCommand = {
  name: 'demo',
  summary: 'show what Context Compactor does, on a real aider session',
  usage: USAGE,
  async run(argv, io) {
    const line = readCommandLine(DEMO_HELP, io, () => {
      const args = parseArgs(argv, DEMO_FLAGS);
      if (booleanFlag(args, 'help')) return 'help';
      if (args.positionals.length > 1) throw new UsageError(`at most one FILE, got ${args.positionals.length}`);
      return { file: args.positionals[0], model: stringFlag(args, 'model') };
    });
    if (!line.ok) return line.exit;
    const { model } = line.value;
    const file = line.value.file ?? findDemoFixture(io.cwd);
    if (!file) {
      io.err(`ctxc demo: ${DEMO_FIXTURE} not found next to the CLI or under ${io.cwd}; pass a transcript FILE\n`);
      return EXIT_BAD_INPUT;
    }
    return withTranscript('demo', io, file, {}, async (loaded) => {
      const shown = relative(io.cwd, file);
      const ctx: DemoContext = {
        file: shown && !shown.startsWith('..') ? shown : file,
        conversation: loaded.conversation,
        warnings: loaded.warnings,
        ...(model ? { model } : {}),
      };
      for (const [i, step] of DEMO_STEPS.entries()) {
        if (i > 0) io.out('\n');
        io.out(`── ${step.title} ──\n`);
        await step.run(ctx, io);
      }
      return EXIT_OK;
    });
  },
};
