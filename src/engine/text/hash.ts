// Content hashing for cache keys, stable ids and the content-addressed archive.
// FNV-1a over UTF-16 code units, two independent 32-bit lanes → 16 hex chars.
// Not cryptographic; collisions are guarded by also comparing length where it matters.

export function hash64(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

/** Short id fragment (8 hex chars). */
export function shortHash(text: string): string {
  return hash64(text).slice(0, 8);
}
