// One entry point for the three export formats (the extension's Export command and `ctxc`).

import type { Conversation } from '../model';
import { exportAnthropic } from './anthropic';
import { exportMarkdown } from './markdown';
import { exportOpenAI } from './openai';

export type ExportFormat = 'markdown' | 'openai' | 'anthropic';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['markdown', 'openai', 'anthropic'];

export function exportConversation(conv: Conversation, format: ExportFormat): string {
  switch (format) {
    case 'openai':
      return exportOpenAI(conv);
    case 'anthropic':
      return exportAnthropic(conv);
    case 'markdown':
      return exportMarkdown(conv);
  }
}
