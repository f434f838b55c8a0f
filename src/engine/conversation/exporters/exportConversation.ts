// One entry point for the three export formats (the extension's Export command and `ctxc`).

import type { Conversation } from '../model';
import { exportAnthropic } from './anthropic';
import { exportMarkdown, type MarkdownExportOptions } from './markdown';
import { exportOpenAI } from './openai';

export type ExportFormat = 'markdown' | 'openai' | 'anthropic';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['markdown', 'openai', 'anthropic'];

/** `markdown` takes the Markdown options (textAsData for a handoff); the API shapes take none. */
export function exportConversation(conv: Conversation, format: ExportFormat, markdown: MarkdownExportOptions = {}): string {
  switch (format) {
    case 'openai':
      return exportOpenAI(conv);
    case 'anthropic':
      return exportAnthropic(conv);
    case 'markdown':
      return exportMarkdown(conv, markdown);
  }
}
