// `ctxc compact FILE`: the compacted conversation (8-section summary + kept messages) in
// Markdown, JSON or an API request shape; with --archive the original is stored on disk first
// and `ctxc undo` (undo.ts) prints it back exactly.
//
// The flags become a CompactionRequest run by src/sessions/compactionService.ts, as every front end
// runs one; the figures printed (the stderr line, `--format json`'s tokensBefore and tokensAfter)
// are its figures: what the agent will send, the part not in the file beside the file's part. No
// clock is passed: the output is the same bytes on every run (stats.timestamp is the transcript's
// last timestamp). With --summarizer openai, --model names the LLM (src/summarizers/README.md) and
// the count follows the transcript.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { MemoryArchive } from '../../engine/archive/memoryArchive';
import { summaryTextOf } from '../../engine/compactor';
import { exportConversation } from '../../engine/conversation/exporters/exportConversation';
import type { Conversation } from '../../engine/conversation/model';
import { figuresJson, figuresText, type CompactionFigures } from '../../engine/figures';
import type { CompactionResult } from '../../engine/result';
import { isLevel, LEVELS } from '../../engine/strategies/levelStrategy';
import { listStrategies } from '../../engine/strategies/registry';
import type { Summarizer } from '../../engine/summarizer';
import { clip, MAX_ECHO_CHARS } from '../../engine/text/clip';
import { warningText } from '../../engine/warnings';
import { CompactionRequestError, runCompaction, type CompactionRequest, type CompactionRun } from '../../sessions/compactionService';
import { checkWriteTarget, isAtomicWriteError, writeFileAtomic, type AtomicWriteError } from '../../files/atomicWrite';
import { FileArchive } from '../../files/fileArchive';
import { createSummarizerFromCliArgs, SUMMARIZER_CLI_USAGE } from '../../summarizers/fromCli';
import { booleanFlag, numberFlag, stringFlag, type FlagSpec, type ParsedArgs } from '../args';
import { readCommandLine, readFileArgs, TRANSCRIPT_FLAGS, transcriptOptions, withTranscript, type CommandHelp } from '../fileCommand';
import { EXIT_BAD_INPUT, EXIT_LLM_FALLBACK, EXIT_OK, EXIT_USAGE, EXIT_WRITE_FAILED, UsageError, type CliCommand, type CliIO } from '../io';
import { inputName, STDIN_FILE } from '../readTranscript';
import { parseTarget, writeResumableSession } from './compactTo';
import { resumeTargets } from '../../sessions/writeSession';

/** Where the platform shows the file standard input reads (Linux, macOS). */
const STDIN_DEVICE = '/dev/stdin';

/** Output formats of compact and undo; md is the default. */
export const OUTPUT_FORMATS = ['md', 'json', 'openai', 'anthropic'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Archive key suffix of the original file's exact bytes (beside the archived conversation). */
export const SOURCE_KEY_SUFFIX = '.source';

export const COMPACT_FLAGS: readonly FlagSpec[] = [
  { name: 'budget', short: 'b', kind: 'number', valueName: 'N', description: 'target size of the result in tokens' },
  { name: 'ratio', short: 'r', kind: 'number', valueName: 'R', description: 'target size as a share of the original, 0 < R ≤ 1 (default 0.3)' },
  { name: 'keep-recent', kind: 'number', valueName: 'N', description: 'recent rounds kept verbatim (default 2)' },
  { name: 'format', short: 'f', kind: 'string', valueName: 'FMT', description: 'md (default), json, openai or anthropic' },
  { name: 'out', short: 'o', kind: 'string', valueName: 'FILE', description: 'write the result to FILE (atomically) instead of stdout' },
  {
    name: 'model',
    short: 'm',
    kind: 'string',
    valueName: 'MODEL',
    description: 'count for this model (default: the model the transcript names, else gpt-4o); with --summarizer openai, the summarizer model',
  },
  { name: 'focus', kind: 'string', valueName: 'TEXT', description: 'what the summary should favour' },
  { name: 'strategy', kind: 'string', valueName: 'NAME', description: 'compaction strategy (default adaptive; see ctxc strategies)' },
  { name: 'level', kind: 'string', valueName: 'LEVEL', description: 'light, normal (default), heavy or emergency' },
  { name: 'archive', kind: 'string', valueName: 'DIR', description: "store the original in DIR first; prints the id 'ctxc undo' takes" },
  {
    name: 'require-llm',
    kind: 'boolean',
    description: `with --summarizer openai: when the LLM summary is not used, write nothing and exit ${EXIT_LLM_FALLBACK}`,
  },
  {
    name: 'to',
    kind: 'string',
    valueName: 'AGENT',
    description: `write a new session that the agent resumes (${resumeTargets().join(', ')}); prints its id and the resume command`,
  },
  {
    name: 'cwd',
    kind: 'string',
    valueName: 'DIR',
    description: "with --to: the session's folder (default: the one the transcript records, else the current one)",
  },
  ...TRANSCRIPT_FLAGS,
];

const USAGE =
  'ctxc compact FILE|- [--budget N | --ratio R] [--keep-recent N] [--format md|json|openai|anthropic] [--out F] [--model M] [--focus TEXT] [--strategy NAME] [--level LEVEL] [--archive DIR] [--require-llm] [--to AGENT [--cwd DIR]]';
const COMPACT_HELP: CommandHelp = { name: 'compact', usage: USAGE, flags: COMPACT_FLAGS, helpTail: SUMMARIZER_CLI_USAGE };

export function parseFormat(value: string | undefined): OutputFormat {
  if (value === undefined) return 'md';
  if (value === 'markdown') return 'md';
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`--format expects one of ${OUTPUT_FORMATS.join(', ')}, got '${clip(value)}'`);
}

