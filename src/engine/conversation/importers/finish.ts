// The last step every importer shares: make tool calls and results pair up, mark pinned
// messages, and give every message its stable id.

import { derivedMessageId, IdAllocator } from '../ids';
import type { ConversationMeta, ImportResult, ImportWarning, Message, SourceFormat } from '../model';
import { hash64 } from '../../text/hash';
import { repairToolPairing, type MessageDraft } from './toolPairing';

/** `<pin>…</pin>` anywhere in a message's text pins it: never summarized or dropped. */
const PIN = /<pin>[\s\S]*?<\/pin>/;

export interface FinishOptions {
  format: SourceFormat;
  meta: ConversationMeta;
  warnings: ImportWarning[];
}

export function finishImport(drafts: MessageDraft[], opts: FinishOptions): ImportResult {
  const paired = repairToolPairing(drafts, opts.format, opts.warnings);
  const ids = new IdAllocator();
  const messages: Message[] = paired.map((d, index) => {
    const text = draftText(d);
    const wanted = d.source?.sourceId ?? derivedMessageId(index, d.role, text);
    const m: Message = { id: ids.take(wanted), ...d };
    if (!m.pinned && PIN.test(text)) m.pinned = true;
    return m;
  });
  let digest = `${opts.format}\u0000${messages.length}`;
  for (const m of messages) digest += `\u0000${m.id}`;
  return {
    conversation: { id: `${opts.format}-${hash64(digest)}`, format: opts.format, messages, meta: opts.meta },
    warnings: opts.warnings,
  };
}

function draftText(d: MessageDraft): string {
  let out = '';
  for (const p of d.content) if (p.type === 'text' || p.type === 'thinking') out += p.text;
  if (d.toolCalls) for (const c of d.toolCalls) out += c.name + c.arguments;
  return out;
}
