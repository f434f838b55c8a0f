// The compactions written into agents (a new Claude Code or Codex session beside the original),
// remembered across reloads so that Undo works for them as for any compaction: each record says
// which session was compacted and which one was written. An undone record keeps the written file's
// modification time then: until its agent writes to it again (the person resumed it after all),
// the meter does not follow it. Persisted atomically in the extension's global storage; the newest
// MAX_RECORDS are kept.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../files/atomicWrite';
import type { Logger } from '../log';

/** Records kept: a person undoes recent compactions, not last year's. */
export const MAX_RECORDS = 100;
const FORMAT = 1;

export interface WrittenRecord {
  /** The session compacted: its store key, its file and its label when it was compacted. */
  from: { key: string; file: string; label: string };
  /** The session written. */
  written: { agent: string; id: string; file: string; cwd: string };
  /** ISO time it was written. */
  at: string;
  /** Set once undone. */
  undone?: { at: string; trashed: boolean; /** The written file's mtime then, when it was kept. */ mtimeMs?: number };
}

export class WrittenSessions {
  private records: WrittenRecord[] = [];
  private loaded: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
  ) {}

  private get file(): string {
    return join(this.dir, 'written-sessions.json');
  }

  /** Reads the saved records once (none when there is no file or it cannot be read). */
  load(): Promise<void> {
    this.loaded ??= readFile(this.file, 'utf8').then(
      (text) => {
        const saved = JSON.parse(text) as { format?: number; records?: WrittenRecord[] };
        if (saved.format === FORMAT && Array.isArray(saved.records)) this.records = saved.records.filter(isRecord);
      },
      (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') this.log.warn(`ignoring unreadable ${this.file}: ${err.message}`);
      },
    );
    return this.loaded;
  }

  async add(record: WrittenRecord): Promise<void> {
    await this.load();
    this.records = [...this.records, record].slice(-MAX_RECORDS);
    await this.save();
  }

  /** The newest compaction not undone that wrote the session `key` names or was made of it. */
  undoable(keyOf: (file: string) => string, key: string): WrittenRecord | undefined {
    const open = this.records.filter((r) => !r.undone).reverse();
    return open.find((r) => keyOf(r.written.file) === key) ?? open.find((r) => r.from.key === key);
  }

  async markUndone(record: WrittenRecord, undone: NonNullable<WrittenRecord['undone']>): Promise<void> {
    record.undone = undone;
    await this.save();
  }

  /** Whether the meter leaves this session alone: its compaction was undone and the file kept, and
   *  nothing was written to it since. */
  setAside(file: string, mtimeMs: number): boolean {
    return this.records.some((r) => r.written.file === file && r.undone && !r.undone.trashed && r.undone.mtimeMs !== undefined && mtimeMs <= r.undone.mtimeMs);
  }

  private save(): Promise<void> {
    const text = `${JSON.stringify({ format: FORMAT, records: this.records }, null, 1)}\n`;
    const run = this.queue.then(() => writeFileAtomic(this.file, text));
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function isRecord(r: unknown): r is WrittenRecord {
  const x = r as WrittenRecord;
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof x.from?.key === 'string' &&
    typeof x.from.file === 'string' &&
    typeof x.written?.file === 'string' &&
    typeof x.written.agent === 'string' &&
    typeof x.written.id === 'string'
  );
}
