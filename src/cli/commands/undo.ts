// `ctxc undo ARCHIVE_ID --archive DIR`: the original a `ctxc compact --archive DIR` replaced.
// Without --format it prints the original file byte for byte (compact stored its bytes beside
// the conversation); --format json prints the archived conversation exactly as archived, and
// md/openai/anthropic export it.

import { resolve } from 'node:path';
import { ArchiveError } from '../../engine/archive/conversationArchive';
import { undoCompaction } from '../../engine/compactor';
import { FileArchive } from '../../files/fileArchive';
import { nodeSha256 } from '../../files/nodeSha256';
import { booleanFlag, parseArgs, stringFlag, type FlagSpec } from '../args';
import { onePositional, readCommandLine, type CommandHelp } from '../fileCommand';
import { EXIT_BAD_INPUT, UsageError, type CliCommand, type CliIO } from '../io';
import { checkOut, emit, parseFormat, renderConversation, SOURCE_KEY_SUFFIX } from './compact';

const UNDO_FLAGS: readonly FlagSpec[] = [
  { name: 'archive', kind: 'string', valueName: 'DIR', description: 'the folder given to ctxc compact --archive (required)' },
  { name: 'format', short: 'f', kind: 'string', valueName: 'FMT', description: 'md, json, openai or anthropic (default: the original file, byte for byte)' },
  { name: 'out', short: 'o', kind: 'string', valueName: 'FILE', description: 'write to FILE (atomically) instead of stdout' },
  { name: 'help', short: 'h', kind: 'boolean', description: 'show this help' },
];

const USAGE = 'ctxc undo ARCHIVE_ID --archive DIR [--format md|json|openai|anthropic] [--out F]';
const UNDO_HELP: CommandHelp = { name: 'undo', usage: USAGE, flags: UNDO_FLAGS };

export const undoCommand: CliCommand = {
  name: 'undo',
  summary: 'print the original a compaction archived (ctxc compact --archive)',
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const line = readCommandLine(UNDO_HELP, io, () => {
      const args = parseArgs(argv, UNDO_FLAGS);
      if (booleanFlag(args, 'help')) return 'help';
      const id = onePositional(args.positionals, 'ARCHIVE_ID');
      const dir = stringFlag(args, 'archive');
      if (dir === undefined) throw new UsageError('--archive DIR is required (the folder ctxc compact --archive wrote)');
      const f = stringFlag(args, 'format');
      return { id, dir, format: f === undefined ? undefined : parseFormat(f), out: stringFlag(args, 'out') };
    });
    if (!line.ok) return line.exit;
    const { id, dir, format, out } = line.value;
    const archive = new FileArchive(resolve(io.cwd, dir));
    // --out may not replace the archive entries this reads (an id that names no entry is
    // refused below, by undoCompaction).
    let readFrom: string[];
    try {
      readFrom = [archive.pathOf(id), archive.pathOf(id + SOURCE_KEY_SUFFIX)];
    } catch {
      readFrom = [];
    }
    const refused = await checkOut(io, 'undo', out, readFrom);
    if (refused !== undefined) return refused;
    try {
      // Checks the id and the entry against its hash first, so a tampered archive fails here.
      const conversation = await undoCompaction(id, archive, nodeSha256);
      let text: string;
      if (format === undefined) {
        const source = await archive.get(id + SOURCE_KEY_SUFFIX);
        text = source ?? renderConversation(conversation, 'json');
        if (source === undefined) io.err(`ctxc undo: the original file's bytes are not in ${dir}; printing the archived conversation as JSON\n`);
      } else if (format === 'json') {
        text = `${(await archive.get(id))!}\n`;
      } else {
        text = renderConversation(conversation, format);
      }
      return await emit(io, 'undo', text, out, readFrom);
    } catch (e) {
      if (e instanceof ArchiveError) {
        io.err(`ctxc undo: ${dir}: ${e.message}\n`);
        return EXIT_BAD_INPUT;
      }
      if (e instanceof Error && /^archive key /.test(e.message)) {
        io.err(`ctxc undo: ${e.message}\n`);
        return EXIT_BAD_INPUT;
      }
      throw e;
    }
  },
};
