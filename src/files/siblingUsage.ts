// Usage an agent keeps beside its transcript, read for the import (importers see text only): Cline's
// and Roo Code's ui_messages.json next to a task's api_conversation_history.json. The CLI, the
// sessions listing and the extension read a transcript through here, so all three count it alike.
// The sibling is optional: missing, unreadable, too large or not a list, it gives no usage and the
// count is our own.

import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CLINE_UI_MESSAGES, clineUsageRecords } from '../engine/conversation/importers/clineUsage';
import type { UsageRecord } from '../engine/conversation/importers/reportedUsage';
import { readTextIfExists } from './readTextIfExists';

const CLINE_HISTORY = 'api_conversation_history.json';
/** Roo Code's extension id, in the path of its task folders. */
const ROO_CODE = /rooveterinaryinc\.roo-cline/i;
/** A long task's ui_messages.json is a few MB; beyond this it is not read. */
const MAX_SIBLING_BYTES = 64 * 1024 * 1024;

/** The usage records kept beside `transcriptPath`, or undefined when it has no such sibling. */
export async function siblingUsage(transcriptPath: string): Promise<UsageRecord[] | undefined> {
  if (basename(transcriptPath) !== CLINE_HISTORY) return undefined;
  const file = join(dirname(transcriptPath), CLINE_UI_MESSAGES);
  try {
    const s = await stat(file);
    if (!s.isFile() || s.size > MAX_SIBLING_BYTES) return undefined;
    const text = await readTextIfExists(file);
    if (text === undefined) return undefined;
    return clineUsageRecords(text, ROO_CODE.test(transcriptPath) ? 'roo-code' : 'cline');
  } catch {
    return undefined;
  }
}
