// The hash that content-addresses archive entries: SHA-256 of text given in pieces, as UTF-8.
// The engine has its own (sha256.ts, plain TypeScript, for hosts without one: the webview, the
// tests); a Node host passes the native one (src/files/nodeSha256.ts), several times faster on
// a long conversation. Both give the same hex for the same text, so the keys already on disk and
// the keys undo looks up do not depend on which host wrote them.

import { Sha256 } from './sha256';

/** One hash being computed: the pieces in order, then the hex digest (after which it is finished). */
export interface ContentHash {
  /** The UTF-8 bytes of `piece`. A piece must not end inside a surrogate pair. */
  update(piece: string): void;
  hex(): string;
}

/** SHA-256 over text; each create() starts a new hash. */
export interface ContentHasher {
  create(): ContentHash;
}

/** The engine's own SHA-256: the default wherever no hasher is given. */
export const pureSha256: ContentHasher = {
  create() {
    const hash = new Sha256();
    return {
      update: (piece) => {
        hash.updateText(piece);
      },
      hex: () => hash.hex(),
    };
  },
};

/** Hex SHA-256 of the UTF-8 bytes of `text`. */
export function hashHex(hasher: ContentHasher, text: string): string {
  const hash = hasher.create();
  hash.update(text);
  return hash.hex();
}
