// A bounded memo for caches that live as long as a conversation: two generations, like the
// token counter's content cache and the piece memo. Entries go into the young generation; when
// it is full it becomes the old one (the previous old one is dropped), and an old entry that is
// read again moves back to the young one. So memory stays bounded and what is in use survives.

export class GenerationalMap<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private weight = 0;

  /** `maxEntries` per generation; `maxWeight` (the sum of weightOf over a generation's entries,
   *  e.g. characters of string keys) ends a generation early. */
  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
    private readonly weightOf: (key: K, value: V) => number = () => 0,
  ) {}

  get(key: K): V | undefined {
    const v = this.young.get(key);
    if (v !== undefined) return v;
    const o = this.old.get(key);
    if (o !== undefined) this.set(key, o);
    return o;
  }

  set(key: K, value: V): void {
    if (!this.young.has(key)) this.weight += this.weightOf(key, value);
    this.young.set(key, value);
    if (this.young.size >= this.maxEntries || this.weight >= this.maxWeight) {
      this.old = this.young;
      this.young = new Map();
      this.weight = 0;
    }
  }

  /** Entries in both generations (an entry may be in both). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
    this.weight = 0;
  }
}
