// The engine's warnings (src/engine/warnings.ts: codes with their figures) in the user's language.
// The parameters that quote a model, a server or a transcript (`text`, `reason`, `problem`, the
// summarizer's name) stay as they are: the caller shows the sentence as untrusted text.

import * as vscode from 'vscode';
import type { EngineWarning } from '../engine/warnings';
import { groupedNumber } from './meter/meterText';

export function localWarningText(w: EngineWarning): string {
  const n = groupedNumber;
  switch (w.code) {
    case 'noRoom':
      return vscode.l10n.t(
        'the target of {0} tokens leaves no room: system prompt, tool definitions and pinned messages alone take {1}',
        n(w.target),
        n(w.fixed),
      );
    case 'notSmaller':
      return vscode.l10n.t('compacting would not make this conversation smaller ({0} ≥ {1} tokens); it is left as it is', n(w.after), n(w.before));
    case 'nothingToCompact':
      return vscode.l10n.t('nothing to compact: every message is kept (header, pinned or within the recent rounds)');
    case 'requiredContentOver':
      return vscode.l10n.t(
        "the summary's required content (every user message, file and error) needs {0} tokens even in its shortest forms, more than the {1} the target leaves for it",
        n(w.floor),
        n(w.budget),
      );
    case 'overTarget':
      return vscode.l10n.t('the result ({0} tokens) is over the target of {1}', n(w.after), n(w.target));
    case 'manyCompactions':
      return vscode.l10n.t(
        'this conversation has been compacted {0} times; summary quality may degrade — consider starting a new session with the summary',
        w.count,
      );
    case 'apiShape':
      return w.inOriginal
        ? vscode.l10n.t('API shape ({0}): message {1}: {2} (already in the original)', w.api, w.messageId, w.problem)
        : vscode.l10n.t('API shape ({0}): message {1}: {2}', w.api, w.messageId, w.problem);
    case 'fewerRounds':
      return vscode.l10n.t(
        'kept the last {0} round(s) instead of {1}: {1} rounds take {2} tokens, over the {3} left for recent messages',
        w.kept,
        w.wanted,
        n(w.tokens),
        n(w.room),
      );
    case 'lastKeptWhole':
      return w.what === 'toolBlock'
        ? vscode.l10n.t(
            'the most recent tool block alone takes {0} tokens, over the {1} left for recent messages; it is kept whole anyway',
            n(w.tokens),
            n(w.room),
          )
        : vscode.l10n.t(
            'the most recent message alone takes {0} tokens, over the {1} left for recent messages; it is kept whole anyway',
            n(w.tokens),
            n(w.room),
          );
    case 'partOfRound':
      return vscode.l10n.t(
        'kept the latest request and only the last {0} messages of the most recent round: the round takes {1} tokens, over the {2} left for recent messages',
        w.messages,
        n(w.tokens),
        n(w.room),
      );
    case 'llmNotUsed':
      return vscode.l10n.t('the {0} summary was not used ({1}); the extractive summary was used', w.summarizer, w.reason);
    case 'llmFailed':
      return vscode.l10n.t('the {0} summarizer failed ({1}); the extractive summary was used', w.summarizer, w.reason);
    case 'unsupportedClaim':
      return w.kind === 'filePath'
        ? vscode.l10n.t('the {0} summary names a file the conversation does not hold, in {1}: {2}', w.summarizer, w.section, w.text)
        : vscode.l10n.t('the {0} summary names a user request the conversation does not hold, in {1}: {2}', w.summarizer, w.section, w.text);
    case 'moreUnsupportedClaims':
      return vscode.l10n.t('the {0} summary makes {1} more claims the conversation does not hold', w.summarizer, w.count);
  }
}
