// The CompactionEngine port wired to the real engine modules: importers, token counters, the
// compaction service every front end runs (src/sessions/compactionService.ts), the exporters and
// the strategy registry. The engine's refusals become one line the user can act on, in their
// language.

import * as vscode from 'vscode';
import { COMPACTION_DEFAULTS, summaryTextOf, undoCompaction } from '../engine/compactor';
import { importTranscript } from '../engine/conversation/importers/detect';
import { exportConversation } from '../engine/conversation/exporters/exportConversation';
import { listStrategies } from '../engine/strategies/registry';
import { createTokenCounter } from '../engine/tokens/messageCounter';
import { nodeSha256 } from '../files/nodeSha256';
import { CompactionRequestError, runCompaction } from '../sessions/compactionService';
import type { Conversation } from '../engine/conversation/model';
import type { CompactionEngine } from './compactionEngine';
import { compactionMemoryNeed, heapRoom } from './compactionMemory';
import { UserFacingError } from './log';

/** A refusal of the engine as the extension says it: the strategy setting, or the options. */
export function requestErrorText(e: CompactionRequestError): string {
  if (e.problem.kind === 'unknownStrategy')
    return vscode.l10n.t(
      'The setting contextCompactor.strategy names no strategy of this engine; expected "default" or one of: {0}.',
      e.problem.known.join(', '),
    );
  return vscode.l10n.t('The compaction options are not valid: {0}', e.problem.detail);
}

const mb = (bytes: number) => Math.ceil(bytes / (1024 * 1024)).toLocaleString('en-US');

/** Why the conversation is not compacted in the extension host: what it may need is more than the
 *  heap has left (compactionMemory.ts). */
export function tooLargeText(conversation: Conversation, need: number, room: number): string {
  const file = conversation.meta.sourcePath;
  const messages = conversation.messages.length.toLocaleString('en-US');
  return file
    ? vscode.l10n.t(
        'This conversation ({0} messages) may need {1} MB to compact, and the extension host has {2} MB left: compacting it here could stop every extension. Compact it in a terminal instead: ctxc compact "{3}"',
        messages,
        mb(need),
        mb(room),
        file,
      )
    : vscode.l10n.t(
        'This conversation ({0} messages) may need {1} MB to compact, and the extension host has {2} MB left: compacting it here could stop every extension. Export it and compact the file in a terminal with ctxc compact.',
        messages,
        mb(need),
        mb(room),
      );
}

/** The engine port on the real modules. `room` gives the bytes the extension host's heap has left
 *  (a test gives less). */
export function createEngine(room: () => number = heapRoom): CompactionEngine {
  return {
    importTranscript: (text, sourcePath, usage) => importTranscript(text, { sourcePath, ...(usage ? { usage } : {}) }),
    createCounter: (model, override) => createTokenCounter(model, { override }),
    run: async (conversation, request, host) => {
      const need = compactionMemoryNeed(conversation);
      const left = room();
      if (need > left) throw new UserFacingError(tooLargeText(conversation, need, left));
      try {
        return await runCompaction(conversation, request, host);
      } catch (e) {
        if (e instanceof CompactionRequestError) throw new UserFacingError(requestErrorText(e));
        throw e;
      }
    },
    undo: (archiveId, archive) => undoCompaction(archiveId, archive, nodeSha256),
    exportConversation: (conversation, format, markdown) => exportConversation(conversation, format, markdown),
    summaryText: (conversation) => summaryTextOf(conversation),
    // Read at run time: the strategy registry grows.
    listStrategies: () => listStrategies(),
    defaults: {
      strategy: COMPACTION_DEFAULTS.strategy,
      keepRecentRounds: COMPACTION_DEFAULTS.keepRecentRounds,
      level: COMPACTION_DEFAULTS.level,
    },
  };
}
