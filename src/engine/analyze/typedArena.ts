// Small typed arrays cut from shared buffers. A typed array of its own costs ~180 bytes beside its
// numbers (the array object, its buffer object and the buffer's header), which for the few shingles
// and terms of a short message is several times the numbers: the readings of 200,000 messages kept
// ~50 MB of it alive while they were analyzed. A view into a shared chunk costs its array object.
// A chunk stays alive while any array cut from it does (the readings of one analysis live and go
// together).

/** Bytes per shared chunk; an array larger than a quarter of it gets a buffer of its own. */
const CHUNK_BYTES = 64 * 1024;

export class TypedArena {
  private buffer = new ArrayBuffer(0);
  private used = 0;

  /** A Uint32Array holding `values`. */
  uint32(values: ArrayLike<number>): Uint32Array {
    const [buffer, offset] = this.take(values.length);
    const out = new Uint32Array(buffer, offset, values.length);
    out.set(values);
    return out;
  }

  /** An Int32Array holding `values`. */
  int32(values: ArrayLike<number>): Int32Array {
    const [buffer, offset] = this.take(values.length);
    const out = new Int32Array(buffer, offset, values.length);
    out.set(values);
    return out;
  }

  /** Room for `n` 4-byte numbers: a buffer and the byte offset in it. */
  private take(n: number): [ArrayBuffer, number] {
    const bytes = n * 4;
    if (bytes > CHUNK_BYTES / 4) return [new ArrayBuffer(bytes), 0];
    if (this.used + bytes > this.buffer.byteLength) {
      this.buffer = new ArrayBuffer(CHUNK_BYTES);
      this.used = 0;
    }
    const offset = this.used;
    this.used += bytes;
    return [this.buffer, offset];
  }
}
