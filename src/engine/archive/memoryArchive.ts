// An ArchiveStore in memory: tests, previews (planCompaction's dry runs) and the CLI when no
// archive folder is given. Lost when the process ends, so not durable — unless it stands in
// for a durable store in a dry run of a compaction that will archive for real (the
// extension's preview), where the summary must read as the applied one will.
//
// An entry is kept as UTF-8 bytes, in the pieces it was handed over in (joined into blocks of
// BLOCK_CHARS): the one copy of a 50 MB original is 50 MB outside the JavaScript heap, never one
// string of it (a string with one character past U+00FF takes two bytes per character) and never
// the string and its bytes at once. Text that UTF-8 cannot carry exactly (a lone surrogate) is
// kept as it is.

import { archivePieces, type ArchiveStore, type ArchiveText } from './archiveStore';

/** Characters gathered before they are encoded: few blocks, none large. */
const BLOCK_CHARS = 64 * 1024;
/** A surrogate that is not half of a pair: UTF-8 would replace it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether UTF-8 carries `text` exactly (it holds no lone surrogate): String.prototype.isWellFormed
 *  where the host has it (Node 20 does; several times faster than the expression). */
const wellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (text) => (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (text) => !LONE_SURROGATE.test(text);

type Block = Uint8Array | string;

export class MemoryArchive implements ArchiveStore {
  private readonly entries = new Map<string, Block[]>();
  private encoder: { encode(input: string): Uint8Array } | undefined;

  constructor(readonly durable = false) {}

  async put(key: string, data: ArchiveText): Promise<void> {
    // Content-addressed: a key always names the same bytes, so the first copy stays.
    if (this.entries.has(key)) return;
    const blocks: Block[] = [];
    let pending = '';
    for (const piece of archivePieces(data)) {
      pending += piece;
      if (pending.length >= BLOCK_CHARS) {
        blocks.push(this.block(pending));
        pending = '';
      }
    }
    if (pending || blocks.length === 0) blocks.push(this.block(pending));
    this.entries.set(key, blocks);
  }

  async get(key: string): Promise<string | undefined> {
    const blocks = this.entries.get(key);
    if (!blocks) return undefined;
    // ignoreBOM: a block that starts with U+FEFF keeps it (the default would drop it).
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    let text = '';
    for (const b of blocks) text += typeof b === 'string' ? b : decoder.decode(b);
    return text;
  }

  async has(key: string): Promise<boolean> {
    return this.entries.has(key);
  }

  /** Number of stored entries (tests read it). */
  get size(): number {
    return this.entries.size;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  private block(text: string): Block {
    if (!wellFormed(text)) return text;
    this.encoder ??= new TextEncoder();
    return this.encoder.encode(text);
  }
}
