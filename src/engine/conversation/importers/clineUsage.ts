// What Cline and Roo Code recorded about their requests: ui_messages.json, beside the task's
// api_conversation_history.json. The caller reads the file (importers see text only) and passes the
// records to the import (ImportOptions.usage).
//
// Each request is a `{type: "say", say: "api_req_started", text, conversationHistoryIndex}` entry;
// `text` is JSON with `tokensIn`, `tokensOut`, `cacheWrites`, `cacheReads` once the answer streamed
// in (a request cancelled or still running has none). `conversationHistoryIndex` is the index of the
// last message of api_conversation_history.json when the entry was written — Cline writes it before
// it adds the request's user message — so the answer is the first assistant message after it. The
// request's input:
// - Cline: tokensIn + cacheWrites + cacheReads, the sum Cline's own context bar shows (with
//   Anthropic models tokensIn counts only what the cache did not hold);
// - Roo Code: tokensIn, which Roo Code reports with the cache included — unless it is smaller than
//   the cache figures (an older Roo Code that counted them apart, as Cline does).

import type { UsageSource } from '../model';
import { isObject, num, str } from './jsonShape';
import { tokenField, type UsageRecord } from './reportedUsage';

export const CLINE_UI_MESSAGES = 'ui_messages.json';

/** The requests ui_messages.json records, in order; none when the text is not such a list. */
export function clineUsageRecords(text: string, agent: Extract<UsageSource, 'cline' | 'roo-code'>): UsageRecord[] {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  const out: UsageRecord[] = [];
  list.forEach((entry, index) => {
    if (!isObject(entry) || str(entry, 'say') !== 'api_req_started') return;
    const at = num(entry, 'conversationHistoryIndex');
    const raw = str(entry, 'text');
    if (at === undefined || !Number.isInteger(at) || raw === undefined) return;
    let info: unknown;
    try {
      info = JSON.parse(raw);
    } catch {
      return;
    }
    if (!isObject(info)) return;
    const input = tokenField(info, 'tokensIn') ?? 0;
    const cacheWrite = tokenField(info, 'cacheWrites');
    const cacheRead = tokenField(info, 'cacheReads');
    const output = tokenField(info, 'tokensOut');
    const cached = (cacheWrite ?? 0) + (cacheRead ?? 0);
    const tokens = agent === 'roo-code' && input >= cached ? input : input + cached;
    if (tokens === 0) return;
    out.push({
      usage: {
        tokens,
        source: agent,
        index,
        file: CLINE_UI_MESSAGES,
        parts: {
          input,
          ...(cacheWrite !== undefined ? { cacheWrite } : {}),
          ...(cacheRead !== undefined ? { cacheRead } : {}),
          ...(output !== undefined ? { output } : {}),
        },
      },
      answer: { index: at, match: 'next' },
    });
  });
  return out;
}
