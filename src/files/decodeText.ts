// Transcript bytes → text, strictly: UTF-8 only, no NUL bytes (a binary file), and a TranscriptError
// naming the byte where it fails. Shared by the CLI's reader and the session discovery.

import { TranscriptError } from '../engine/conversation/importers/transcriptError';

/** Strict decoding: UTF-8 only, no NUL bytes (a binary file), a clear offset when it fails. */
export function decodeTranscript(buf: Uint8Array, file?: string): string {
  if (buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) {
    throw new TranscriptError({ file, position: 'byte 0', expected: 'UTF-8 text', found: 'a UTF-16 byte-order mark (save the file as UTF-8)' });
  }
  const nul = buf.indexOf(0);
  if (nul !== -1) {
    throw new TranscriptError({ file, position: `byte ${nul}`, expected: 'text (UTF-8)', found: 'a NUL byte: this looks like a binary file' });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    const at = firstInvalidUtf8(buf);
    throw new TranscriptError({
      file,
      position: `byte ${at}`,
      expected: 'UTF-8 text',
      found: `an invalid UTF-8 sequence (0x${(buf[at] ?? 0).toString(16).padStart(2, '0')})`,
    });
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return buf.length;
}
