// A session at a glance, before it is read whole: the input tokens of its last request, as its
// agent recorded them (one line, read from the end of the file: usageLog.ts), and its first request
// for a title (from the first lines of the file). What the meter shows the moment a session is
// found, while the session is read and counted in the background.

import { open } from 'node:fs/promises';
import { importTranscript } from '../engine/conversation/importers/detect';
import { titleText, type FoundSession } from './agentSession';
import { firstRequest } from './firstRequest';
import { readLastUsage, type LastUsage } from './usageLog';

/** The first lines read for a title. */
const HEAD_BYTES = 256 * 1024;

export interface SessionGlance {
  usage: LastUsage;
  /** The session's first request, when its first lines hold one. */
  title?: string;
}

/** The glance at a session, or undefined when its file records no request near its end. */
export async function glanceAt(found: Pick<FoundSession, 'file' | 'format' | 'title'>, withTitle = true): Promise<SessionGlance | undefined> {
  const usage = await readLastUsage(found.file, found.format);
  if (!usage) return undefined;
  const title = found.title ?? (withTitle ? await headTitle(found) : undefined);
  return { usage, ...(title ? { title } : {}) };
}

/** The first request in the file's first lines (complete lines only). */
async function headTitle(found: Pick<FoundSession, 'file' | 'format'>): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(found.file, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0);
    const head = buf.subarray(0, bytesRead);
    const end = bytesRead < HEAD_BYTES ? bytesRead : head.lastIndexOf(0x0a) + 1;
    const text = head.subarray(0, end).toString('utf8');
    if (text.trim() === '') return undefined;
    const r = importTranscript(text, { sourcePath: found.file, ...(found.format ? { format: found.format } : {}) });
    const first = firstRequest(r.conversation.messages, r.history?.conversation.messages ?? []);
    return first ? titleText(first) : undefined;
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}
