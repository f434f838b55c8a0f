// The CompactionEngine port wired to the real engine modules. The token counter and the importers
// are real; the compactor and exporters are being built in parallel (src/engine/conversation/exporters,
// src/engine/compactor.ts, …) and are wired here as they land — until then their
// entry points fail with a message that says so, and nothing else in the extension changes.

import { importTranscript } from '../engine/conversation/importers/detect';
import { createTokenCounter } from '../engine/tokens/messageCounter';
import type { CompactionEngine } from './compactionEngine';
import { UserFacingError } from './log';

function notYet(what: string): never {
  throw new UserFacingError(`${what} is not available in this build yet.`);
}

export function createEngine(): CompactionEngine {
  return {
    importTranscript: (text, sourcePath) => importTranscript(text, { sourcePath }),
    createCounter: (model, override) => createTokenCounter(model, { override }),
    preview: async () => notYet('Compaction'),
    compact: async () => notYet('Compaction'),
    undo: async () => notYet('Undo'),
    exportConversation: () => notYet('Export'),
    summaryText: () => undefined,
    listStrategies: () => [{ name: 'summary', description: 'Keep the header, pinned messages and the last rounds; summarize the rest.' }],
    defaults: { strategy: 'summary', keepRecentRounds: 2, level: 'normal' },
  };
}
