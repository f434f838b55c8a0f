// Where originals go before anything is replaced. Content-addressed: the key is a hash of
// the stored text, so the same conversation archived twice is stored once.

/** Text to store: whole, or in pieces handed over in order (an original of 50 MB is never built
 *  as one string). Each piece holds whole characters (never half a surrogate pair). */
export type ArchiveText = string | Iterable<string>;

export interface ArchiveStore {
  /** Entries outlive this process (a folder on disk), so undo can restore them later. A
   *  compaction summary says the original can be restored only when its archive is durable. */
  readonly durable?: boolean;
  /** Stores `data` under `key` unless the key is taken (a key always names the same text). The
   *  pieces of an iterable are read once, in order, while it is stored. */
  put(key: string, data: ArchiveText): Promise<void>;
  get(key: string): Promise<string | undefined>;
  has(key: string): Promise<boolean>;
}

/** The pieces of `data`, in order (a string is one piece). */
export function archivePieces(data: ArchiveText): Iterable<string> {
  return typeof data === 'string' ? [data] : data;
}

/** `data` as one string (a store that keeps text whole). */
export function archiveTextOf(data: ArchiveText): string {
  return typeof data === 'string' ? data : [...data].join('');
}
