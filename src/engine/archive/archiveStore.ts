// Where originals go before anything is replaced. Content-addressed: the key is a hash of
// the stored text, so the same conversation archived twice is stored once.

export interface ArchiveStore {
  put(key: string, data: string): Promise<void>;
  get(key: string): Promise<string | undefined>;
  has(key: string): Promise<boolean>;
}