/** A conversation as text in one of the output formats (json: the conversation itself). */
export function renderConversation(conv: Conversation, format: OutputFormat): string {
  if (format === 'json') return `${JSON.stringify(conv, null, 2)}\n`;
  const text = exportConversation(conv, format === 'md' ? 'markdown' : format);
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** What `--format json` prints: the CompactionResult with the headline figures first (figuresJson:
 *  tokensBefore → tokensAfter as the agent will send them, and their parts). */
export function compactJson(
  file: string,
  model: string,
  run: Pick<CompactionRun, 'result' | 'figures'>,
  summaryMarkdown: string | undefined,
): Record<string, unknown> {
  const { tokensBefore: _b, tokensAfter: _a, warnings, ...rest } = run.result;
  return {
    file,
    model,
    ...figuresJson(run.figures),
    retention: run.result.loss.overallRetention,
    lossLevel: run.result.loss.lossLevel,
    summaryMarkdown: summaryMarkdown ?? '',
    warnings: warnings.map((w) => ({ ...w, text: warningText(w) })),
    ...rest,
  };
}

/** The one line on stderr: tokens before → after as the agent will send them (the figures every
 *  surface shows), ratio, retention, loss level; the part not in the file said when there is one. */
export function summaryLine(file: string, r: Pick<CompactionResult, 'loss'>, f: CompactionFigures): string {
  return `${file}: ${figuresText(f)}, retention ${Math.round(r.loss.overallRetention * 100)}% (${r.loss.lossLevel} loss)`;
}

interface CompactArgs {
  file: string;
  args: ParsedArgs;
  format: OutputFormat;
  request: CompactionRequest;
  summarizer?: Summarizer;
  /** Who writes the summary, for the stderr line ("openai (gpt-4o-mini at localhost:11434)"); never the key. */
  summarizerDescription: string;
  requireLlm: boolean;
}

function readArgs(argv: string[], io: CliIO): CompactArgs | 'help' {
  const llm = createSummarizerFromCliArgs(argv, io.env);
  if (!llm.ok) throw new UsageError(llm.error);
  const fileArgs = readFileArgs(llm.rest, COMPACT_FLAGS);
  if (fileArgs === 'help') return 'help';
  const { file, args } = fileArgs;
  const budget = numberFlag(args, 'budget');
  const ratio = numberFlag(args, 'ratio');
  const keep = numberFlag(args, 'keep-recent');
  if (budget !== undefined && ratio !== undefined) throw new UsageError('--budget and --ratio: give one of them, not both');
  if (budget !== undefined && !(Number.isInteger(budget) && budget > 0))
    throw new UsageError(`--budget expects a positive whole number of tokens, got '${budget}'`);
  if (ratio !== undefined && !(ratio > 0 && ratio <= 1)) throw new UsageError(`--ratio expects a number in (0, 1], got '${ratio}'`);
  if (keep !== undefined && !(Number.isInteger(keep) && keep >= 0)) throw new UsageError(`--keep-recent expects a whole number ≥ 0, got '${keep}'`);
  const focus = stringFlag(args, 'focus');
  const strategy = stringFlag(args, 'strategy');
  if (strategy !== undefined && !listStrategies().some((s) => s.name === strategy))
    throw new UsageError(
      `--strategy: unknown strategy '${clip(strategy)}'; expected one of: ${listStrategies()
        .map((s) => s.name)
        .join(', ')}`,
    );
  const level = stringFlag(args, 'level');
  if (level !== undefined && !isLevel(level)) throw new UsageError(`--level expects one of ${LEVELS.join(', ')}, got '${clip(level)}'`);
  const requireLlm = booleanFlag(args, 'require-llm');
  if (requireLlm && !llm.summarizer) throw new UsageError('--require-llm needs an LLM summarizer (--summarizer openai)');
  const to = parseTarget(stringFlag(args, 'to'));
  if (to === undefined && stringFlag(args, 'cwd') !== undefined) throw new UsageError('--cwd goes with --to (the folder of the session written)');
  if (to !== undefined && stringFlag(args, 'out') !== undefined)
    throw new UsageError("--to writes a session into the agent's folder; --out does not go with it");
  // With --summarizer openai, --model names the summarizer's model (as in the summarizer docs);
  // the counting then follows the transcript.
  const model = llm.summarizer ? undefined : stringFlag(args, 'model');
  return {
    file,
    args,
    format: parseFormat(stringFlag(args, 'format')),
    summarizerDescription: llm.description,
    requireLlm,
    ...(llm.summarizer ? { summarizer: llm.summarizer } : {}),
    request: {
      ...(model !== undefined ? { model } : {}),
      ...(budget !== undefined ? { budget } : {}),
      ...(ratio !== undefined ? { ratio } : {}),
      ...(keep !== undefined ? { keepRecentRounds: keep } : {}),
      ...(focus ? { focus } : {}),
      ...(strategy ? { strategy } : {}),
      ...(level !== undefined && isLevel(level) ? { level } : {}),
      ...(to !== undefined ? { to } : {}),
    },
  };
}

/** The exit code and the one line for an output that was refused or could not be written. */
function writeFailure(io: CliIO, command: string, out: string, e: AtomicWriteError): number {
  if (e.failure === 'protected') {
    const input = e.protectedPath === STDIN_DEVICE ? 'standard input' : (e.protectedPath ?? e.target);
    io.err(`ctxc ${command}: --out ${out} is the transcript being read (${input}); write the result to another file; nothing was written\n`);
    return EXIT_BAD_INPUT;
  }
  const hint =
    e.failure === 'notRegularFile' && e.code !== 'EISDIR'
      ? " (--out replaces a regular file atomically; for a device or a pipe, redirect standard output: '> FILE')"
      : '';
  io.err(`ctxc ${command}: cannot write ${out}: ${e.reason}${hint}; nothing was written\n`);
  return EXIT_WRITE_FAILED;
}

/** Checks --out before any work: undefined when it can be written, else the exit code (the reason
 *  already printed). `protect`: the files being read, which --out may never replace. */
export async function checkOut(io: CliIO, command: string, out: string | undefined, protect: readonly string[]): Promise<number | undefined> {
  if (out === undefined || out === '-') return undefined;
  try {
    await checkWriteTarget(resolve(io.cwd, out), { protect: protect.map((p) => resolve(io.cwd, p)) });
    return undefined;
  } catch (e) {
    if (!isAtomicWriteError(e)) throw e;
    return writeFailure(io, command, out, e);
  }
}

/** Writes the text to --out (atomically) or stdout; the exit code (EXIT_OK, or the failure's
 *  after printing it). `protect`: the files being read, which --out may never replace. */
export async function emit(io: CliIO, command: string, text: string, out: string | undefined, protect: readonly string[] = []): Promise<number> {
  if (out === undefined || out === '-') {
    io.out(text);
    return EXIT_OK;
  }
  try {
    await writeFileAtomic(resolve(io.cwd, out), text, { protect: protect.map((p) => resolve(io.cwd, p)) });
    return EXIT_OK;
  } catch (e) {
    if (!isAtomicWriteError(e)) throw e;
    return writeFailure(io, command, out, e);
  }
}

export const compactCommand: CliCommand = {
  name: 'compact',
  summary: 'compact a transcript into an 8-section summary plus the recent messages',
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const line = readCommandLine(COMPACT_HELP, io, () => readArgs(argv, io));
    if (!line.ok) return line.exit;
    const parsed = line.value;
    const { file, args, format } = parsed;
    const archiveDir = stringFlag(args, 'archive');
    const out = stringFlag(args, 'out');
    const name = inputName(file);
    // Standard input redirected from a file (`- < T`) is that file: /dev/stdin names it.
    const readFrom = file === STDIN_FILE ? (existsSync(STDIN_DEVICE) ? [STDIN_DEVICE] : []) : [file];
    const refused = await checkOut(io, 'compact', out, readFrom);
    if (refused !== undefined) return refused;
    return withTranscript(
      'compact',
      io,
      file,
      { ...transcriptOptions(args), keepBytes: archiveDir !== undefined },
      async (loaded) => {
        const conv = loaded.conversation;
        const archive = archiveDir !== undefined ? new FileArchive(resolve(io.cwd, archiveDir)) : new MemoryArchive();
        if (parsed.summarizer) io.err(`summarizer: ${parsed.summarizerDescription}\n`);
        const run = await runCompaction(conv, parsed.request, { archive, ...(parsed.summarizer ? { summarizer: parsed.summarizer } : {}) });
        const { result, figures, counter } = run;
        if (archiveDir !== undefined) {
          // The file's own bytes too, so undo can give back the file and not only the conversation
          // read from it. The text was checked as strict UTF-8; ignoreBOM keeps a BOM byte-exact.
          const raw = new TextDecoder('utf-8', { ignoreBOM: true }).decode(loaded.raw!);
          const sourceKey = result.archiveId + SOURCE_KEY_SUFFIX;
          const earlier = await archive.get(sourceKey);
          if (earlier === undefined) await archive.put(sourceKey, raw);
          else if (earlier !== raw) {
            // Same conversation, same path, other bytes (line ends, a BOM, JSON spacing): the entry is
            // content-addressed by the conversation, so the first file's bytes stay.
            io.err(
              `warning: ${archiveDir} already holds another spelling of this conversation from ${name}; 'ctxc undo' will print that earlier file's bytes ('--format json' gives this conversation exactly)\n`,
            );
          }
        }
        for (const w of result.warnings) io.err(`warning: ${clip(warningText(w), 2 * MAX_ECHO_CHARS)}\n`);
        for (const d of result.degradation) io.err(`to fit the target (${d.step}): ${clip(d.detail, 2 * MAX_ECHO_CHARS)}\n`);
        if (parsed.requireLlm && result.summarizer.fallbackReason !== undefined) {
          io.err(
            `ctxc compact: --require-llm: the LLM summary was not used (${clip(result.summarizer.fallbackReason, 2 * MAX_ECHO_CHARS)}); nothing was written\n`,
          );
          return EXIT_LLM_FALLBACK;
        }
        const to = parseTarget(stringFlag(args, 'to'));
        if (to !== undefined) {
          const cwd = stringFlag(args, 'cwd');
          const code = await writeResumableSession(io, { to, file: name, json: format === 'json', ...(cwd !== undefined ? { cwd } : {}) }, conv, run);
          if (code === EXIT_OK) io.err(`${summaryLine(name, result, figures)}\n`);
          return code;
        }
        const text =
          format === 'json'
            ? `${JSON.stringify(compactJson(name, counter.model.id, run, summaryTextOf(result.conversation)), null, 2)}\n`
            : renderConversation(result.conversation, format);
        const written = await emit(io, 'compact', text, out, readFrom);
        if (written !== EXIT_OK) return written;
        io.err(`${summaryLine(name, result, figures)}\n`);
        if (archiveDir !== undefined) io.err(`archive: ${result.archiveId} (restore with: ctxc undo ${result.archiveId} --archive ${archiveDir})\n`);
        return EXIT_OK;
      },
      (e) => {
        if (e instanceof CompactionRequestError) {
          if (e.problem.kind === 'unknownStrategy') {
            io.err(`ctxc compact: ${e.message}\n`);
            return EXIT_USAGE;
          }
          io.err(`ctxc compact: ${name}: ${clip(e.message, 2 * MAX_ECHO_CHARS)}\n`);
          return EXIT_BAD_INPUT;
        }
        if (archiveDir !== undefined && isAtomicWriteError(e)) {
          io.err(`ctxc compact: cannot write the archive in ${archiveDir}: ${e.reason}; nothing was written\n`);
          return EXIT_WRITE_FAILED;
        }
        return undefined;
      },
    );
  },
};
