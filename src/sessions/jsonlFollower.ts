// Following a JSONL session file as its agent appends to it: each read returns only the complete
// lines written since the last read. A partial last line (the agent is mid-write) is kept back
// until its newline arrives; a file that shrank, or was replaced by another file (a new inode, or
// different first bytes), is read again from the start and the read says so (`reset`), so the
// caller starts its state over. All reads are asynchronous, and reads are serialized: two calls
// at once never read the same bytes twice.

import { open } from 'node:fs/promises';

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
}

/** How many first bytes identify a file's content (a replaced file with the same inode). */
const FINGERPRINT_BYTES = 256;
/** Bytes read per call of read(): large enough for any line, bounded so memory stays bounded. */
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

export class JsonlFollower {
  private offset = 0;
  private partial: Buffer = Buffer.alloc(0);
  private identity: { dev: number; ino: number } | undefined;
  private fingerprint: Buffer | undefined;
  private pending: Promise<unknown> = Promise.resolve();
  private readonly decoder = new TextDecoder('utf-8');

  constructor(readonly path: string) {}

  /** The lines appended since the last read. Never throws for a missing file (missing: true). */
  read(): Promise<FollowRead> {
    const next = this.pending.then(() => this.readNow());
    this.pending = next.catch(() => undefined);
    return next;
  }

  private async readNow(): Promise<FollowRead> {
    let fh;
    try {
      fh = await open(this.path, 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      const wasThere = this.identity !== undefined;
      this.restart();
      this.identity = undefined;
      return { lines: [], reset: wasThere, missing: true, offset: 0 };
    }
    try {
      const st = await fh.stat();
      let reset = false;
      // The first bytes (is it still the same file?) and the appended bytes are read at once: one
      // round trip fewer per update. What was read past the end of a replaced file is dropped.
      const from = this.offset + this.partial.length;
      const [head, ahead] = await Promise.all([
        readAt(fh, 0, Math.min(FINGERPRINT_BYTES, st.size)),
        from > 0 && from < st.size ? readAt(fh, from, Math.min(CHUNK_BYTES, st.size - from)) : undefined,
      ]);
      const replaced =
        this.identity !== undefined &&
        (this.identity.dev !== st.dev || this.identity.ino !== st.ino || st.size < this.offset + this.partial.length || !samePrefix(this.fingerprint, head));
      if (this.identity === undefined || replaced) {
        reset = true;
        this.restart();
      }
      this.identity = { dev: st.dev, ino: st.ino };
      if (!this.fingerprint || this.fingerprint.length < FINGERPRINT_BYTES) this.fingerprint = head;

      const lines: string[] = [];
      let at = this.offset + this.partial.length;
      while (at < st.size) {
        const chunk = ahead && !reset && at === from ? ahead : await readAt(fh, at, Math.min(CHUNK_BYTES, st.size - at));
        if (chunk.length === 0) break;
        at += chunk.length;
        let data = this.partial.length > 0 ? Buffer.concat([this.partial, chunk]) : chunk;
        let start = 0;
        for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
          let line = data.subarray(start, nl);
          if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
          lines.push(this.decoder.decode(line));
          start = nl + 1;
        }
        this.offset += start;
        data = data.subarray(start);
        this.partial = Buffer.from(data);
      }
      return { lines, reset, missing: false, offset: this.offset, mtimeMs: st.mtimeMs };
    } finally {
      await fh.close();
    }
  }

  private restart(): void {
    this.offset = 0;
    this.partial = Buffer.alloc(0);
    this.fingerprint = undefined;
  }
}

async function readAt(fh: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> {
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
