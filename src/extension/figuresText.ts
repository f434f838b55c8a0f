// A compaction's figures (src/engine/figures.ts) in the user's language, the same words on every
// surface of the extension: the confirmation, the notifications, the chat, the inspector's header.
// Before → after are what the agent will send; the part not in the file (its system prompt and
// tools) is named beside them whenever there is one.

import * as vscode from 'vscode';
import type { CompactionFigures, NotInFileSource } from '../engine/figures';
import { groupedNumber } from './meter/meterText';

/** Where the part not in the file comes from, in a few words. */
export function notInFileOrigin(source: NotInFileSource): string {
  switch (source) {
    case 'reported':
      return vscode.l10n.t('from the usage the agent reported');
    case 'inherited':
      return vscode.l10n.t('as recorded when Compact wrote this session');
    case 'estimate':
      return vscode.l10n.t("the agent's usual amount");
    case 'none':
      return '';
  }
}

/** "(1.7x; 28,744 of each not in the file: system prompt, tools)", or "(1.7x)" when the agent sends
 *  nothing the file does not hold (or nothing is known of it). */
export function ratioAndNotInFile(f: CompactionFigures): string {
  if (f.before.notInFile === 0 && f.after.notInFile === 0) return vscode.l10n.t('({0})', f.ratio);
  if (f.before.notInFile === f.after.notInFile)
    return vscode.l10n.t('({0}; {1} of each not in the file: system prompt, tools)', f.ratio, groupedNumber(f.before.notInFile));
  return vscode.l10n.t(
    '({0}; not in the file: system prompt, tools: {1} before, {2} after)',
    f.ratio,
    groupedNumber(f.before.notInFile),
    groupedNumber(f.after.notInFile),
  );
}

/** The confirmation's line on the two parts: the file's and what is not in the file. */
export function partsLine(f: CompactionFigures): string | undefined {
  if (f.before.notInFile === 0 && f.after.notInFile === 0) return undefined;
  const origin = notInFileOrigin(f.source);
  return vscode.l10n.t(
    'In the file: {0} → {1}. Not in the file (the system prompt and tools the agent sends, {2}): {3} of each; compaction does not shrink it.',
    groupedNumber(f.before.inFile),
    groupedNumber(f.after.inFile),
    origin,
    groupedNumber(f.before.notInFile),
  );
}
