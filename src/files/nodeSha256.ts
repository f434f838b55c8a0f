// The archive's content hash on Node's native SHA-256, for every Node host (the CLI, the hook,
// the MCP server, the extension): the same hex as the engine's own (pureSha256) for the same
// text — Node encodes a string as UTF-8 as TextEncoder does — at several times its speed.

import { createHash } from 'node:crypto';
import type { ContentHasher } from '../engine/archive/contentHasher';

export const nodeSha256: ContentHasher = {
  create() {
    const hash = createHash('sha256');
    return {
      update: (piece) => {
        hash.update(piece, 'utf8');
      },
      hex: () => hash.digest('hex'),
    };
  },
};
