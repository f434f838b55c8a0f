// UTF-8 bytes of a string, written into a caller's buffer (no allocation per piece).
// Matches TextEncoder, which js-tiktoken uses: a lone surrogate becomes U+FFFD (EF BF BD).

/** Bytes a string of `length` UTF-16 code units can take at most. */
export function maxUtf8Bytes(length: number): number {
  return length * 3;
}

/** Writes the UTF-8 encoding of `text` to `out` (at least maxUtf8Bytes(text.length) long)
 *  and returns the number of bytes written. */
export function writeUtf8(text: string, out: Uint8Array): number {
  let n = 0;
  const len = text.length;
  for (let i = 0; i < len; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
    } else if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < len ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        out[n++] = 0xf0 | (c >> 18);
        out[n++] = 0x80 | ((c >> 12) & 0x3f);
        out[n++] = 0x80 | ((c >> 6) & 0x3f);
        out[n++] = 0x80 | (c & 0x3f);
      } else {
        out[n++] = 0xef;
        out[n++] = 0xbf;
        out[n++] = 0xbd;
      }
    } else {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    }
  }
  return n;
}
