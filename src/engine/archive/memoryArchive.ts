// An ArchiveStore in memory: tests, previews (planCompaction's dry runs) and the CLI when no
// archive folder is given. Lost when the process ends, so not durable — unless it stands in
// for a durable store in a dry run of a compaction that will archive for real (the
// extension's preview), where the summary must read as the applied one will.

import type { ArchiveStore } from './archiveStore';

export class MemoryArchive implements ArchiveStore {
  private readonly entries = new Map<string, string>();

  constructor(readonly durable = false) {}

  async put(key: string, data: string): Promise<void> {
    // Content-addressed: a key always names the same bytes, so the first copy stays.
    if (!this.entries.has(key)) this.entries.set(key, data);
  }

  async get(key: string): Promise<string | undefined> {
    return this.entries.get(key);
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
}
