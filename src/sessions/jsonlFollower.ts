// Following a JSONL session file as its agent appends to it: each read returns only the complete
// lines written since the last read. A partial last line (the agent is mid-write) is kept back
// until its newline arrives; a file that shrank, or was replaced by another file (a new inode, or
// different first bytes), is read again from the start and the read says so (`reset`), so the
// caller starts its state over. All reads are asynchronous, and reads are serialized: two calls
// at once never read the same bytes twice.
//
// The work is linear in what was appended: a partial line is kept as its pieces and joined once,
// when its newline arrives, and only the new bytes are looked at for line ends (a 64 MB line that
// arrives in a thousand appends costs 64 MB, not a thousand times its growing start).
// `bytesTouched` counts that work: every byte read from the file or copied into a line. A file over
// `maxBytes` (the listing's SESSION_MAX_BYTES) is not read at all: the read says how large it is
// and everything kept is dropped. A path that is not a regular file (a symbolic link, a FIFO) is
// never opened through: the read says what it is.

import type { FileHandle } from 'node:fs/promises';
import { openRegularFile } from './diskReads';

export interface FollowRead {
  /** Complete lines appended since the last read (after a reset: every complete line), without
   *  their line ends; blank lines included as ''. */
  lines: string[];
  /** The file was read from its start again (first read, truncation, replacement): drop what the
   *  earlier lines built. */
  reset: boolean;
  /** The file does not exist (any more). */
  missing: boolean;
  /** Bytes consumed so far (complete lines only). */
  offset: number;
  /** The file's modification time when read (absent when it is missing). */
  mtimeMs?: number;
  /** The file is larger than the limit: its size. Nothing was read, and nothing is kept. */
  tooLarge?: number;
  /** The path is not a regular file: what it is ("a symbolic link", "a named pipe (FIFO)"). */
  notFile?: string;
}

export interface FollowerOptions {
  /** The largest file read; default: no limit. */
  maxBytes?: number;
}

/** How many first bytes identify a file's content (a replaced file with the same inode). */
const FINGERPRINT_BYTES = 256;
/** Bytes read per call of read(): large enough for any line, bounded so memory stays bounded. */
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

export class JsonlFollower {
  private offset = 0;
  /** The partial last line, as the pieces read so far (joined once, when its newline arrives). */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private identity: { dev: number; ino: number } | undefined;
  private fingerprint: Buffer | undefined;
  private pending: Promise<unknown> = Promise.resolve();
  private readonly decoder = new TextDecoder('utf-8');
  private readonly maxBytes: number;
  /** Bytes read from the file or copied into lines since the follower was made (its work). */
  bytesTouched = 0;

  constructor(
    readonly path: string,
    opts: FollowerOptions = {},
  ) {
    this.maxBytes = opts.maxBytes ?? Infinity;
  }

  /** The lines appended since the last read. Never throws for a missing file (missing: true). */
  read(): Promise<FollowRead> {
    const next = this.pending.then(() => this.readNow());
    this.pending = next.catch(() => undefined);
    return next;
  }

  private async readNow(): Promise<FollowRead> {
    const opened = await openRegularFile(this.path, { followLinks: false });
    if ('code' in opened && opened.code !== 'ENOENT') {
      throw Object.assign(new Error(`${this.path}: cannot be read (${opened.code})`), { code: opened.code });
    }
    if (!('fh' in opened)) {
      const wasThere = this.identity !== undefined;
      this.forget();
      if ('notFile' in opened) return { lines: [], reset: wasThere, missing: false, offset: 0, notFile: opened.notFile };
      return { lines: [], reset: wasThere, missing: true, offset: 0 };
    }
    const { fh, stats: st } = opened;
    try {
      if (st.size > this.maxBytes) {
        const wasThere = this.identity !== undefined;
        this.forget();
        return { lines: [], reset: wasThere, missing: false, offset: 0, mtimeMs: st.mtimeMs, tooLarge: st.size };
      }
      let reset = false;
      // The first bytes (is it still the same file?) and the appended bytes are read at once: one
      // round trip fewer per update. What was read past the end of a replaced file is dropped.
      const from = this.offset + this.partialBytes;
      const [head, ahead] = await Promise.all([
        readAt(fh, 0, Math.min(FINGERPRINT_BYTES, st.size)),
        from > 0 && from < st.size ? readAt(fh, from, Math.min(CHUNK_BYTES, st.size - from)) : undefined,
      ]);
      const replaced =
        this.identity !== undefined &&
        (this.identity.dev !== st.dev || this.identity.ino !== st.ino || st.size < this.offset + this.partialBytes || !samePrefix(this.fingerprint, head));
      if (this.identity === undefined || replaced) {
        reset = true;
        this.restart();
      }
      this.identity = { dev: st.dev, ino: st.ino };
      if (!this.fingerprint || this.fingerprint.length < FINGERPRINT_BYTES) this.fingerprint = head;

      const lines: string[] = [];
      let at = this.offset + this.partialBytes;
      while (at < st.size) {
        const chunk = ahead && !reset && at === from ? ahead : await readAt(fh, at, Math.min(CHUNK_BYTES, st.size - at));
        if (chunk.length === 0) break;
        this.bytesTouched += chunk.length;
        at += chunk.length;
        this.takeChunk(chunk, lines);
      }
      return { lines, reset, missing: false, offset: this.offset, mtimeMs: st.mtimeMs };
    } finally {
      await fh.close().catch(() => undefined);
    }
  }

  /** The complete lines of a chunk (the first one completing the partial line), and its rest kept
   *  as the new partial line. Only the chunk is looked at for line ends. */
  private takeChunk(chunk: Buffer, lines: string[]): void {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      let line = chunk.subarray(start, nl);
      if (this.partialBytes > 0) {
        line = Buffer.concat([...this.partial, line]);
        this.bytesTouched += line.length;
        this.offset += this.partialBytes;
        this.partial = [];
        this.partialBytes = 0;
      }
      if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
      lines.push(this.decoder.decode(line));
      this.offset += nl - start + 1;
      start = nl + 1;
    }
    if (start < chunk.length) {
      // A copy: the chunk itself is not kept alive by a few bytes of it.
      const rest = Buffer.from(chunk.subarray(start));
      this.bytesTouched += rest.length;
      this.partial.push(rest);
      this.partialBytes += rest.length;
    }
  }

  private restart(): void {
    this.offset = 0;
    this.partial = [];
    this.partialBytes = 0;
    this.fingerprint = undefined;
  }

  /** Drops everything about the file: the next read starts over (and says so). */
  private forget(): void {
    this.restart();
    this.identity = undefined;
  }
}

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  if (length <= 0) return Buffer.alloc(0);
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  return buf.subarray(0, bytesRead);
}

/** The shorter of the two is a prefix of the longer (a file that grew keeps its first bytes). */
function samePrefix(a: Buffer | undefined, b: Buffer): boolean {
  if (!a) return true;
  const n = Math.min(a.length, b.length);
  return a.subarray(0, n).equals(b.subarray(0, n));
}
