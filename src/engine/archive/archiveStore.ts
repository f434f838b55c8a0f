// Where originals go before anything is replaced. Content-addressed: the key is a hash of
// the stored text, so the same conversation archived twice is stored once.

export interface ArchiveStore {
  /** Entries outlive this process (a folder on disk), so undo can restore them later. A
   *  compaction summary says the original can be restored only when its archive is durable. */
  readonly durable?: boolean;
  put(key: string, data: string): Promise<void>;
  get(key: string): Promise<string | undefined>;
  has(key: string): Promise<boolean>;
}
