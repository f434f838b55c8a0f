// SHA-256 (FIPS 180-4) in plain TypeScript, for content addressing in the engine, which may not
// import node:crypto. A 64-bit FNV hash (text/hash.ts) is fine for caches, but an archive key
// must not collide: two different originals under one key would make undo return the wrong one.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** Bytes encoded from text at a time: a long text is hashed without a copy of it as bytes. */
const TEXT_CHUNK_BYTES = 64 * 1024;

/** SHA-256 fed in pieces (bytes, or text as UTF-8): the hash of a long text built piece by
 *  piece — a conversation's canonical JSON — without the text itself. */
export class Sha256 {
  private readonly h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  private readonly w = new Uint32Array(64);
  /** The bytes of the block being filled. */
  private readonly block = new Uint8Array(64);
  private filled = 0;
  private length = 0;
  private encoder: { encodeInto(source: string, destination: Uint8Array): { read?: number; written?: number } } | undefined;
  private scratch: Uint8Array | undefined;

  update(data: Uint8Array): this {
    this.length += data.length;
    let at = 0;
    if (this.filled > 0) {
      const take = Math.min(64 - this.filled, data.length);
      this.block.set(data.subarray(0, take), this.filled);
      this.filled += take;
      at = take;
      if (this.filled < 64) return this;
      compress(this.h, this.w, this.block, 0);
      this.filled = 0;
    }
    for (; at + 64 <= data.length; at += 64) compress(this.h, this.w, data, at);
    if (at < data.length) {
      this.block.set(data.subarray(at), 0);
      this.filled = data.length - at;
    }
    return this;
  }

  /** The UTF-8 bytes of `text`. A piece must not end inside a surrogate pair. */
  updateText(text: string): this {
    this.encoder ??= new TextEncoder();
    this.scratch ??= new Uint8Array(TEXT_CHUNK_BYTES);
    for (let rest = text; rest.length > 0;) {
      // Whole characters only: what does not fit is encoded in the next round.
      const { read = 0, written = 0 } = this.encoder.encodeInto(rest, this.scratch);
      this.update(this.scratch.subarray(0, written));
      rest = read >= rest.length ? '' : rest.slice(read);
    }
    return this;
  }

  /** The hash of everything fed so far, as hex. The hasher is finished after it. */
  hex(): string {
    // Padding: 0x80, zeros, then the bit length as a 64-bit big-endian number.
    const rest = this.filled;
    const tail = new Uint8Array(rest < 56 ? 64 : 128);
    tail.set(this.block.subarray(0, rest));
    tail[rest] = 0x80;
    const bits = this.length * 8;
    const view = new DataView(tail.buffer);
    view.setUint32(tail.length - 8, Math.floor(bits / 0x100000000));
    view.setUint32(tail.length - 4, bits >>> 0);
    for (let off = 0; off < tail.length; off += 64) compress(this.h, this.w, tail, off);
    let hex = '';
    for (let i = 0; i < 8; i++) hex += this.h[i]!.toString(16).padStart(8, '0');
    return hex;
  }
}

function compress(h: Uint32Array, w: Uint32Array, d: Uint8Array, off: number): void {
  for (let i = 0; i < 16; i++) {
    const j = off + i * 4;
    w[i] = ((d[j]! << 24) | (d[j + 1]! << 16) | (d[j + 2]! << 8) | d[j + 3]!) >>> 0;
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
  }
  let a = h[0]!;
  let b = h[1]!;
  let c = h[2]!;
  let dd = h[3]!;
  let e = h[4]!;
  let f = h[5]!;
  let g = h[6]!;
  let hh = h[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (hh + S1 + ch + K[i]! + w[i]!) >>> 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) >>> 0;
    hh = g;
    g = f;
    f = e;
    e = (dd + t1) >>> 0;
    dd = c;
    c = b;
    b = a;
    a = (t1 + t2) >>> 0;
  }
  h[0] = (h[0]! + a) >>> 0;
  h[1] = (h[1]! + b) >>> 0;
  h[2] = (h[2]! + c) >>> 0;
  h[3] = (h[3]! + dd) >>> 0;
  h[4] = (h[4]! + e) >>> 0;
  h[5] = (h[5]! + f) >>> 0;
  h[6] = (h[6]! + g) >>> 0;
  h[7] = (h[7]! + hh) >>> 0;
}
